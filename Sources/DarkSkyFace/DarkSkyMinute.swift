/// One minute of Dark Sky's `minutely` block, in canonical units.
public struct DarkSkyMinute: Sendable, Equatable {
  /// The minute's start, Unix seconds.
  public var time: Int64
  /// mm/h: the rate of the model step holding the minute.
  public var precipitation: Double?
  /// %.
  public var probability: Double?

  public init(time: Int64, precipitation: Double?, probability: Double?) {
    self.time = time
    self.precipitation = precipitation
    self.probability = probability
  }
}
