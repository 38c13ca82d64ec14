import Meteorology

extension MeteogramChart {
  /// Hours between symbols (icons, wind arrows): the finest of 1, 2, 3, 6 or 12 that
  /// leaves each symbol about 34 pixels.
  var symbolHours: Int {
    let hours = max(1, drawn.count)
    return [1, 2, 3, 6, 12].first { (Layout.right - Layout.left) / Double(hours) * Double($0) >= 34 } ?? 24
  }

  /// The indices (into the hours drawn) that get a symbol: every `symbolHours` local hours,
  /// but none that would stick out of the plot.
  var symbolIndices: [Int] {
    let every = symbolHours
    let scale = time
    let half = Layout.iconSize / 2
    let instants = instants
    return (0..<drawn.count).filter { index in
      let x = scale(Double(instants[index]))
      return localHour(series.hours[drawn.lowerBound + index]) % every == 0 && x - half >= Layout.left - 2
        && x + half <= Layout.right + 2
    }
  }

  /// Wind speed and gusts on one scale, and below them arrows pointing where the wind
  /// blows to.
  func drawWind(into out: inout SVGWriter) {
    let speed = values(.windVel)
    let gusts = values(.windGusts)
    let units = request.units
    let scale = LinearScale(
      covering: (speed + gusts).compactMap { $0 }, including: [0], minimumSpan: units.convert(5, of: .windVel),
      ticks: 4, pixels: (Layout.wind.bottom, Layout.wind.top))
    drawValueAxis(
      id: "axis-wind", scale: scale, side: .left, unit: units.label(of: .windVel), title: "Wind", into: &out)
    drawSeries(
      "wind_gusts", gusts, scale: scale,
      style: ["stroke": "#7fbf7b", "stroke-width": "1.5", "stroke-dasharray": "4 3", "stroke-linejoin": "round"],
      into: &out)
    drawSeries(
      "wind_speed", speed, scale: scale,
      style: ["stroke": "#1b7837", "stroke-width": "2.2", "stroke-linejoin": "round"],
      into: &out)
    let directions = values(.windDir)
    let timeScale = time
    out.open("g", ["id": "wind-direction", "fill": "#1b7837"])
    for index in symbolIndices {
      guard let direction = directions[index], let strength = speed[index] else { continue }
      let x = SVGWriter.number(timeScale(Double(instants[index])))
      // The arrow is drawn pointing up (north) and turned to where the wind goes, the
      // opposite of the direction it comes from.
      let bearing = SVGWriter.number((direction + 180).truncatingRemainder(dividingBy: 360))
      out.open(
        "g",
        [
          "class": "arrow", "data-direction": SVGWriter.number(direction),
          "transform": "translate(\(x) \(SVGWriter.number(Layout.arrowsRow))) rotate(\(bearing))",
        ])
      out.element(
        "title", [:],
        content: "from \(Int(direction.rounded()))°, \(Int(strength.rounded())) \(units.label(of: .windVel))")
      out.element("path", ["d": "M0,-8 L5,6 L0,2.5 L-5,6 Z"])
      out.close("g")
    }
    out.close("g")
  }
}
