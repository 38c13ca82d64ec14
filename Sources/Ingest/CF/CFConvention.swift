import CubeFormat
import GridGeometry
import Meteorology
import NetCDF
import UTCTime

/// CF-convention files (e.g. GFS or ERA5 converted to NetCDF): one domain, the grid of the
/// first file, the time axis of all files, quantities found by standard_name or alias.
enum CFConvention {
  /// The grid is checked against `maxMemory` (`IngestCost`) before its coordinates are read.
  static func plans(
    _ paths: [String], map: VariableMap?, maxMemory: Int = IngestCost.defaultMaxMemory()
  ) throws(IngestError) -> [IngestPlan] {
    // The first file's grid is checked beside the scan of the others and the plan's set-up.
    var validation: BackgroundGridCheck?
    do {
      return try plans(paths, map: map, maxMemory: maxMemory, validation: &validation)
    } catch {
      throw validation?.preferring(error) ?? error
    }
  }

  /// The body of `plans(_:map:maxMemory:)`, which starts the first grid's `validation` for
  /// its caller to tell a refusal of that grid from a later error.
  private static func plans(
    _ paths: [String], map: VariableMap?, maxMemory: Int, validation: inout BackgroundGridCheck?
  ) throws(IngestError) -> [IngestPlan] {
    var grid: CFGrid?
    // The first file's cell sizes, made when a file's axes first differ from its: a run
    // whose files share their axes value for value (the usual case) never needs them, and
    // on a global 0.25° grid they cost two great-circle distances for each of a million
    // cells before anything else could start.
    var sizes: [Float]?
    var largest: (offset: InputGrid.Offset, grid: InputGrid)?
    let scan = try CFTimeScan(paths) { (file) throws(IngestError) in
      if let (latitude, longitude) = CFGrid.coordinates(in: file) {
        // 1-D axes span a grid of their product; 2-D arrays are the grid.
        let (height, width) =
          latitude.shape.count == 2 ? (latitude.shape[0], latitude.shape[1]) : (latitude.count, longitude.count)
        try IngestCost.requireGrid(
          width: width, height: height, steps: 1, levels: 0, maxMemory: maxMemory, path: file.path)
      }
      let fileGrid = try CFGrid(file, reference: grid)
      // Every file's grid is the first file's, which must be a valid one.
      if let grid {
        // The first file's axes value for value: the same cells, none to compare.
        if fileGrid.axes != nil && fileGrid.axes == grid.axes { return }
        let reference = sizes ?? grid.input.cellSizes()
        sizes = reference
        let offset = try fileGrid.input.requireSame(as: grid.input, sizes: reference)
        if let offset, offset.fraction > largest?.offset.fraction ?? 0 { largest = (offset, fileGrid.input) }
      } else {
        validation = BackgroundGridCheck(fileGrid.input)
        grid = fileGrid
      }
    }
    let steps = scan.steps
    guard let grid, let validation else { return [] }
    guard !steps.isEmpty else {
      _ = try validation.grid()
      return []
    }
    let file = try NCFile.openForIngest(scan.firstPath)
    defer { file.close() }
    let stepSeconds = try TimeAxis.stepSeconds(of: steps, timeVariable: "time")
    let derivation = try CFDerivation(file: file, grid: grid, stepSeconds: stepSeconds, map: map)
    let reader = CFFieldReader(grid: grid)
    let centre = (grid.height / 2) * grid.width + grid.width / 2
    let east = min(centre + 1, grid.latitudes.count - 1)
    let spacing = GreatCircle.distance(
      latitude1: Double(grid.latitudes[centre]), longitude1: Double(grid.longitudes[centre]),
      latitude2: Double(grid.latitudes[east]), longitude2: Double(grid.longitudes[east]))
    // MAP_PROJ 6 claims an evenly spaced latitude/longitude grid; a Gaussian or a
    // curvilinear CF grid is recorded as unknown.
    let terrain = try terrain(file: file, grid: grid, reader: reader, first: steps[0])
    // Whether the grid is a lattice is a matter of its coordinates. A lattice's check goes
    // on beside the derivation (`IngestPlan.gridCheck`): its projection check and locator
    // are the lattice's own. Any other grid is checked before its plan is made, so that no
    // locator is built over a grid the check refuses.
    let isLattice =
      (try? CurvilinearGrid(
        width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes))
      .flatMap { RegularLatLonLocator(grid: $0) } != nil
    if !isLattice { _ = try validation.grid() }
    return [
      IngestPlan(
        domain: "d01", steps: steps, stepSeconds: stepSeconds,
        runStart: try runStart(file: file, reference: scan.reference, firstTime: steps[0].time),
        width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes,
        projection: CubeProjection(
          code: isLattice ? 6 : 0, parameters: [.nan, .nan, .nan, .nan, .nan, 90, 0, spacing]),
        gridSpacing: spacing, metrics: derivation.metrics,
        warnings: derivation.warnings + terrain.warnings
          + (largest.map {
            [$0.grid.toleranceWarning($0.offset, from: grid.input, step: nil, stored: "the first file's")]
          }
            ?? []),
        terrain: terrain.terrain, levels: 0, screen: derivation.screen,
        derive: { (index, band) throws(IngestError) in try derivation.derive(steps[index], band: band, reader: reader)
        },
        gridCheck: validation
      )
    ]
  }
}

