import Meteorology

extension MeteogramChart {
  /// Temperature and feels-like (apparent temperature) on one scale, with the freezing
  /// line when the scale reaches it.
  func drawTemperature(into out: inout SVGWriter) {
    let temperature = values(.temp)
    let apparent = values(.apparentTemp)
    let units = request.units
    let scale = LinearScale(
      covering: (temperature + apparent).compactMap { $0 }, minimumSpan: units.temperature == .fahrenheit ? 9 : 5,
      ticks: 6, pixels: (Layout.temperature.bottom, Layout.temperature.top))
    drawValueAxis(
      id: "axis-temperature", scale: scale, side: .left, unit: units.label(of: .temp), title: "Temperature",
      into: &out)
    let freezing = units.convert(0, of: .temp)
    if scale.lower < freezing, freezing < scale.upper {
      let y = SVGWriter.number(scale(freezing))
      out.element(
        "line",
        [
          "id": "freezing", "x1": SVGWriter.number(Layout.left), "x2": SVGWriter.number(Layout.right), "y1": y,
          "y2": y, "stroke": "#4a90d9", "stroke-dasharray": "2 3",
        ])
    }
    drawSeries(
      "apparent_temperature", apparent, scale: scale,
      style: ["stroke": "#f08c28", "stroke-width": "1.8", "stroke-dasharray": "6 3", "stroke-linejoin": "round"],
      into: &out)
    drawSeries(
      "temperature", temperature, scale: scale,
      style: ["stroke": "#d62728", "stroke-width": "2.5", "stroke-linejoin": "round"], into: &out)
  }
}
