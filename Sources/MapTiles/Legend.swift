import JSONOutput
import Meteorology
import XMLText

/// The legend of a layer as SVG, written as text: one box per interval between two stops
/// of the colour scale, each a gradient between the two colours, the stops' values below,
/// so that every interval is readable however unevenly the values are spaced.
public enum Legend {
  static let boxWidth = 40
  static let barHeight = 16

  /// The legend of `layer`.
  public static func svg(for layer: TileLayer) -> String {
    switch layer {
    case .metric(let metric): svg(ColourScale.scale(for: metric))
    case .land: landSVG()
    }
  }

  static func svg(_ scale: ColourScale) -> String {
    let intervals = scale.stops.count - 1
    let left = scale.transparentBelow == nil ? 10 : 60
    let width = left + intervals * boxWidth + 30
    var defs = ""
    var boxes = ""
    var labels = ""
    for index in 0..<intervals {
      let (low, high) = (scale.stops[index], scale.stops[index + 1])
      defs +=
        "<linearGradient id=\"g\(index)\">\(stop(0, low.colour))\(stop(100, high.colour))</linearGradient>"
      boxes +=
        "<rect x=\"\(left + index * boxWidth)\" y=\"22\" width=\"\(boxWidth)\" height=\"\(barHeight)\" fill=\"url(#g\(index))\"/>"
    }
    for (index, stop) in scale.stops.enumerated() {
      labels +=
        "<text x=\"\(left + index * boxWidth)\" y=\"52\" text-anchor=\"middle\">\(number(stop.value))</text>"
    }
    if let below = scale.transparentBelow {
      labels += "<text x=\"6\" y=\"34\">none &lt; \(number(below))</text>"
    }
    let title = XMLText.escaped("\(scale.title) (\(scale.unit))")
    return svgDocument(
      width: width, height: 60,
      body: "<defs>\(defs)</defs><text x=\"6\" y=\"14\" font-weight=\"bold\">\(title)</text>\(boxes)"
        + "<rect x=\"\(left)\" y=\"22\" width=\"\(intervals * boxWidth)\" height=\"\(barHeight)\" fill=\"none\" stroke=\"#555\"/>"
        + labels)
  }

  static func landSVG() -> String {
    let items = [("sea", LandColours.sea), ("land", LandColours.land), ("coast", LandColours.coast)]
    var body = "<text x=\"6\" y=\"14\" font-weight=\"bold\">land mask</text>"
    for (index, (name, colour)) in items.enumerated() {
      let x = 6 + index * 70
      body +=
        "<rect x=\"\(x)\" y=\"22\" width=\"16\" height=\"16\" fill=\"\(colour.hex)\" stroke=\"#555\"/>"
        + "<text x=\"\(x + 22)\" y=\"35\">\(name)</text>"
    }
    return svgDocument(width: 220, height: 44, body: body)
  }

  private static func svgDocument(width: Int, height: Int, body: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
      + "viewBox=\"0 0 \(width) \(height)\" font-family=\"sans-serif\" font-size=\"11\">"
      + "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#fff\" fill-opacity=\"0.85\"/>\(body)</svg>\n"
  }

  private static func stop(_ offset: Int, _ colour: RGBA) -> String {
    "<stop offset=\"\(offset)%\" stop-color=\"\(colour.hex)\" stop-opacity=\"\(number(Double(colour.alpha) / 255, digits: 3))\"/>"
  }

  /// A value as a label: at most `digits` decimals, no trailing zeros, no exponent.
  public static func number(_ value: Double, digits: Int = 2) -> String {
    if let text = DecimalFormat.fixedText(value, places: digits) { return text }
    var scaled = (value * pow10(digits)).rounded() / pow10(digits)
    if scaled == 0 { scaled = 0 }  // no "-0"
    if scaled == scaled.rounded(), abs(scaled) < 1e15 { return String(Int(scaled)) }
    return String(scaled)
  }

  private static func pow10(_ digits: Int) -> Double { (0..<digits).reduce(1) { value, _ in value * 10 } }
}
