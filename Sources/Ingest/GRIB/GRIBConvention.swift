import CubeFormat
import GRIB
import GridGeometry
import Meteorology
import UTCTime

/// GRIB runs (GFS, NAM, HRRR, ICON, IFS, WRF after UPP): one domain, the grid of the
/// messages used, the steps of their valid times within one reference time, and the
/// quantities of the parameter table (`GRIBParameterTable`), derived into metrics as CF
/// quantities are (`QuantityDerivation`).
enum GRIBConvention {
  /// The plan of the run in `paths` (one file, or one file per step, in any order).
  static func plans(
    _ paths: [String], map: VariableMap?, maxMemory: Int = IngestCost.defaultMaxMemory()
  ) throws(IngestError) -> [IngestPlan] {
    let inventory = try GRIBInventory(paths, rows: try rows(map: map))
    // A mapped parameter the run lacks is the operator's mistake, as a mapped CF variable
    // that is not in the file is.
    for (metric, entry) in (map?.entries ?? [:]).sorted(by: { $0.key < $1.key }) {
      guard let map, let quantity = VariableMap.quantities[metric] else { continue }
      guard inventory.quantities[quantity == "rain" ? "pr" : quantity] == nil else { continue }
      throw IngestError(
        path: map.path, variable: metric,
        reason: "no message in \(paths.count == 1 ? paths[0] : "the run's \(paths.count) files") is \(entry.variable)")
    }
    let grid = inventory.grid
    let firstPath = inventory.gridSource.file.path
    try IngestCost.requireGrid(
      width: grid.width, height: grid.height, steps: 1, levels: 0, maxMemory: maxMemory, path: firstPath,
      wholeFieldReads: IngestCost.gribFieldsDecoded,
      stepFields: GRIBStepReader.fieldsHeld(quantities: inventory.quantities.count))
    let input = InputGrid(
      path: firstPath, variables: "message \(inventory.gridSource.message.number): the grid's latitudes/longitudes",
      width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
    let curvilinear = try input.validated()

    let (steps, stepSeconds) = try Self.steps(inventory)
    // An hour's (or a longer step's) amount: the rules of `Deaccumulator`, by windows.
    let interval = max(stepSeconds, 3600)
    var recipes: [String: [GRIBRecipe]] = [:]
    var warnings = inventory.warnings
    for (key, quantity) in inventory.quantities.sorted(by: { $0.key < $1.key })
    where !GRIBParameterTable.terrainKeys.contains(key) {
      let row = quantity.row
      let perStep = steps.indices.map { index in
        let time = steps[index].time - inventory.referenceTime
        return row.isWindowed
          ? GRIBRecipe.windowed(
            quantity, at: time, interval: interval, isFirstStep: index == 0,
            outputSeconds: row.unit == .millimetres ? 3600 : 1, zeroAtStart: row.unit == .millimetres)
          : GRIBRecipe.instant(quantity, at: time)
      }
      let unknown = perStep.indices.filter { if case .unknown = perStep[$0] { true } else { false } }
      if unknown.count == perStep.count {
        warnings.append(
          "\(row.description) is in the run but no step's value can be made from it (\(Self.windowsText(quantity))): left out"
        )
        continue
      }
      if let first = unknown.first {
        warnings.append(
          "\(row.description) is unknown at \(unknown.count) of \(steps.count) steps (the first at \(UTC.iso8601(steps[first].time))): missing there"
        )
      }
      recipes[key] = perStep
    }
    var names = QuantityDerivation.Names(
      missing: GRIBParameterTable.missing, wind: GRIBParameterTable.wind,
      noThunderstorms: "4lftx, lftx or cape (0/7/11, 0/7/10 or 0/7/6) not found in \(firstPath)", path: firstPath)
    names.snowDensity = "rsn (0/1/61 surface)"
    let derivation = QuantityDerivation(available: Set(recipes.keys), stepSeconds: stepSeconds, names: names)
    guard !derivation.metrics.isEmpty else {
      throw IngestError(
        path: firstPath,
        reason:
          "none of the GRIB parameters nwpcube derives metrics from has a value at any step: looked for \(GRIBParameterTable.rows.map(\.description).joined(separator: "; "))"
      )
    }
    let rotation = try windRotation(inventory, recipes: recipes)
    let terrain = try terrain(inventory)
    let reader = GRIBStepReader(
      width: grid.width, recipes: recipes, rotation: rotation, derivation: derivation, steps: steps,
      names: inventory.quantities.mapValues(\.row.description))
    let (projection, spacing) = cubeProjection(grid, curvilinear: curvilinear)
    var plan = IngestPlan(
      domain: domain(grid), steps: steps, stepSeconds: stepSeconds, runStart: inventory.referenceTime,
      width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes,
      projection: projection, gridSpacing: spacing, metrics: derivation.metrics,
      warnings: warnings + derivation.warnings + terrain.warnings, terrain: terrain.terrain, levels: 0,
      screen: reader.screen,
      derive: { (index, band) throws(IngestError) in try reader.derive(index, band: band) })
    plan.model = model(centre: inventory.centre)
    plan.spareMemory = { [fields = reader.fields] in fields.allow($0) }
    plan.stepFields = GRIBStepReader.fieldsHeld(quantities: recipes.count)
    plan.wholeFields = GRIBDecodedFields.wholeFields(in: recipes)
    return [plan]
  }

  /// The table's rows, with each `--map` entry's row in place of the rows of the quantity
  /// it names.
  static func rows(map: VariableMap?) throws(IngestError) -> [GRIBParameterTable.Row] {
    guard let map else { return GRIBParameterTable.rows }
    var rows = GRIBParameterTable.rows
    for (metric, entry) in map.entries.sorted(by: { $0.key < $1.key }) {
      guard let quantity = VariableMap.quantities[metric] else { continue }
      let key = quantity == "rain" ? "pr" : quantity
      guard let model = GRIBParameterTable.rows.first(where: { $0.key == key }) else { continue }
      guard
        let row = GRIBParameterTable.mapped(entry.variable, key: key, unit: model.unit, rateUnit: model.rateUnit)
      else {
        throw IngestError(
          path: map.path, variable: metric,
          reason:
            "\"\(entry.variable)\" names no GRIB parameter: give a shortName or discipline/category/number, optionally followed by :typeOfLevel and :level (e.g. 2t or 0/0/0:heightAboveGround:2)"
        )
      }
      rows.removeAll { $0.key == key }
      rows.insert(row, at: 0)
    }
    return rows
  }

  /// The run's steps at the valid times of its fields, checked as every convention's are.
  private static func steps(_ inventory: GRIBInventory) throws(IngestError) -> ([StepSource], Int64) {
    var paths: [Int64: String] = [:]
    for (_, quantity) in inventory.quantities.sorted(by: { $0.key < $1.key }) {
      for (time, field) in quantity.instants where paths[time] == nil { paths[time] = field.file.path }
      for (time, windows) in quantity.windows where paths[time] == nil { paths[time] = windows.first?.field.file.path }
    }
    var steps: [StepSource] = []
    for (index, offset) in inventory.validTimes.enumerated() {
      let path = paths[offset] ?? inventory.gridSource.file.path
      let (time, overflow) = inventory.referenceTime.addingReportingOverflow(offset)
      guard !overflow else {
        throw IngestError(path: path, variable: "endStep", reason: "a step of \(offset) s is beyond any date")
      }
      steps.append(
        StepSource(
          path: path, index: index,
          time: try TimeAxis.checked(time, path: path, variable: "endStep", what: "the valid time")))
    }
    guard !steps.isEmpty else {
      throw IngestError(
        path: inventory.gridSource.file.path,
        reason: "the run has terrain (orog, lsm) but no field at any step")
    }
    return (steps, try TimeAxis.stepSeconds(of: steps, timeVariable: "endStep"))
  }

  /// "windows 0–6 h, 6–12 h" or "instants at 0 h", for a warning.
  private static func windowsText(_ quantity: GRIBInventory.Quantity) -> String {
    let windows = quantity.windows.values.flatMap { $0 }.sorted { ($0.end, $0.start) < ($1.end, $1.start) }
      .prefix(6).map { "\(GRIBInventory.hours($0.start))–\(GRIBInventory.hours($0.end))" }
    let instants = quantity.instants.keys.sorted().prefix(6).map { GRIBInventory.hours($0) }
    return (windows.isEmpty ? [] : ["windows " + windows.joined(separator: ", ")])
      .appending(instants.isEmpty ? nil : "instants at " + instants.joined(separator: ", ")).joined(separator: "; ")
  }

  /// The turn of grid-relative winds to the earth, when the run's 10 m winds are
  /// grid-relative (`uvRelativeToGrid`); nil when they are earth-relative already.
  private static func windRotation(
    _ inventory: GRIBInventory, recipes: [String: [GRIBRecipe]]
  ) throws(IngestError) -> WindRotation? {
    guard let u = inventory.quantities["u"], let v = inventory.quantities["v"], recipes["u"] != nil,
      recipes["v"] != nil
    else { return nil }
    let fields = (Array(u.instants.values) + Array(v.instants.values)).sorted { $0.place < $1.place }
    guard let first = fields.first else { return nil }
    if let other = fields.first(where: { $0.message.uvRelativeToGrid != first.message.uvRelativeToGrid }) {
      throw IngestError(
        path: other.file.path, variable: "message \(other.message.number)",
        reason:
          "its wind is \(other.message.uvRelativeToGrid ? "grid-relative" : "earth-relative") (uvRelativeToGrid), unlike \(first.place): a run's winds must be in one frame"
      )
    }
    guard first.message.uvRelativeToGrid else { return nil }
    let grid = inventory.grid
    switch grid.frame {
    case .latitudeLongitude: return nil
    case .rotated:
      guard let turn = grid.rotatedWindTurn() else { return nil }
      return .perCell(cos: turn.cos, sin: turn.sin)
    case .projected(let kind, let truelat1, let truelat2, let standardLongitude, _):
      let rotation = WindRotation.conic(
        kind, truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude,
        longitudes: grid.longitudes)
      if case .aligned = rotation { return nil }
      return rotation
    }
  }

  /// The terrain from `orog` (or a surface geopotential) and `lsm`, each from its
  /// earliest message.
  private static func terrain(
    _ inventory: GRIBInventory
  ) throws(IngestError) -> (
    terrain: CubeTerrain?, warnings: [String]
  ) {
    func earliest(_ key: String) throws(IngestError) -> [Double]? {
      guard let quantity = inventory.quantities[key], let time = quantity.instants.keys.min(),
        let field = quantity.instants[time]
      else { return nil }
      return try field.values()
    }
    return TerrainInput(
      heights: try earliest("orog"), landFraction: try earliest("lsm"), path: inventory.gridSource.file.path,
      heightNames: "orog, hsurf or surface z (0/3/5 or 0/3/4 surface)", maskNames: "lsm (2/0/0 surface)"
    ).terrain(cells: inventory.grid.width * inventory.grid.height)
  }

  /// The projection a cube records, and the grid spacing in metres. A projected grid
  /// whose projection counts cells as the cube does records it (WRF's codes and
  /// parameters: the analytic locator); a regular latitude/longitude lattice records
  /// code 6 (its own locator); any other grid records none (the generic locator).
  private static func cubeProjection(_ grid: GRIBGrid, curvilinear: CurvilinearGrid) -> (CubeProjection, Double) {
    let centre = (grid.height / 2) * grid.width + grid.width / 2
    let east = min(centre + 1, grid.latitudes.count - 1)
    let measured = GreatCircle.distance(
      latitude1: Double(grid.latitudes[centre]), longitude1: Double(grid.longitudes[centre]),
      latitude2: Double(grid.latitudes[east]), longitude2: Double(grid.longitudes[east]))
    if grid.projection != nil,
      case .projected(let kind, let truelat1, let truelat2, let standardLongitude, let spacing) =
        grid.frame
    {
      return (
        CubeProjection(
          code: UInt32(kind.rawValue),
          parameters: [truelat1, truelat2, standardLongitude, .nan, .nan, .nan, .nan, spacing]),
        spacing
      )
    }
    let isLattice = RegularLatLonLocator(grid: curvilinear) != nil
    return (
      CubeProjection(code: isLattice ? 6 : 0, parameters: [.nan, .nan, .nan, .nan, .nan, 90, 0, measured]), measured
    )
  }

  /// The domain named from the grid: its type and size (`lcc93x65`, `ll144x73`), so that
  /// a centre's models on different grids (NCEP's GFS and NAM) keep apart in one store;
  /// `d01` when that would be longer than a domain name may be.
  static func domain(_ grid: GRIBGrid) -> String {
    let prefixes = [
      "regular_ll": "ll", "regular_gg": "gg", "rotated_ll": "rll", "lambert": "lcc", "polar_stereographic": "ps",
      "mercator": "merc",
    ]
    let name = "\(prefixes[grid.gridType] ?? "grid")\(grid.width)x\(grid.height)"
    return StoreLayout.isValidComponent(name, maxBytes: 15) ? name : "d01"
  }

  /// The model named from the centre (ecCodes' `centre`): `ncep` for `kwbc`, `ecmwf` for
  /// `ecmf`, `dwd` for `edzw` …; the centre's own abbreviation otherwise.
  static func model(centre: String) -> String {
    let known = [
      "kwbc": "ncep", "ecmf": "ecmwf", "edzw": "dwd", "cwao": "cmc", "lfpw": "meteofrance", "egrr": "ukmo",
      "rjtd": "jma", "ammc": "bom", "lemm": "aemet", "enmi": "metno", "eswi": "smhi", "lssw": "meteoswiss",
    ]
    let name = known[centre] ?? centre
    return StoreLayout.isValidComponent(name, maxBytes: 31) ? name : "grib"
  }
}

extension Array {
  /// The array with `element` appended when it is not nil.
  fileprivate func appending(_ element: Element?) -> [Element] {
    element.map { self + [$0] } ?? self
  }
}
