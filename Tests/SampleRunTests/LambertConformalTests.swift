import Foundation
import GridGeometry
import NetCDF
import Testing

@Suite struct LambertConformalTests {
  /// n = ln(cos φ₁ / cos φ₂) / ln(tan(45° + φ₂/2) / tan(45° + φ₁/2)), written out here
  /// independently of the implementation.
  private func textbookCone(_ truelat1: Double, _ truelat2: Double) -> Double {
    let phi1 = truelat1 * Double.pi / 180
    let phi2 = truelat2 * Double.pi / 180
    return log(cos(phi1) / cos(phi2)) / log(tan(Double.pi / 4 + phi2 / 2) / tan(Double.pi / 4 + phi1 / 2))
  }

  @Test func secantConeFactorIsTheTextbookOne() {
    let portugal = LambertConformal(truelat1: 30, truelat2: 60, standardLongitude: -8)
    #expect(abs(portugal.cone - textbookCone(30, 60)) < 1e-12)
    #expect(abs(portugal.cone - 0.715_566_8) < 1e-6)
    let swapped = LambertConformal(truelat1: 60, truelat2: 30, standardLongitude: -8)
    #expect(abs(swapped.cone - portugal.cone) < 1e-12)
    let south = LambertConformal(truelat1: -30, truelat2: -60, standardLongitude: 140)
    #expect(abs(south.cone - portugal.cone) < 1e-12)
  }

  @Test func nearlyEqualTrueLatitudesMakeATangentCone() {
    let tangent = LambertConformal(truelat1: 45, truelat2: 45.05, standardLongitude: 0)
    #expect(tangent.cone == sin(45 * Double.pi / 180))
    let secant = LambertConformal(truelat1: 45, truelat2: 45.2, standardLongitude: 0)
    #expect(abs(secant.cone - textbookCone(45, 45.2)) < 1e-9)
    #expect(abs(secant.cone - tangent.cone) < 2e-3)
  }

  @Test(arguments: [
    (30.0, 60.0, -8.0), (30.0, 35.0, 87.0), (45.0, 45.0, 170.0), (-30.0, -60.0, 140.0), (-20.0, -20.0, -60.0),
  ])
  func projectionRoundTrips(truelat1: Double, truelat2: Double, standardLongitude: Double) {
    let projection = LambertConformal(
      truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude)
    let hemisphere: Double = truelat1 < 0 ? -1 : 1
    var worstDegrees = 0.0
    var worstMetres = 0.0
    for latitudeStep in 0...18 {
      let latitude = hemisphere * (-10 + 5 * Double(latitudeStep))
      for longitudeStep in 0...36 {
        var longitude = standardLongitude - 175 + 350 * Double(longitudeStep) / 36
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        let map = projection.project(latitude: latitude, longitude: longitude)
        let back = projection.unproject(x: map.x, y: map.y)
        #expect(back.longitude >= -180 && back.longitude <= 180)
        var longitudeError = abs(back.longitude - longitude)
        longitudeError = min(longitudeError, 360 - longitudeError)
        worstDegrees = max(worstDegrees, abs(back.latitude - latitude), longitudeError)
        let again = projection.project(latitude: back.latitude, longitude: back.longitude)
        worstMetres = max(worstMetres, abs(again.x - map.x), abs(again.y - map.y))
      }
    }
    #expect(worstDegrees < 1e-9)
    #expect(worstMetres < 1e-4)
  }

  /// The angle must be the one that turns grid north into true north on the map itself,
  /// found here by stepping a metre along grid north and looking at where that goes.
  @Test(arguments: [(30.0, 60.0, -8.0, 39.5), (30.0, 35.0, 87.0, 30.0), (-30.0, -60.0, 140.0, -35.0)])
  func rotationTurnsGridNorthIntoTrueNorth(
    truelat1: Double, truelat2: Double, standardLongitude: Double, latitude: Double
  ) {
    let projection = LambertConformal(
      truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude)
    for offset in stride(from: -20.0, through: 20.0, by: 5) {
      let longitude = standardLongitude + offset
      let here = projection.project(latitude: latitude, longitude: longitude)
      let step = projection.unproject(x: here.x, y: here.y + 1)
      let east = (step.longitude - longitude) * cos(latitude * Double.pi / 180)
      let north = step.latitude - latitude
      let length = (east * east + north * north).squareRoot()
      // Grid north (u, v) = (0, 1) in earth axes: u_e = −sin α, v_e = cos α.
      let alpha = projection.gridRotation(longitude: longitude)
      #expect(abs(-sin(alpha) - east / length) < 1e-6, "east component at \(longitude)")
      #expect(abs(cos(alpha) - north / length) < 1e-6, "north component at \(longitude)")
    }
  }

  @Test func rotationMatchesTheCOSALPHAAndSINALPHAOfRealWRFOutput() throws {
    let file = try NCFile.open(Scratch.realLambertFile)
    defer { file.close() }
    let attributes = file.globalAttributes
    #expect(attributes["MAP_PROJ"]?.number == 1)
    let projection = LambertConformal(
      truelat1: try #require(attributes["TRUELAT1"]?.number),
      truelat2: try #require(attributes["TRUELAT2"]?.number),
      standardLongitude: try #require(attributes["STAND_LON"]?.number))
    let longitudes = try file.readUnpacked("XLONG")
    let cosines = try file.readUnpacked("COSALPHA")
    let sines = try file.readUnpacked("SINALPHA")
    #expect(longitudes.count == 80)
    // The file's rotations are up to ±0.013, so a sign error would be off by 0.026.
    #expect((sines.max() ?? 0) > 0.01 && (sines.min() ?? 0) < -0.01)
    for cell in longitudes.indices {
      let alpha = projection.gridRotation(longitude: longitudes[cell])
      #expect(abs(cos(alpha) - cosines[cell]) < 1e-3, "COSALPHA at cell \(cell)")
      #expect(abs(sin(alpha) - sines[cell]) < 1e-3, "SINALPHA at cell \(cell)")
    }
  }

  @Test func realWRFMassPointsAreEvenlySpacedOnThisProjection() throws {
    let file = try NCFile.open(Scratch.realLambertFile)
    defer { file.close() }
    let attributes = file.globalAttributes
    let projection = LambertConformal(
      truelat1: try #require(attributes["TRUELAT1"]?.number),
      truelat2: try #require(attributes["TRUELAT2"]?.number),
      standardLongitude: try #require(attributes["STAND_LON"]?.number))
    let dx = try #require(attributes["DX"]?.number)
    let shape = try file.variable("XLAT").shape
    let (ny, nx) = (shape[0], shape[1])
    let latitudes = try file.readUnpacked("XLAT")
    let longitudes = try file.readUnpacked("XLONG")
    let points = latitudes.indices.map { projection.project(latitude: latitudes[$0], longitude: longitudes[$0]) }
    let origin = points[0]
    var worst = 0.0
    for j in 0..<ny {
      for i in 0..<nx {
        let point = points[j * nx + i]
        worst = max(
          worst, abs(point.x - origin.x - Double(i) * dx), abs(point.y - origin.y - Double(j) * dx))
      }
    }
    // Float coordinates at 30 N are good to about a metre.
    #expect(worst < 5, "worst departure from a \(dx) m grid: \(worst) m")
  }
}
