import NetCDF

/// The layout of a wrfout file as WRF-ARW writes it, reduced to the variables a point
/// query needs, and the code that writes one.
///
/// Names, dimension order and attributes follow real WRF V4 output, so that readers
/// written against real files accept the sample run unchanged.
enum WRFOutputFile {
  /// One output variable: its WRF name, its grid (surface, model levels, or staggered as
  /// WRF's C grid puts winds and geopotential), and the description and units WRF gives it.
  struct Variable {
    let name: String
    let grid: Grid
    let description: String
    let units: String

    init(name: String, isVolume: Bool, description: String, units: String) {
      self.init(name: name, grid: isVolume ? .mass : .surface, description: description, units: units)
    }

    init(name: String, grid: Grid, description: String, units: String) {
      (self.name, self.grid, self.description, self.units) = (name, grid, description, units)
    }

    var isVolume: Bool { grid != .surface }
  }

  /// Where a variable's values sit.
  enum Grid {
    case surface
    /// Mass points of every model level.
    case mass
    /// U: one more point west to east.
    case westEastStaggered
    /// V: one more point south to north.
    case southNorthStaggered
    /// Geopotential: on the levels' interfaces, one more than levels.
    case bottomTopStaggered

    /// The dimensions after Time.
    var dimensions: [String] {
      switch self {
      case .surface: ["south_north", "west_east"]
      case .mass: ["bottom_top", "south_north", "west_east"]
      case .westEastStaggered: ["bottom_top", "south_north", "west_east_stag"]
      case .southNorthStaggered: ["bottom_top", "south_north_stag", "west_east"]
      case .bottomTopStaggered: ["bottom_top_stag", "south_north", "west_east"]
      }
    }

    /// The lengths of `dimensions`.
    func shape(_ spec: SampleRunSpec) -> [Int] {
      let (levels, ny, nx) = (spec.levels, spec.southNorth, spec.westEast)
      return switch self {
      case .surface: [ny, nx]
      case .mass: [levels, ny, nx]
      case .westEastStaggered: [levels, ny, nx + 1]
      case .southNorthStaggered: [levels, ny + 1, nx]
      case .bottomTopStaggered: [levels + 1, ny, nx]
      }
    }

    var stagger: String {
      switch self {
      case .surface, .mass: ""
      case .westEastStaggered: "X"
      case .southNorthStaggered: "Y"
      case .bottomTopStaggered: "Z"
      }
    }
  }

  /// The coordinates, `XLAT` and `XLONG`, with a Time dimension as WRF writes them.
  static let coordinates: [Variable] = [
    Variable(name: "XLAT", isVolume: false, description: "LATITUDE, SOUTH IS NEGATIVE", units: "degree_north"),
    Variable(name: "XLONG", isVolume: false, description: "LONGITUDE, WEST IS NEGATIVE", units: "degree_east"),
  ]