extension CFConvention {
  /// Standard gravity, m/s², which turns a surface geopotential into a height.
  static let gravity = 9.80665

  /// The terrain from `surface_altitude`/`orog` (else the surface geopotential `z` over g)
  /// and `land_binary_mask`/`lsm` at the first step, when the file has them.
  fileprivate static func terrain(
    file: NCFile, grid: CFGrid, reader: CFFieldReader, first: StepSource
  ) throws(IngestError) -> (terrain: CubeTerrain?, warnings: [String]) {
    var heights: [Double]?
    if let field = try CFField.find(.orography, in: file, grid: grid) {
      heights = try reader.read(field, at: first)
    } else if let field = try CFField.find(.surfaceGeopotential, in: file, grid: grid) {
      heights = try reader.read(field, at: first).map { $0 / gravity }
    }
    let mask = try CFField.find(.landSeaMask, in: file, grid: grid)
    return TerrainInput(
      heights: heights, landFraction: try mask.map { (field) throws(IngestError) in try reader.read(field, at: first) },
      path: first.path, heightNames: "surface_altitude, orog or surface geopotential z",
      maskNames: "land_binary_mask or lsm"
    ).terrain(cells: grid.width * grid.height)
  }
}

/// The run a CF file belongs to: its `forecast_reference_time` when it has one; else the
/// time units' reference when that lies up to 16 days before the first step (GRIB
/// converters count forecast hours from the analysis time); else the first step (a
/// reanalysis such as ERA5 counts from 1900 and has no run).
private func runStart(file: NCFile, reference: Int64, firstTime: Int64) throws(IngestError) -> Int64 {
  if let variable = file.variables["forecast_reference_time"], variable.shape.count <= 1,
    let units = variable.attributes["units"]?.text, let (unit, base) = CFTime.parse(units)
  {
    let values: [Double]
    do {
      values = try file.readUnpacked(variable.name, start: variable.shape.map { _ in 0 }, count: variable.shape)
    } catch {
      throw IngestError(error)
    }
    if let first = values.first, first.isFinite {
      return try TimeAxis.time(
        first, secondsPerUnit: unit, since: base, path: file.path, variable: variable.name, what: "the run's start")
    }
  }
  return firstTime - reference >= 0 && firstTime - reference <= 16 * 86_400 ? reference : firstTime
}

/// Which CF quantities feed which metric, decided from the first file.
struct CFDerivation {
  /// The metrics the file's quantities support, and how they are derived.
  private let quantities: QuantityDerivation
  var metrics: [Metric] { quantities.metrics }
  var warnings: [String] { quantities.warnings }
  private let fields: [String: CFField]
  /// Each field's quantity, as `InputRange.table` names it.
  private let labels: [String: String]
  /// Turns implausible input values into missing ones and counts them (`InputScreen`).
  let screen = InputScreen()

