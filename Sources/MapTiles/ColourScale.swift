/// A colour scale: colours at increasing values, linear in sRGB (alpha included) between
/// them, the end colours beyond them. Values below `transparentBelow` draw nothing, so that
/// a rain map shows only where it rains. docs/pictures.md lists every scale.
public struct ColourScale: Sendable, Equatable {
  /// A value and its colour.
  public struct Stop: Sendable, Equatable {
    public let value: Double
    public let colour: RGBA
    public init(_ value: Double, _ colour: RGBA) { (self.value, self.colour) = (value, colour) }
  }

  /// What the scale is of, e.g. `Temperature`.
  public let title: String
  /// The unit of the values, e.g. `°C`.
  public let unit: String
  /// At least two, strictly increasing values.
  public let stops: [Stop]
  /// Values below this are transparent; nil when every value has a colour.
  public let transparentBelow: Double?

  public init(title: String, unit: String, stops: [Stop], transparentBelow: Double? = nil) {
    precondition(stops.count >= 2 && zip(stops, stops.dropFirst()).allSatisfy { $0.value < $1.value })
    (self.title, self.unit, self.stops, self.transparentBelow) = (title, unit, stops, transparentBelow)
  }

  /// The colour of `value`: transparent below `transparentBelow` and for NaN, the end
  /// colours outside the stops, linear between the two stops around it otherwise.
  public func colour(_ value: Double) -> RGBA {
    guard !value.isNaN else { return .transparent }
    if let transparentBelow, value < transparentBelow { return .transparent }
    guard value > stops[0].value else { return stops[0].colour }
    for index in 1..<stops.count where value <= stops[index].value {
      let (low, high) = (stops[index - 1], stops[index])
      let t = (value - low.value) / (high.value - low.value)
      @inline(__always) func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded())
      }
      return RGBA(
        mix(low.colour.red, high.colour.red), mix(low.colour.green, high.colour.green),
        mix(low.colour.blue, high.colour.blue), mix(low.colour.alpha, high.colour.alpha))
    }
    return stops[stops.count - 1].colour
  }
}