  /// The variables after `Times`, `XLAT`, `XLONG` and `XTIME`, in WRF's order.
  static let fields: [Variable] = [
    Variable(name: "P", isVolume: true, description: "perturbation pressure", units: "Pa"),
    Variable(name: "PB", isVolume: true, description: "BASE STATE PRESSURE", units: "Pa"),
    Variable(
      name: "T", isVolume: true, description: "perturbation potential temperature theta-t0", units: "K"),
    Variable(name: "QVAPOR", isVolume: true, description: "Water vapor mixing ratio", units: "kg kg-1"),
    Variable(name: "QCLOUD", isVolume: true, description: "Cloud water mixing ratio", units: "kg kg-1"),
    Variable(name: "QRAIN", isVolume: true, description: "Rain water mixing ratio", units: "kg kg-1"),
    Variable(name: "QICE", isVolume: true, description: "Ice mixing ratio", units: "kg kg-1"),
    Variable(name: "QSNOW", isVolume: true, description: "Snow mixing ratio", units: "kg kg-1"),
    Variable(name: "CLDFRA", isVolume: true, description: "CLOUD FRACTION", units: ""),
    Variable(name: "U", grid: .westEastStaggered, description: "x-wind component", units: "m s-1"),
    Variable(name: "V", grid: .southNorthStaggered, description: "y-wind component", units: "m s-1"),
    Variable(name: "PH", grid: .bottomTopStaggered, description: "perturbation geopotential", units: "m2 s-2"),
    Variable(name: "PHB", grid: .bottomTopStaggered, description: "base-state geopotential", units: "m2 s-2"),
    Variable(name: "PBLH", isVolume: false, description: "PBL HEIGHT", units: "m"),
    Variable(name: "Q2", isVolume: false, description: "QV at 2 M", units: "kg kg-1"),
    Variable(name: "T2", isVolume: false, description: "TEMP at 2 M", units: "K"),
    Variable(name: "PSFC", isVolume: false, description: "SFC PRESSURE", units: "Pa"),
    Variable(name: "U10", isVolume: false, description: "U at 10 M", units: "m s-1"),
    Variable(name: "V10", isVolume: false, description: "V at 10 M", units: "m s-1"),
    Variable(
      name: "LANDMASK", isVolume: false, description: "LAND MASK (1 FOR LAND, 0 FOR WATER)", units: ""),
    Variable(name: "HGT", isVolume: false, description: "Terrain Height", units: "m"),
    Variable(
      name: "RAINC", isVolume: false, description: "ACCUMULATED TOTAL CUMULUS PRECIPITATION", units: "mm"),
    Variable(
      name: "RAINSH", isVolume: false, description: "ACCUMULATED SHALLOW CUMULUS PRECIPITATION",
      units: "mm"),
    Variable(
      name: "RAINNC", isVolume: false, description: "ACCUMULATED TOTAL GRID SCALE PRECIPITATION",
      units: "mm"),
    Variable(
      name: "SNOWNC", isVolume: false, description: "ACCUMULATED TOTAL GRID SCALE SNOW AND ICE",
      units: "mm"),
    Variable(
      name: "SWDOWN", isVolume: false, description: "DOWNWARD SHORT WAVE FLUX AT GROUND SURFACE",
      units: "W m-2"),
    Variable(name: "COSALPHA", isVolume: false, description: "Local cosine of map rotation", units: ""),
    Variable(name: "SINALPHA", isVolume: false, description: "Local sine of map rotation", units: ""),
  ]

  /// Where a domain sits in its run's nesting, as WRF's global attributes say it.
  struct Nesting {
    var gridID = 1
    var parentID = 0
    var iParentStart = 1
    var jParentStart = 1
    var ratio = 1
    /// `MOAD_CEN_LAT`: the centre latitude of the outermost domain; nil for that domain
    /// itself, whose own `CEN_LAT` it is.
    var outermostCentreLatitude: Double?

    /// The outermost domain, `d01`.
    static let outermost = Nesting()
  }

  /// Creates a file and defines its dimensions, variables and attributes; the file is
  /// left ready for `writeRecord`.
  static func create(
    path: String, spec: SampleRunSpec, start: WRFDate, nesting: Nesting = .outermost
  ) throws -> NCFile {
    let file = try NCFile.create(path, format: spec.format)
    do {
      try define(file, spec: spec, start: start, nesting: nesting)
      try file.endDefinitions()
    } catch {
      file.close()
      throw error
    }
    return file
  }

  /// Writes one output time as record `record` of the Time dimension.
  static func writeRecord(
    _ file: NCFile, record: Int, spec: SampleRunSpec, date: WRFDate, minutes: Int,
    fields: [String: [Float]]
  ) throws {
    let nx = spec.westEast
    let ny = spec.southNorth
    try file.writeStrings("Times", start: [record, 0], count: [1, 19], [date.wrfString])
    try file.write("XTIME", start: [record], count: [1], [Float(minutes)])
    let surfaceNames = (Self.coordinates + Self.fields).filter { !$0.isVolume }.map(\.name)
    for name in surfaceNames {
      try file.write(
        name, start: [record, 0, 0], count: [1, ny, nx], fields[name] ?? Self.missing(nx * ny))
    }
    for variable in Self.fields where variable.isVolume {
      let shape = variable.grid.shape(spec)
      try file.write(
        variable.name, start: [record, 0, 0, 0], count: [1] + shape,
        fields[variable.name] ?? Self.missing(shape.reduce(1, *)))
    }
  }

  /// What a variable the generator failed to produce gets, so that the gap is loud in
  /// the data instead of a crash; the generator always produces every field.
  private static func missing(_ count: Int) -> [Float] {
    [Float](repeating: .nan, count: count)
  }

