import Foundation
import GridGeometry
import Testing
import _TestSupport

/// A point and the grid coordinates wrf-python 1.3.4.1 gives for it.
struct Reference: Sendable, CustomStringConvertible {
  let latitude: Double
  let longitude: Double
  let x: Double
  let y: Double

  init(_ latitude: Double, _ longitude: Double, _ x: Double, _ y: Double) {
    (self.latitude, self.longitude, self.x, self.y) = (latitude, longitude, x, y)
  }

  var description: String { "\(latitude), \(longitude)" }
}

/// Projection parameters and an anchor, as `wrf.ll_to_xy_proj` takes them.
struct ProjectionCase: Sendable, CustomStringConvertible {
  let name: String
  let kind: MapProjection.Kind
  let truelat1: Double
  let truelat2: Double
  let standardLongitude: Double
  let poleLatitude: Double
  let origin: (latitude: Double, longitude: Double)
  let dx: Double
  let references: [Reference]
  /// A grid position and the latitude/longitude `wrf.xy_to_ll_proj` gives for it.
  let inverse: (x: Double, y: Double, latitude: Double, longitude: Double)

  var description: String { name }

  func projection() throws -> MapProjection {
    try MapProjection(
      kind: kind, truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude,
      poleLatitude: poleLatitude, gridSpacing: dx, origin: origin)
  }
}

/// The expected values below come from wrf-python 1.3.4.1 (WRF's llxy routines in double
/// precision): `wrf.ll_to_xy_proj(lat, lon, as_int=False, map_proj=…, truelat1=…,
/// truelat2=…, stand_lon=…, ref_lat=…, ref_lon=…, pole_lat=…, pole_lon=…, known_x=0,
/// known_y=0, dx=…, dy=…, latinc=…, loninc=…)` with latinc = loninc = DX·360/(2π·6370 km)
/// and, for the files, ref_lat/ref_lon = XLAT[0, 0]/XLONG[0, 0], which is what
/// `wrf.ll_to_xy(file, …)` passes; and `wrf.xy_to_ll_proj` for the inverse.
let projectionCases: [ProjectionCase] = [
  ProjectionCase(
    name: "Lambert south, two true latitudes", kind: .lambertConformal, truelat1: -30, truelat2: -60,
    standardLongitude: 140, poleLatitude: 90, origin: (-45, 130), dx: 12_000,
    references: [
      Reference(-39.9992, 137.1777, 43.6702994980281, 48.42453428634383),
      Reference(-38.7945, 131.8017, 5.635619614452388, 56.663637493419515),
      Reference(-42.5987, 136.9884, 43.244667707316395, 25.068423978981514),
    ], inverse: (0.316, 49.274, -39.54697398928373, 130.92999409128356)),
  ProjectionCase(
    name: "Lambert tangent", kind: .lambertConformal, truelat1: 45, truelat2: 45, standardLongitude: -100,
    poleLatitude: 90, origin: (35, -110), dx: 20_000,
    references: [
      Reference(41.3766, -106.2565, 19.9612514253676, 33.86818937319862),
      Reference(37.4243, -107.7726, 11.534161704126504, 12.440989131843935),
      Reference(37.039, -106.4394, 17.275033936422556, 9.767118330788207),
    ], inverse: (30.273, 33.21, 41.37328877945623, -103.784210374998)),
  ProjectionCase(
    name: "polar stereographic north", kind: .polarStereographic, truelat1: 60, truelat2: 60,
    standardLongitude: -45, poleLatitude: 90, origin: (55, -100), dx: 25_000,
    references: [
      Reference(62.964, -93.6587, 36.98147081912056, 10.482117188569461),
      Reference(59.9774, -92.0883, 29.41966780371358, -0.8247675882362984),
      Reference(56.7225, -98.7183, 8.25873719598873, 1.9028227321764888),
    ], inverse: (36.752, 2.637, 61.716055921053204, -90.9131338866502)),
  ProjectionCase(
    name: "polar stereographic south", kind: .polarStereographic, truelat1: -71, truelat2: -71,
    standardLongitude: 0, poleLatitude: 90, origin: (-60, -30), dx: 15_000,
    references: [
      Reference(-59.7146, -25.8809, 13.093806592027605, 9.441161279385824),
      Reference(-56.2704, -22.6627, 14.18446874630834, 39.40531758180211),
      Reference(-54.9662, -25.8871, -3.1612043338696196, 42.88081021156515),
    ], inverse: (29.812, 14.851, -59.94044034626795, -21.38154154758449)),
  ProjectionCase(
    name: "Mercator south, across the dateline", kind: .mercator, truelat1: -20, truelat2: 0, standardLongitude: 0,
    poleLatitude: 90, origin: (-40, 170), dx: 30_000,
    references: [
      Reference(-39.9056, 171.5392, 5.360143496367155, 0.42884421305035403),
      Reference(-34.4637, 171.6049, 5.588938602728437, 24.23520773683255),
      Reference(-37.0437, 170.0299, 0.10412440913550336, 13.162141597452518),
    ], inverse: (49.803, 9.268, -37.93098103800698, -175.69874525710853)),
  ProjectionCase(
    name: "rotated pole", kind: .latitudeLongitude, truelat1: 0, truelat2: 0, standardLongitude: -18,
    poleLatitude: 39.25, origin: (40, 5), dx: 12_000,
    references: [
      Reference(42.1408, 12.0427, 51.987452054777165, 13.295206591096107),
      Reference(44.0783, 11.7772, 51.68267863930287, 31.332775293575352),
      Reference(45.1177, 10.9342, 46.98629417178364, 41.424271968784765),
    ], inverse: (5.49, 32.469, 43.55307008824647, 4.945430369307327)),
  ProjectionCase(
    name: "latitude-longitude", kind: .latitudeLongitude, truelat1: 0, truelat2: 0, standardLongitude: 0,
    poleLatitude: 90, origin: (-10, -170), dx: 50_000,
    references: [
      Reference(-5.9378, -163.0293, 15.499696269901122, 9.03250264501304),
      Reference(-7.1099, -165.2145, 10.640795974523662, 6.426280314694547),
      Reference(-9.526, -166.8989, 6.895449252240155, 1.0539624473773284),
    ], inverse: (19.382, 9.012, -5.9470206831091215, -161.28330613404592)),
]

