import Forecast
import Meteorology

/// A meteogram drawn as SVG text: temperature and feels-like, precipitation with its
/// probability, wind with gusts and direction, cloud layers, condition icons and day/night
/// shading against local time, with the run and domain in the caption (docs/meteogram.md).
///
/// Hours no run covers at either end are left out, so the time axis spans the hours that
/// have values; one missing inside breaks the lines there. Axes carry their scale as data
/// attributes (`data-value` on value ticks, `data-time` in Unix seconds on time ticks), so
/// that a reader can map the drawn points back to values without knowing the layout.
public struct MeteogramChart: Sendable {
  /// The point, zone and units the values are for.
  public let request: ForecastRequest
  /// The hours drawn, with their values and where they came from.
  public let series: HourlySeries
  /// The indices into `series.hours` that are drawn: from the first covered hour to the last.
  let drawn: Range<Int>

  /// The chart of `series`, read for `request`.
  public init(request: ForecastRequest, series: HourlySeries) {
    self.request = request
    self.series = series
    let covered = series.sourceOfHour.indices.filter { series.sourceOfHour[$0] != nil }
    drawn = (covered.first ?? 0)..<((covered.last ?? -1) + 1)
  }

  /// The whole picture's size and the plot area's edges, in pixels.
  enum Layout {
    static let width = 1000.0
    static let left = 72.0
    static let right = 928.0
    static let iconsTop = 62.0
    static let iconSize = 30.0
    static let temperature = (top: 100.0, bottom: 310.0)
    static let precipitation = (top: 330.0, bottom: 440.0)
    static let wind = (top: 460.0, bottom: 570.0)
    static let arrowsRow = 584.0
    static let cloud = (top: 602.0, bottom: 662.0)
    static let legendTop = 712.0
    static let height = 760.0
  }

  /// The instants drawn, Unix seconds.
  var instants: [Int64] { drawn.map { series.hours[$0].instant } }

  /// The values of `metric` at the hours drawn, nil where the hour has none.
  func values(_ metric: Metric) -> [Double?] {
    guard let all = series.values(of: metric) else { return drawn.map { _ in nil } }
    return Array(all[drawn])
  }

  /// The horizontal pixel of an instant: the axis runs from an hour before the first hour
  /// drawn (precipitation is the amount of the hour ending at a step, drawn over that hour)
  /// to the last.
  var time: LinearScale {
    let first = Double(instants.first ?? 0)
    let last = Double(instants.last ?? 0)
    return LinearScale(
      lower: first - 3_600, upper: max(last, first), step: 3_600, pixels: (Layout.left, Layout.right))
  }

  /// The chart as an SVG document.
  public func svg() -> String {
    var out = SVGWriter()
    out.open(
      "svg",
      [
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1", "width": SVGWriter.number(Layout.width),
        "height": SVGWriter.number(Layout.height), "viewBox": "0 0 \(Int(Layout.width)) \(Int(Layout.height))",
        "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": "12", "fill": "#222",
      ])
    out.element("title", [:], content: title)
    out.element("desc", [:], content: caption)
    ConditionIcon.definitions(into: &out)
    out.element("rect", ["x": "0", "y": "0", "width": "100%", "height": "100%", "fill": "#ffffff"])
    out.element(
      "text", ["x": "\(Int(Layout.left))", "y": "26", "font-size": "17", "font-weight": "bold"], content: title)
    out.element("text", ["x": "\(Int(Layout.left))", "y": "46", "fill": "#555", "id": "caption"], content: caption)
    guard !drawn.isEmpty else {
      out.close("svg")
      return out.text
    }
    drawNight(into: &out)
    drawTimeAxis(into: &out)
    drawIcons(into: &out)
    drawTemperature(into: &out)
    drawPrecipitation(into: &out)
    drawWind(into: &out)
    drawCloud(into: &out)
    drawLegend(into: &out)
    out.close("svg")
    return out.text
  }
}
