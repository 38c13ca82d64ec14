/// The type of an hour's precipitation as a model's categorical precipitation types say
/// it: NCEP's `crain`, `cfrzr`, `cicep` and `csnow` (GRIB 0/1/192–195, or WMO's 0/1/33–36),
/// each 1 where the model's type algorithm finds that type at the surface.
///
/// Where several are 1 at once, the most hazardous wins, in the order NCEP's dominant
/// precipitation type breaks ties (freezing rain, snow, ice pellets, rain):
/// docs/weather-codes.md.
public enum PrecipitationType: Int, Sendable, CaseIterable {
  case rain = 1
  case freezingRain = 2
  case icePellets = 3
  case snow = 4

  /// A flag at or above this is yes: a flag averaged over a window (GFS writes its
  /// categorical types as window averages) says yes where the type held most of it.
  public static let flagYes = 0.5

  /// The dominant type of the flags (each 0…1, nil where the model gives none); nil when
  /// none is yes or every flag is unknown.
  public static func dominant(rain: Double?, freezingRain: Double?, icePellets: Double?, snow: Double?) -> Self? {
    let isYes = { (flag: Double?) in flag.map { $0.isFinite && $0 >= flagYes } ?? false }
    if isYes(freezingRain) { return .freezingRain }
    if isYes(snow) { return .snow }
    if isYes(icePellets) { return .icePellets }
    if isYes(rain) { return .rain }
    return nil
  }
}
