import Meteorology

extension MeteogramChart {
  /// One entry of the legend: its sample and its words.
  private enum Sample {
    case line(colour: String, width: Double, dash: String?)
    case bar(colour: String)
    case arrow(colour: String)
    case area(colour: String, opacity: Double)
  }

  /// The legend under the time axis: every series with its sample, in one or two rows.
  func drawLegend(into out: inout SVGWriter) {
    let units = request.units
    let entries: [(Sample, String)] = [
      (.line(colour: "#d62728", width: 2.5, dash: nil), "Temperature"),
      (.line(colour: "#f08c28", width: 1.8, dash: "6 3"), "Feels like"),
      (.bar(colour: "#3b82c4"), "Precipitation (\(units.label(of: .rain))/h)"),
      (.line(colour: "#16365c", width: 1.4, dash: "1 2.5"), "Probability of precipitation"),
      (.line(colour: "#1b7837", width: 2.2, dash: nil), "Wind speed"),
      (.line(colour: "#7fbf7b", width: 1.5, dash: "4 3"), "Gusts"),
      (.arrow(colour: "#1b7837"), "Wind direction (arrow points downwind)"),
      (.area(colour: "#52606d", opacity: 0.6), "Cloud cover"),
      (.area(colour: "#e8ecf4", opacity: 1), "Night"),
    ]
    out.open("g", ["id": "legend", "font-size": "11.5", "fill": "#333"])
    var x = Layout.left
    var y = Layout.legendTop
    for (sample, words) in entries {
      // A generous estimate of the words' width in an 11.5 px sans-serif font.
      let width = 30 + Double(words.count) * 6.3 + 18
      if x + width > Layout.right + 20 {
        x = Layout.left
        y += 20
      }
      draw(sample, x: x, y: y, into: &out)
      out.element("text", ["x": SVGWriter.number(x + 30), "y": SVGWriter.number(y + 4)], content: words)
      x += width
    }
    out.close("g")
  }

  private func draw(_ sample: Sample, x: Double, y: Double, into out: inout SVGWriter) {
    let (left, right, middle) = (SVGWriter.number(x), SVGWriter.number(x + 24), SVGWriter.number(y))
    switch sample {
    case .line(let colour, let width, let dash):
      if let dash {
        out.element(
          "line",
          [
            "x1": left, "x2": right, "y1": middle, "y2": middle, "stroke": colour,
            "stroke-width": SVGWriter.number(width),
            "stroke-dasharray": dash,
          ])
      } else {
        out.element(
          "line",
          [
            "x1": left, "x2": right, "y1": middle, "y2": middle, "stroke": colour,
            "stroke-width": SVGWriter.number(width),
          ])
      }
    case .bar(let colour):
      out.element(
        "rect",
        ["x": SVGWriter.number(x + 6), "y": SVGWriter.number(y - 6), "width": "12", "height": "12", "fill": colour])
    case .arrow(let colour):
      out.element(
        "path",
        [
          "d": "M0,-8 L5,6 L0,2.5 L-5,6 Z", "fill": colour,
          "transform": "translate(\(SVGWriter.number(x + 12)) \(middle)) rotate(90)",
        ])
    case .area(let colour, let opacity):
      out.element(
        "rect",
        [
          "x": left, "y": SVGWriter.number(y - 6), "width": "24", "height": "12", "fill": colour,
          "fill-opacity": SVGWriter.number(opacity), "stroke": "#b8bec6", "stroke-width": "0.6",
        ])
    }
  }
}