  private static func define(_ file: NCFile, spec: SampleRunSpec, start: WRFDate, nesting: Nesting) throws {
    // Global attributes first: NCFile re-reads the whole header after every definition,
    // which is cheapest while the header is still short.
    try defineGlobalAttributes(file, spec: spec, start: start, nesting: nesting)
    try file.defineDimension("Time", length: nil)
    try file.defineDimension("DateStrLen", length: 19)
    try file.defineDimension("west_east", length: spec.westEast)
    try file.defineDimension("south_north", length: spec.southNorth)
    try file.defineDimension("bottom_top", length: spec.levels)
    try file.defineDimension("bottom_top_stag", length: spec.levels + 1)
    try file.defineDimension("west_east_stag", length: spec.westEast + 1)
    try file.defineDimension("south_north_stag", length: spec.southNorth + 1)

    try file.defineVariable("Times", type: .char, dimensions: ["Time", "DateStrLen"])
    let surface = ["Time", "south_north", "west_east"]
    for coordinate in coordinates {
      try defineField(
        file, coordinate.name, dimensions: surface, description: coordinate.description,
        units: coordinate.units, coordinates: "XLONG XLAT")
    }
    let since = "minutes since \(start.unitsString)"
    try defineField(
      file, "XTIME", dimensions: ["Time"], description: since, units: since, coordinates: nil)
    for variable in fields {
      try defineField(
        file, variable.name, dimensions: ["Time"] + variable.grid.dimensions, stagger: variable.grid.stagger,
        description: variable.description, units: variable.units, coordinates: "XLONG XLAT XTIME")
    }
  }

  private static func defineField(
    _ file: NCFile, _ name: String, dimensions: [String], stagger: String = "", description: String,
    units: String, coordinates: String?
  ) throws {
    try file.defineVariable(name, type: .float, dimensions: dimensions)
    let order =
      switch dimensions.count {
      case 4: "XYZ"
      case 3: "XY "
      default: "0  "
      }
    try file.setAttribute("FieldType", .integers([104]), on: name, type: .int)
    try file.setAttribute("MemoryOrder", .text(order), on: name)
    try file.setAttribute("description", .text(description), on: name)
    try file.setAttribute("units", .text(units), on: name)
    try file.setAttribute("stagger", .text(stagger), on: name)
    if let coordinates {
      try file.setAttribute("coordinates", .text(coordinates), on: name)
    }
  }

  private static func defineGlobalAttributes(
    _ file: NCFile, spec: SampleRunSpec, start: WRFDate, nesting: Nesting
  ) throws {
    func text(_ name: String, _ value: String) throws {
      try file.setAttribute(name, .text(value))
    }
    func int(_ name: String, _ value: Int) throws {
      try file.setAttribute(name, .integers([Int64(value)]), type: .int)
    }
    func real(_ name: String, _ value: Double) throws {
      try file.setAttribute(name, .reals([value]), type: .float)
    }
    try text("TITLE", " OUTPUT FROM WRF V4.4 MODEL")
    try text("START_DATE", start.wrfString)
    try text("SIMULATION_START_DATE", start.wrfString)
    try int("WEST-EAST_GRID_DIMENSION", spec.westEast + 1)
    try int("SOUTH-NORTH_GRID_DIMENSION", spec.southNorth + 1)
    try int("BOTTOM-TOP_GRID_DIMENSION", spec.levels + 1)
    try real("DX", spec.dx)
    try real("DY", spec.dx)
    try text("GRIDTYPE", "C")
    // WRF's time step shrinks with the nest's ratio.
    try real("DT", 45 / Double(nesting.ratio))
    try int("MP_PHYSICS", 8)
    try int("CU_PHYSICS", 1)
    try real("BUCKET_MM", -1)
    try real("BUCKET_J", -1)
    try int("GRID_ID", nesting.gridID)
    try int("PARENT_ID", nesting.parentID)
    try int("I_PARENT_START", nesting.iParentStart)
    try int("J_PARENT_START", nesting.jParentStart)
    try int("PARENT_GRID_RATIO", nesting.ratio)
    try real("CEN_LAT", spec.centreLatitude)
    try real("CEN_LON", spec.centreLongitude)
    try real("TRUELAT1", spec.truelat1)
    try real("TRUELAT2", spec.truelat2)
    try real("MOAD_CEN_LAT", nesting.outermostCentreLatitude ?? spec.centreLatitude)
    try real("STAND_LON", spec.standardLongitude)
    try real("POLE_LAT", 90)
    try real("POLE_LON", 0)
    try real("GMT", start.hourOfDay)
    try int("JULYR", start.year)
    try int("JULDAY", start.dayOfYear)
    try int("MAP_PROJ", 1)
    try text("MAP_PROJ_CHAR", "Lambert Conformal")
    try text("MMINLU", "MODIFIED_IGBP_MODIS_NOAH")
    try int("NUM_LAND_CAT", 21)
    try int("ISWATER", 17)
    try int("ISLAKE", 21)
    try int("ISICE", 15)
    try int("ISURBAN", 13)
  }
}
