extension MeteogramChart {
  /// Which side of the plot a value axis is drawn on.
  enum Side {
    case left, right
  }

  /// A value axis: a tick per step carrying its value as `data-value`, its label, light
  /// grid lines across the plot (left axes only) and the axis title with its unit.
  func drawValueAxis(
    id: String, scale: LinearScale, side: Side, unit: String, title: String, decimals: Int = 0,
    into out: inout SVGWriter
  ) {
    let x = side == .left ? Layout.left : Layout.right
    let outward = side == .left ? -5.0 : 5.0
    if side == .left {
      out.open("g", ["class": "grid", "stroke": "#e3e6ea", "stroke-width": "1"])
      for value in scale.ticks {
        let y = SVGWriter.number(scale(value))
        out.element(
          "line", ["x1": SVGWriter.number(Layout.left), "x2": SVGWriter.number(Layout.right), "y1": y, "y2": y])
      }
      out.close("g")
    }
    out.open(
      "g",
      [
        "id": id, "class": "axis", "data-unit": unit, "font-size": "11", "fill": "#444",
        "text-anchor": side == .left ? "end" : "start",
      ])
    out.element(
      "line",
      [
        "x1": SVGWriter.number(x), "x2": SVGWriter.number(x), "y1": SVGWriter.number(scale.lowerPixel),
        "y2": SVGWriter.number(scale.upperPixel), "stroke": "#666",
      ])
    for value in scale.ticks {
      let y = SVGWriter.number(scale(value))
      out.element(
        "line",
        [
          "class": "tick", "data-value": SVGWriter.number(value), "x1": SVGWriter.number(x),
          "x2": SVGWriter.number(x + outward), "y1": y, "y2": y, "stroke": "#666",
        ])
      out.element(
        "text", ["x": SVGWriter.number(x + outward * 1.6), "y": SVGWriter.number(scale(value) + 4)],
        content: Self.label(value, decimals: decimals))
    }
    let titleX = side == .left ? Layout.left - 46 : Layout.right + 46
    let middle = (scale.lowerPixel + scale.upperPixel) / 2
    out.element(
      "text",
      [
        "x": SVGWriter.number(titleX), "y": SVGWriter.number(middle), "text-anchor": "middle", "font-size": "12",
        "transform": "rotate(\(side == .left ? -90 : 90) \(SVGWriter.number(titleX)) \(SVGWriter.number(middle)))",
      ], content: "\(title) (\(unit))")
    out.close("g")
  }

  /// A tick label: the value with `decimals` places, with a true minus sign.
  static func label(_ value: Double, decimals: Int) -> String {
    let text = degrees(abs(value), decimals: decimals)
    return value < -1e-9 ? "−" + text : text
  }

  /// The polylines of a series: one per run of consecutive hours with values, at each
  /// hour's instant.
  func segments(_ values: [Double?], scale: LinearScale) -> [[(x: Double, y: Double)]] {
    let timeScale = time
    var segments: [[(x: Double, y: Double)]] = []
    var current: [(x: Double, y: Double)] = []
    for (instant, value) in zip(instants, values) {
      guard let value else {
        if !current.isEmpty { segments.append(current) }
        current = []
        continue
      }
      current.append((timeScale(Double(instant)), scale(value)))
    }
    if !current.isEmpty { segments.append(current) }
    return segments
  }

  /// Draws `values` as polylines marked `data-series="name"`.
  func drawSeries(
    _ name: String, _ values: [Double?], scale: LinearScale, style: KeyValuePairs<String, String>,
    into out: inout SVGWriter
  ) {
    out.open("g", style)
    for segment in segments(values, scale: scale) {
      if segment.count == 1, let point = segment.first {
        out.element(
          "circle",
          [
            "class": "series", "data-series": name, "cx": SVGWriter.number(point.x),
            "cy": SVGWriter.number(point.y), "r": "2",
          ])
      } else {
        out.element(
          "polyline",
          ["class": "series", "data-series": name, "points": SVGWriter.points(segment), "fill": "none"])
      }
    }
    out.close("g")
  }
}
