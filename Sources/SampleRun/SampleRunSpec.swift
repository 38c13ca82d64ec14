import NetCDF

/// The shape, clock and seed of a synthetic WRF run.
///
/// The defaults describe a 9 km Portugal domain like an operational regional run: a
/// 135 × 80 Lambert conformal grid centred off central Portugal, five model levels and a
/// 72 hour forecast written hourly. Everything the generator produces follows from these
/// values, so two equal specs give byte-identical files.
public struct SampleRunSpec: Sendable, Equatable {
  /// Mass points along the grid's x axis (`west_east`).
  public var westEast: Int
  /// Mass points along the grid's y axis (`south_north`).
  public var southNorth: Int
  /// Model (mass) levels (`bottom_top`).
  public var levels: Int
  /// Grid spacing in metres, in both directions (`DX`, `DY`).
  public var dx: Double
  /// The latitude of the grid centre, degrees (`CEN_LAT`).
  public var centreLatitude: Double
  /// The longitude of the grid centre, degrees (`CEN_LON`).
  public var centreLongitude: Double
  /// The projection's first true latitude, degrees (`TRUELAT1`).
  public var truelat1: Double
  /// The projection's second true latitude, degrees (`TRUELAT2`).
  public var truelat2: Double
  /// The projection's standard longitude, degrees (`STAND_LON`).
  public var standardLongitude: Double
  /// The initial time as WRF writes dates, `YYYY-MM-DD_HH:MM:SS` (UTC).
  public var runStart: String
  /// The forecast length in hours.
  public var hours: Int
  /// Minutes between output times; the run has an output at every multiple of this up to
  /// and including `hours`.
  public var stepMinutes: Int
  /// The on-disk format of the files.
  public var format: NCFormat
  /// The seed of every random detail (noise in the fields, the convective cells).
  public var seed: UInt64
  /// A moving nest written as `wrfout_d02_*` files beside the domain's own; nil for a
  /// run of one domain.
  public var nest: SampleNest?

  /// A spec; every argument defaults to the Portugal 9 km run.
  public init(
    westEast: Int = 135, southNorth: Int = 80, levels: Int = 5, dx: Double = 9000,
    centreLatitude: Double = 39.5, centreLongitude: Double = -8.0,
    truelat1: Double = 30, truelat2: Double = 60, standardLongitude: Double = -8.0,
    runStart: String = "2026-06-20_00:00:00", hours: Int = 72, stepMinutes: Int = 60,
    format: NCFormat = .classic64BitOffset, seed: UInt64 = 0x5EED_2026_0620,
    nest: SampleNest? = nil
  ) {
    self.westEast = westEast
    self.southNorth = southNorth
    self.levels = levels
    self.dx = dx
    self.centreLatitude = centreLatitude
    self.centreLongitude = centreLongitude
    self.truelat1 = truelat1
    self.truelat2 = truelat2
    self.standardLongitude = standardLongitude
    self.runStart = runStart
    self.hours = hours
    self.stepMinutes = stepMinutes
    self.format = format
    self.seed = seed
    self.nest = nest
  }

  /// The Portugal 9 km run: 135 × 80 × 5 points, 72 hours from 2026-06-20 00 UTC, hourly.
  public static let portugal9km = SampleRunSpec()

  /// The number of output times, the initial one included; 0 for a spec with no
  /// positive step or a negative length, which the generator refuses.
  public var stepCount: Int {
    let (minutes, overflow) = hours.multipliedReportingOverflow(by: 60)
    guard stepMinutes > 0, hours >= 0, !overflow else { return 0 }
    return minutes / stepMinutes + 1
  }

  /// Rejects specs the generator cannot turn into a sensible run, so that a typo in a
  /// command line fails with a message instead of a division by zero or a huge file.
  func validated() throws(SampleRunError) -> WRFDate {
    guard westEast >= 2, southNorth >= 2 else {
      throw .invalidSpec("the grid needs at least 2 × 2 points, got \(westEast) × \(southNorth)")
    }
    guard westEast <= 2000, southNorth <= 2000, levels <= 100 else {
      throw .invalidSpec("the grid is larger than 2000 × 2000 × 100 points")
    }
    guard levels >= 1 else { throw .invalidSpec("the run needs at least one level, got \(levels)") }
    guard dx.isFinite, dx >= 100, dx <= 100_000 else {
      throw .invalidSpec("dx must be between 100 m and 100 km, got \(dx)")
    }
    guard stepMinutes > 0 else { throw .invalidSpec("stepMinutes must be positive, got \(stepMinutes)") }
    guard hours >= 0, hours <= 24 * 366 else {
      throw .invalidSpec("hours must be between 0 and a year, got \(hours)")
    }
    guard stepCount <= 10_000 else {
      throw .invalidSpec("\(stepCount) output times is more than a sample run needs")
    }
    guard abs(centreLatitude) < 80, abs(centreLongitude) <= 180 else {
      throw .invalidSpec("the centre \(centreLatitude), \(centreLongitude) is outside a Lambert grid's reach")
    }
    let sameHemisphere = (truelat1 > 0) == (truelat2 > 0)
    guard abs(truelat1) >= 1, abs(truelat1) <= 89, abs(truelat2) >= 1, abs(truelat2) <= 89,
      sameHemisphere, (truelat1 > 0) == (centreLatitude > 0)
    else {
      throw .invalidSpec(
        "true latitudes \(truelat1) and \(truelat2) must lie between 1° and 89° in the centre's hemisphere")
    }
    guard let start = WRFDate(wrf: runStart) else {
      throw .invalidSpec("runStart must look like 2026-06-20_00:00:00, got \"\(runStart)\"")
    }
    try nest?.validated(in: self)
    return start
  }
}
