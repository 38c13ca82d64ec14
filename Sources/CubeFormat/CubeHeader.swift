/// Everything a cube says about itself apart from its data.
public struct CubeHeader: Sendable, Equatable {
  /// Cells west–east.
  public var width: Int
  /// Cells south–north.
  public var height: Int
  /// Number of time steps; step indices are `0..<stepCount`.
  public var stepCount: Int
  /// Valid time of the first step, Unix seconds (UTC).
  public var firstTime: Int64
  /// Seconds between steps.
  public var stepSeconds: Int64
  /// Start (initialisation) time of the model run, Unix seconds (UTC).
  public var runStart: Int64
  /// The model's name, e.g. `wrf` (at most 31 bytes).
  public var model: String
  /// The domain, e.g. `d01` (at most 15 bytes).
  public var domain: String
  /// Nominal grid spacing in metres; nested-domain selection prefers the smallest.
  public var gridSpacing: Double
  /// The map projection of the source grid, kept for provenance and analytic locators.
  public var projection: CubeProjection
  /// The stored metrics, in table order.
  public var metrics: [CubeMetric]
  /// The kind of input the metrics were derived from, as ingest records it (version 3's
  /// record): 1 WRF, 2 MM5, 3 CF, 4 GRIB; 0 where not recorded (a cube of version 1 or 2,
  /// or written before the field). Provenance, like the model's name: it only chooses the
  /// names in which a missing metric's inputs are explained.
  public var inputConvention: UInt32

  public init(
    width: Int, height: Int, stepCount: Int, firstTime: Int64, stepSeconds: Int64, runStart: Int64,
    model: String, domain: String, gridSpacing: Double, projection: CubeProjection,
    metrics: [CubeMetric], inputConvention: UInt32 = 0
  ) {
    self.inputConvention = inputConvention
    self.width = width
    self.height = height
    self.stepCount = stepCount
    self.firstTime = firstTime
    self.stepSeconds = stepSeconds
    self.runStart = runStart
    self.model = model
    self.domain = domain
    self.gridSpacing = gridSpacing
    self.projection = projection
    self.metrics = metrics
  }

  /// Number of cells. Exact for a header within `CubeLimits` (every header a reader
  /// returns); `Int.max` where the product overflows, so that a caller's size check fails
  /// instead of trapping.
  public var cells: Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? .max : product
  }

  /// Valid time of the last step. Exact for a header within `CubeLimits` (every header a
  /// reader returns); `Int64.max` or `Int64.min` where the sum overflows, and `firstTime`
  /// for a header without steps.
  public var lastTime: Int64 {
    guard stepCount > 0 else { return firstTime }
    return CubeLimits.lastTime(firstTime: firstTime, stepSeconds: stepSeconds, stepCount: stepCount)
      ?? (stepSeconds > 0 ? .max : .min)
  }
}

/// A source grid's map projection: the WRF `MAP_PROJ` code and its parameters.
public struct CubeProjection: Sendable, Equatable {
  /// WRF MAP_PROJ (1 Lambert, 2 polar stereographic, 3 Mercator, 6 lat-lon), 0 if unknown.
  public var code: UInt32
  /// TRUELAT1, TRUELAT2, STAND_LON, CEN_LAT, CEN_LON, POLE_LAT, POLE_LON, DX (NaN if absent).
  public var parameters: [Double]

  public static let parameterCount = 8

  public init(code: UInt32, parameters: [Double]) {
    self.code = code
    self.parameters = Array(
      (parameters + Array(repeating: .nan, count: Self.parameterCount)).prefix(Self.parameterCount))
  }

  /// Bitwise equality, so that two "absent" (NaN) parameters compare equal.
  public static func == (a: CubeProjection, b: CubeProjection) -> Bool {
    a.code == b.code && a.parameters.map(\.bitPattern) == b.parameters.map(\.bitPattern)
  }
}