/// Points of the real sample grids and what wrf-python gives for them on each grid.
let fileReferences: [(path: String, references: [Reference])] = [
  (
    SampleFiles.allvars,
    [
      Reference(30.6512, 86.4852, 2.859452920977727, 5.916691250074962),
      Reference(30.4304, 86.2215, 2.0131402084749905, 5.103842421958348),
      Reference(30.7151, 86.209, 1.9810362383731728, 6.158777853967081),
    ]
  ),
  (
    SampleFiles.tipD1,
    [
      Reference(20.8498, 105.6828, 165.1117300924749, 71.09749793411464),
      Reference(32.2848, 95.8149, 127.05952128458583, 109.10220205724039),
      Reference(33.6469, 84.5239, 91.86753708410718, 113.09405970594594),
    ]
  ),
  (
    SampleFiles.tipD2,
    [
      Reference(30.6855, 95.3613, 223.3249909597763, 64.25145175380203),
      Reference(33.9945, 90.115, 172.19097715809747, 98.29742265200059),
      Reference(34.3743, 84.9399, 124.60500370030252, 102.28110176030339),
    ]
  ),
  (
    SampleFiles.mercator,
    [
      Reference(22.6458, -8.4135, 143.3427776313381, 293.7661866178256),
      Reference(8.2542, 11.5878, 380.84854024588486, 115.92585613751011),
      Reference(10.3949, -16.6354, 45.71169216986597, 141.68759734939798),
    ]
  ),
]

