/// A linear map from values to pixels, with round tick values a reader can count on.
struct LinearScale {
  /// The values at the two ends.
  let lower: Double
  let upper: Double
  /// The pixels the two ends map to (for a vertical axis `lowerPixel` is the bottom).
  let lowerPixel: Double
  let upperPixel: Double
  /// The distance between ticks.
  let step: Double

  /// A scale covering `values` (and `floor`…`ceiling`, when given) with round ends and
  /// about `ticks` ticks; a flat or empty range is widened so that the scale never
  /// divides by zero.
  init(
    covering values: [Double], including extra: [Double] = [], minimumSpan: Double, ticks: Int,
    pixels: (lower: Double, upper: Double)
  ) {
    let all = values + extra
    var low = all.min() ?? 0
    var high = all.max() ?? minimumSpan
    if high - low < minimumSpan {
      let middle = (high + low) / 2
      (low, high) = (middle - minimumSpan / 2, middle + minimumSpan / 2)
      if extra.contains(0), low < 0, all.allSatisfy({ $0 >= 0 }) { (low, high) = (0, minimumSpan) }
    }
    let step = Self.roundStep((high - low) / Double(max(1, ticks)))
    lower = (low / step).rounded(.down) * step
    upper = (high / step).rounded(.up) * step
    self.step = step
    (lowerPixel, upperPixel) = pixels
  }

  /// A scale with fixed ends and step (a percentage axis).
  init(lower: Double, upper: Double, step: Double, pixels: (lower: Double, upper: Double)) {
    (self.lower, self.upper, self.step) = (lower, upper, step)
    (lowerPixel, upperPixel) = pixels
  }

  /// The pixel of `value`.
  func callAsFunction(_ value: Double) -> Double {
    lowerPixel + (value - lower) / (upper - lower) * (upperPixel - lowerPixel)
  }

  /// The tick values, lower to upper.
  var ticks: [Double] {
    let count = Int(((upper - lower) / step).rounded())
    return (0...max(0, count)).map { lower + Double($0) * step }
  }

  /// 1, 2 or 5 times a power of ten, the nearest at or above `raw`.
  static func roundStep(_ raw: Double) -> Double {
    guard raw.isFinite, raw > 0 else { return 1 }
    var magnitude = 1.0
    while magnitude > raw { magnitude /= 10 }
    while magnitude * 10 <= raw { magnitude *= 10 }
    let residual = raw / magnitude
    return (residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10) * magnitude
  }
}