  init(file: NCFile, grid: CFGrid, stepSeconds: Int64, map: VariableMap?) throws(IngestError) {
    var fields: [String: CFField] = [:]
    var labels: [String: String] = [:]
    // A mapped metric names its variable; rain's quantity (flux or amount) follows from the
    // units it is given in.
    let mapped = Dictionary(
      (map?.entries ?? [:]).compactMap { metric, entry in VariableMap.quantities[metric].map { ($0, (metric, entry)) }
      },
      uniquingKeysWith: { a, _ in a })
    func find(_ key: String, _ quantity: CFQuantity) throws(IngestError) {
      labels[key] = quantity.label
      if key == "pr" || key == "tp", let (metric, entry) = mapped["rain"], let map {
        let field = try CFField.mapped(entry, as: quantity, in: file, grid: grid, map: map.path, metric: metric)
        if field != nil { fields[key] = field }
        return
      }
      if let (metric, entry) = mapped[key], let map {
        fields[key] = try CFField.mapped(entry, as: quantity, in: file, grid: grid, map: map.path, metric: metric)
        return
      }
      if let field = try CFField.find(quantity, in: file, grid: grid) { fields[key] = field }
    }
    try find("t", .temperature)
    try find("td", .dewPoint)
    try find("rh", .humidity)
    try find("u", .eastward)
    try find("v", .northward)
    try find("msl", .seaLevelPressure)
    try find("sp", .surfacePressure)
    try find("pr", .precipitationFlux)
    try find("tp", .precipitationAmount)
    try find("cloud", .cloud)
    try find("sw", .shortwave)
    try find("vis", .visibility)
    try find("gust", .gust)
    try find("cpr", .convectiveFlux)
    try find("cpa", .convectiveAmount)
    try find("sfr", .snowfallFlux)
    try find("sfa", .snowfallAmount)
    try find("lcc", .lowCloud)
    try find("mcc", .midCloud)
    try find("hcc", .highCloud)
    try find("sde", .snowThickness)
    try find("sdwe", .snowAmount)
    try find("rsn", .snowDensity)
    if let (_, entry) = mapped["rain"], let map, fields["pr"] == nil, fields["tp"] == nil {
      throw IngestError(
        path: map.path, variable: "rain",
        reason:
          "units \"\(entry.units ?? file.variables[entry.variable]?.attributes["units"]?.text ?? "")\" of \(entry.variable) are neither a precipitation flux (kg m-2 s-1, mm/h, …) nor an amount (mm, m, kg m-2)"
      )
    }

    let quantities = QuantityDerivation(
      available: Set(fields.keys), stepSeconds: stepSeconds,
      names: QuantityDerivation.Names(
        missing: Metric.inputs(in: .cf),
        wind: Metric.windU.inputs(in: .cf) ?? "10 m eastward_wind and northward_wind",
        // CF input has no model levels, so no lifted index and never a thunderstorm.
        noThunderstorms: "model-level temperature and pressure are not read from CF input \(file.path)",
        path: file.path, snowDensity: "snow_density (rsn)"))
    let metrics = quantities.metrics
    guard !metrics.isEmpty else {
      throw IngestError(
        path: file.path,
        reason:
          "none of the CF quantities nwpcube derives metrics from was found: looked for air_temperature, dew_point_temperature, relative_humidity (2 m), eastward_wind/northward_wind (10 m), air_pressure_at_mean_sea_level, surface_air_pressure, precipitation_flux/amount, cloud_area_fraction, surface_downwelling_shortwave_flux_in_air, by standard_name and the ERA5/GFS short names"
      )
    }
    self.quantities = quantities
    self.fields = fields
    self.labels = labels
  }

  /// The metrics' values at `step` over `band`'s rows (`[metric][cell of the rows]`).
  func derive(_ step: StepSource, band: RowBand, reader: CFFieldReader) throws(IngestError) -> [[Double]] {
    var cache: [String: [Double]] = [:]
    func read(_ key: String) throws(IngestError) -> [Double] {
      if let cached = cache[key] { return cached }
      guard let field = fields[key] else { return [] }
      var values = try reader.read(field, rows: band.rows, at: step)
      // Warnings name the file's variable; the range is its quantity's.
      screen.screen(field.variable, quantity: labels[key] ?? key, &values, step: step, region: .rows(of: band))
      cache[key] = values
      return values
    }
    return try quantities.derive(cells: band.cells, read: read)
  }
}

/// Reads one field at one step from the run's files, each opened once.
final class CFFieldReader: Sendable {
  let grid: CFGrid
  private let inputs = OpenInputs()

  init(grid: CFGrid) { self.grid = grid }

  /// The whole field at a step.
  func read(_ field: CFField, at step: StepSource) throws(IngestError) -> [Double] {
    try read(field, rows: 0..<grid.height, at: step)
  }

  /// Rows `rows` of a field at a step, in one hyperslab (rows are the grid's slower
  /// dimension, so the band's values are contiguous in the file), unpacked and converted.
  func read(_ field: CFField, rows: Range<Int>, at step: StepSource) throws(IngestError) -> [Double] {
    let file = try inputs.file(step.path)
    do throws(NCError) {
      let variable = try file.variable(field.variable)
      var start: [Int] = []
      var count: [Int] = []
      for (axis, dimension) in variable.dimensions.enumerated() {
        if axis == variable.dimensions.count - 2 {
          start.append(rows.lowerBound)
          count.append(rows.count)
        } else if axis == variable.dimensions.count - 1 {
          start.append(0)
          count.append(variable.shape[axis])
        } else if file.dimension(dimension)?.isUnlimited == true || dimension.lowercased().contains("time") {
          start.append(step.index)
          count.append(1)
        } else {
          start.append(field.level ?? 0)
          count.append(1)
        }
      }
      var values = try file.readUnpacked(field.variable, start: start, count: count)
      field.conversion.apply(to: &values)
      return values
    } catch {
      throw IngestError(error)
    }
  }
}