/// Both are double precision; what is left is rounding, a few 10⁻¹² of a cell.
private let wrfPythonTolerance = 1e-9

private func expectMatches(_ projection: MapProjection, _ references: [Reference]) {
  for reference in references {
    guard let (x, y) = projection.gridCoordinates(latitude: reference.latitude, longitude: reference.longitude)
    else {
      Issue.record("\(reference) did not map")
      continue
    }
    #expect(abs(x - reference.x) < wrfPythonTolerance, "x at \(reference): \(x) vs \(reference.x)")
    #expect(abs(y - reference.y) < wrfPythonTolerance, "y at \(reference): \(y) vs \(reference.y)")
  }
}

@Suite struct MapProjectionTests {
  @Test(arguments: projectionCases)
  func gridCoordinatesAreWRFPythonsLLToXY(_ projectionCase: ProjectionCase) throws {
    expectMatches(try projectionCase.projection(), projectionCase.references)
  }

  @Test(arguments: projectionCases)
  func coordinatesAreWRFPythonsXYToLLAndInvertTheMapping(_ projectionCase: ProjectionCase) throws {
    let projection = try projectionCase.projection()
    let inverse = projectionCase.inverse
    let (latitude, longitude) = projection.coordinates(x: inverse.x, y: inverse.y)
    #expect(abs(latitude - inverse.latitude) < 1e-9 && abs(longitude - inverse.longitude) < 1e-9)
    var random = TestRandom(seed: 17)
    for _ in 0..<200 {
      let (x, y) = (random.uniform(-20...120), random.uniform(-20...120))
      let point = projection.coordinates(x: x, y: y)
      let back = try #require(projection.gridCoordinates(latitude: point.latitude, longitude: point.longitude))
      #expect(abs(back.x - x) < 1e-8 && abs(back.y - y) < 1e-8, "(\(x), \(y)) → \(point) → \(back)")
    }
  }

  /// Where the latitude table cannot follow the formulas (towards a cone's pole, or
  /// Mercator's), the mapping computes them directly: the whole globe round-trips through
  /// the exact inverse.
  @Test(arguments: projectionCases)
  func everyLatitudeMapsAsTheFormulasSay(_ projectionCase: ProjectionCase) throws {
    let projection = try projectionCase.projection()
    var random = TestRandom(seed: 23)
    for k in 0..<2_000 {
      let latitude = k < 100 ? 89.999 - Double(k) * 0.01 : random.uniform(-89.999...89.999)
      let longitude = random.uniform(-179.9...179.9)
      guard let (x, y) = projection.gridCoordinates(latitude: latitude, longitude: longitude), x.isFinite, y.isFinite
      else { continue }
      let back = projection.coordinates(x: x, y: y)
      // 10⁻⁹° is 0.1 mm: a table error of even 10⁻⁶ cell would show.
      #expect(abs(back.latitude - latitude) < 1e-9, "\(latitude), \(longitude) → (\(x), \(y)) → \(back)")
      var dLongitude = abs(back.longitude - longitude)
      dLongitude = min(dLongitude, 360 - dLongitude)
      #expect(dLongitude * cos(latitude * .pi / 180) < 1e-9, "\(latitude), \(longitude) → \(back)")
    }
  }

  /// The files' own anchor (XLAT/XLONG of cell (0, 0)) and attributes, as ingest reads them.
  @Test(arguments: fileReferences.map(\.path))
  func realFilesMapAsWRFPythonMapsThem(path: String) throws {
    let file = try GridFiles.wrf(path)
    let projection = try MapProjection(wrfCode: file.code, parameters: file.parameters, grid: file.grid)
    expectMatches(projection, fileReferences.first { $0.path == path }?.references ?? [])
  }

