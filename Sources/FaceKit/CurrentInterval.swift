/// The quarter hour "current" conditions describe, in every face that has them: Open-Meteo's
/// `current` block (whose `interval` it is) and OpenWeatherMap's `/weather`, so that the two
/// describe the same instant.
public enum CurrentInterval {
  /// Seconds a current value describes.
  public static let seconds: Int64 = 900

  /// The start of the quarter hour containing `now` (Unix seconds), before 1970 too.
  public static func start(containing now: Int64) -> Int64 {
    now - ((now % seconds) + seconds) % seconds
  }
}
