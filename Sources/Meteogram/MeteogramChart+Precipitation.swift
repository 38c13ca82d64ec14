import Meteorology

extension MeteogramChart {
  /// The precipitation of each hour as a bar over the hour it fell in (the amount is for
  /// the hour ending at the step), and its probability as a line on a 0–100 % axis.
  func drawPrecipitation(into out: inout SVGWriter) {
    let amounts = values(.rain)
    let probability = values(.precipitationProbability)
    let units = request.units
    let imperial = units.precipitation == .inches
    let scale = LinearScale(
      covering: amounts.compactMap { $0 }, including: [0], minimumSpan: imperial ? 0.1 : 2, ticks: 4,
      pixels: (Layout.precipitation.bottom, Layout.precipitation.top))
    let decimals = scale.step < 0.1 ? 2 : scale.step < 1 ? 1 : 0
    drawValueAxis(
      id: "axis-precipitation", scale: scale, side: .left, unit: units.label(of: .rain), title: "Precipitation",
      decimals: decimals, into: &out)
    let timeScale = time
    out.open("g", ["id": "precipitation", "fill": "#3b82c4"])
    for (instant, amount) in zip(instants, amounts) {
      guard let amount, amount > 0 else { continue }
      let left = timeScale(Double(instant - 3_600))
      let width = timeScale(Double(instant)) - left
      let gap = min(1, width * 0.1)
      out.element(
        "rect",
        [
          "class": "bar", "data-series": "precipitation", "x": SVGWriter.number(left + gap),
          "y": SVGWriter.number(scale(amount)), "width": SVGWriter.number(max(0.5, width - 2 * gap)),
          "height": SVGWriter.number(scale(0) - scale(amount)),
        ])
    }
    out.close("g")
    guard probability.contains(where: { $0 != nil }) else { return }
    let percent = LinearScale(
      lower: 0, upper: 100, step: 25, pixels: (Layout.precipitation.bottom, Layout.precipitation.top))
    drawValueAxis(
      id: "axis-probability", scale: percent, side: .right, unit: units.label(of: .precipitationProbability),
      title: "Probability", into: &out)
    drawSeries(
      "precipitation_probability", probability, scale: percent,
      style: ["stroke": "#16365c", "stroke-width": "1.4", "stroke-dasharray": "1 2.5", "stroke-linecap": "round"],
      into: &out)
  }
}