  @Test func theMM5GeometryMapsAsWRFPythonMapsItsLambertParameters() throws {
    let mm5 = try GridFiles.mm5Geometry()
    let projection = try MapProjection(wrfCode: mm5.code, parameters: mm5.parameters, grid: mm5.grid)
    expectMatches(
      projection,
      [
        Reference(43.6111, 45.0769, 92.93861366992287, 61.9915551359999),
        Reference(36.467, 15.8879, 5.849235067760198, 28.981992751403027),
        Reference(48.1196, 13.3156, 4.939980924509108, 76.07102639211186),
      ])
  }

  /// A cut-down file keeps its full domain's CEN_LAT/CEN_LON: the allvars file is 10 × 8
  /// cells of a 200 × 200 domain centred on 30 N 87 E, and the tip d02 file says the same
  /// centre as the tip d01. Neither changes where the mapping puts anything.
  @Test func theCentreAttributesAreNeverUsed() throws {
    let file = try GridFiles.wrf(SampleFiles.allvars)
    var elsewhere = file.parameters
    elsewhere[3] = -45
    elsewhere[4] = 10
    let a = try MapProjection(wrfCode: file.code, parameters: file.parameters, grid: file.grid)
    let b = try MapProjection(wrfCode: file.code, parameters: elsewhere, grid: file.grid)
    let (x1, y1) = try #require(a.gridCoordinates(latitude: 30.5, longitude: 86.3))
    let (x2, y2) = try #require(b.gridCoordinates(latitude: 30.5, longitude: 86.3))
    #expect(x1 == x2 && y1 == y2)
  }

  @Test func parametersThatDescribeNoProjectionAreRejectedWithAReason() throws {
    let grid = try WRFFixture.grid(SampleFiles.allvars)
    let good = [30, 35, 87, 30, 87, 90, 0, 30_000.0]
    func rejection(_ code: Int, _ change: (inout [Double]) -> Void) -> String? {
      var parameters = good
      change(&parameters)
      do {
        _ = try MapProjection(wrfCode: code, parameters: parameters, grid: grid)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(rejection(1) { _ in } == nil)
    #expect(rejection(4) { _ in }?.contains("MAP_PROJ 4") == true)
    #expect(rejection(0) { _ in }?.contains("MAP_PROJ 0") == true)
    #expect(rejection(1) { $0[7] = .nan }?.contains("DX") == true)
    #expect(rejection(1) { $0[7] = -9000 }?.contains("DX") == true)
    #expect(rejection(1) { $0[0] = .nan }?.contains("TRUELAT1") == true)
    #expect(rejection(1) { $0[0] = 0 }?.contains("TRUELAT1") == true)
    #expect(rejection(1) { $0[1] = -35 }?.contains("TRUELAT2") == true)
    #expect(rejection(1) { $0[2] = .infinity }?.contains("STAND_LON") == true)
    #expect(rejection(2) { $0[0] = 95 }?.contains("TRUELAT1") == true)
    #expect(rejection(3) { $0[0] = 90 }?.contains("TRUELAT1") == true)
    #expect(
      rejection(6) {
        $0[5] = 40; $0[2] = .nan
      }?.contains("STAND_LON") == true)
    // A missing TRUELAT2 is a tangent cone at TRUELAT1, as in WRF.
    #expect(rejection(1) { $0[1] = .nan } == nil)
  }

  @Test func pointsOffTheGlobeDoNotMap() throws {
    let file = try GridFiles.wrf(SampleFiles.tipD2)
    let projection = try MapProjection(wrfCode: file.code, parameters: file.parameters, grid: file.grid)
    #expect(projection.gridCoordinates(latitude: .nan, longitude: 90) == nil)
    #expect(projection.gridCoordinates(latitude: 91, longitude: 90) == nil)
    #expect(projection.gridCoordinates(latitude: 30, longitude: 400) == nil)
    #expect(projection.gridCoordinates(latitude: 30, longitude: -.infinity) == nil)
  }
}
