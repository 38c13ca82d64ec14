import CubeFormat
import NetCDF

/// MM5 output converted to NetCDF by the "archiver": lower-case names, cross-point
/// coordinates `latitcrs`/`longicrs` on (i south→north, j west→east), time in "minutes
/// since <start>", rain_con/rain_non in cm, pressure as pstarcrs + ptop + pp (top level
/// first), projection as scalars (`map_proj_code`, `stdlat_1`, `stdlat_2`, `stdlon`,
/// `grid_ds` in km). Read through a `FieldSource` that presents WRF names and units, so
/// the metrics are derived by the same code as WRF's.
enum MM5Convention {
  /// Variables whose presence marks a file as MM5.
  static let markers = ["latitcrs", "longicrs", "pstarcrs", "map_proj_code"]

  /// The grid is checked against `maxMemory` (`IngestCost`) before its coordinates are read.
  static func plans(
    _ paths: [String], maxMemory: Int = IngestCost.defaultMaxMemory()
  ) throws(IngestError) -> [IngestPlan] {
    var firstGrid: InputGrid?
    var firstSizes: [Float] = []
    var largest: (offset: InputGrid.Offset, grid: InputGrid)?
    let scan = try CFTimeScan(paths) { (file) throws(IngestError) in
      for required in ["latitcrs", "longicrs", "t2"] where file.variables[required] == nil {
        throw IngestError(path: file.path, variable: required, reason: "required MM5 variable is missing")
      }
      if let shape = file.variables["latitcrs"]?.shape, shape.count == 2 {
        try IngestCost.requireGrid(
          width: shape[1], height: shape[0], steps: 1, levels: 0, maxMemory: maxMemory, path: file.path)
      }
      // Every file's grid is the first file's, which must be a valid one.
      let grid = try crossPoints(of: file)
      if let firstGrid {
        let offset = try grid.requireSame(as: firstGrid, sizes: firstSizes)
        if let offset, offset.fraction > largest?.offset.fraction ?? 0 { largest = (offset, grid) }
      } else {
        _ = try grid.validated()
        firstGrid = grid
        firstSizes = grid.cellSizes()
      }
    }
    guard let firstStep = scan.steps.first, let firstGrid else { return [] }
    let (steps, reference) = (scan.steps, scan.reference)
    let stepSeconds = try TimeAxis.stepSeconds(of: steps, timeVariable: "time")
    let source = try MM5FieldSource(path: scan.firstPath)
    let (latitudes, longitudes) = (firstGrid.latitudes, firstGrid.longitudes)
    let scalar = { (name: String) in source.scalars[name] ?? .nan }
    let code = ProjectionCheck.code(source.scalars["map_proj_code"])
    let attributes: [String: NCAttribute] = [
      "MAP_PROJ": .integers([Int64(code)]),
      "TRUELAT1": .reals([scalar("stdlat_1")]), "TRUELAT2": .reals([scalar("stdlat_2")]),
      "STAND_LON": .reals([scalar("stdlon")]),
    ]
    let derivation = try WRFDerivation(
      DerivationInput(
        available: source.available, attributes: attributes, stepSeconds: stepSeconds,
        startsAtRunStart: firstStep.time == reference, label: scan.firstPath),
      longitudes: [longitudes])
    let spacing = scalar("grid_ds") * 1000
    let terrain = try TerrainInput(
      heights: source.available.contains("HGT") ? source.field("HGT", at: firstStep) : nil,
      landFraction: source.available.contains("LANDMASK") ? source.field("LANDMASK", at: firstStep) : nil,
      path: firstStep.path, heightNames: "terrain", maskNames: "landmask"
    ).terrain(cells: source.width * source.height)
    return [
      IngestPlan(
        domain: "d01", steps: steps, stepSeconds: stepSeconds, runStart: reference, width: source.width,
        height: source.height, latitudes: latitudes, longitudes: longitudes,
        projection: CubeProjection(
          code: code,
          parameters: [scalar("stdlat_1"), scalar("stdlat_2"), scalar("stdlon"), .nan, .nan, .nan, .nan, spacing]),
        gridSpacing: spacing.isNaN ? 0 : spacing, metrics: derivation.metrics,
        warnings: derivation.warnings + terrain.warnings
          + (largest.map {
            [$0.grid.toleranceWarning($0.offset, from: firstGrid, step: nil, stored: "the first file's")]
          }
            ?? []),
        terrain: terrain.terrain, levels: 0,
        screen: derivation.screen,
        derive: { (index, band) throws(IngestError) in
          try derivation.derive(index, of: steps, band: band, reader: source)
        })
    ]
  }
}

extension MM5Convention {
  /// A file's cross-point coordinates, `latitcrs`/`longicrs(i, j)`.
  static func crossPoints(of file: NCFile) throws(IngestError) -> InputGrid {
    let shape = (try? file.variable("latitcrs").shape) ?? []
    guard shape.count == 2, (try? file.variable("longicrs").shape) == shape else {
      throw IngestError(
        path: file.path, variable: "latitcrs/longicrs", reason: "expected two 2-D arrays (i, j) of the same shape")
    }
    return try readingInput("latitcrs/longicrs", from: file.path) { () throws -> InputGrid in
      InputGrid(
        path: file.path, variables: "latitcrs/longicrs", width: shape[1], height: shape[0],
        latitudes: try file.readUnpacked("latitcrs", start: [0, 0], count: shape).map(Float.init),
        longitudes: try file.readUnpacked("longicrs", start: [0, 0], count: shape).map(Float.init))
    }
  }
}

/// MM5 archiver fields under WRF's names and units.
final class MM5FieldSource: FieldSource, Sendable {
  let width: Int
  let height: Int
  let scalars: [String: Double]
  /// The WRF names this file can provide.
  let available: Set<String>
  private let rainToMillimetres: Double
  /// The run's files, each opened once (the first by `init`).
  private let inputs = OpenInputs()

  /// WRF name → MM5 name for the fields that need no more than renaming.
  private static let renamed = [
    "T2": "t2", "Q2": "q2", "U10": "u10", "V10": "v10", "HGT": "terrain", "SWDOWN": "swdown",
    "LANDMASK": "landmask",
  ]

  /// Opens its own handle on `path`: the source outlives the scan that found the file.
  init(path: String) throws(IngestError) {
    let file = try inputs.file(path)
    let shape = (try? file.variable("latitcrs").shape) ?? []
    guard shape.count == 2 else {
      throw IngestError(path: file.path, variable: "latitcrs", reason: "expected latitcrs(i, j)")
    }
    height = shape[0]
    width = shape[1]
    var scalars: [String: Double] = [:]
    for name in ["ptop", "stdlat_1", "stdlat_2", "stdlon", "conefac", "grid_ds", "map_proj_code"] {
      if let variable = file.variables[name], variable.shape.isEmpty,
        let value = try? file.readUnpacked(name).first
      {
        scalars[name] = value
      }
    }
    self.scalars = scalars
    let rainUnits = file.variables["rain_con"]?.attributes["units"]?.text ?? "cm"
    switch rainUnits {
    case "cm": rainToMillimetres = 10
    case "mm": rainToMillimetres = 1
    default:
      throw IngestError(path: file.path, variable: "rain_con", reason: "units \"\(rainUnits)\" are not cm or mm")
    }
    var available = Set(Self.renamed.filter { file.variables[$0.value] != nil }.keys)
    if file.variables["rain_con"] != nil { available.insert("RAINC") }
    if file.variables["rain_non"] != nil { available.insert("RAINNC") }
    if ["pstarcrs", "pp"].allSatisfy({ file.variables[$0] != nil }), scalars["ptop"] != nil {
      available.insert("PSFC")
    }
    self.available = available
  }

  func field(_ name: String, rows: Range<Int>, at step: StepSource) throws(IngestError) -> [Double] {
    let file = try inputs.file(step.path)
    return try readingInput(name, from: step.path) { () throws -> [Double] in
      switch name {
      case "RAINC", "RAINNC":
        return try surface(name == "RAINC" ? "rain_con" : "rain_non", rows, step, in: file).map {
          $0 * rainToMillimetres
        }
      case "PSFC":
        // The surface pressure is the reference p* plus the top plus the lowest level's
        // perturbation (the last level: MM5 counts levels from the top).
        let pstar = try surface("pstarcrs", rows, step, in: file)
        let levels = try file.variable("pp").shape[1]
        let pp = try file.readUnpacked(
          "pp", start: [step.index, levels - 1, rows.lowerBound, 0], count: [1, 1, rows.count, width])
        let top = scalars["ptop"] ?? 0
        return zip(pstar, pp).map { $0 + top + $1 }
      default:
        guard let mm5 = Self.renamed[name] else {
          throw IngestError(path: step.path, variable: name, reason: "no MM5 equivalent")
        }
        return try surface(mm5, rows, step, in: file)
      }
    }
  }

  func levels(
    _ name: String, _ levels: Range<Int>?, rows: Range<Int>, of gridRows: Int, columns: Int, at step: StepSource
  ) throws(IngestError) -> [Double] {
    throw IngestError(path: step.path, variable: name, reason: "no 3-D MM5 field is read")
  }

  private func surface(_ name: String, _ rows: Range<Int>, _ step: StepSource, in file: NCFile) throws -> [Double] {
    let variable = try file.variable(name)
    return variable.shape.count == 3
      ? try file.readUnpacked(name, start: [step.index, rows.lowerBound, 0], count: [1, rows.count, width])
      : try file.readUnpacked(name, start: [rows.lowerBound, 0], count: [rows.count, width])
  }
}
