import Meteorology

extension MeteogramChart {
  /// High, middle and low cloud as three rows, each hour shaded by its cover.
  func drawCloud(into out: inout SVGWriter) {
    let layers: [(name: String, metric: Metric)] = [("High", .cloudHigh), ("Mid", .cloudMid), ("Low", .cloudLow)]
    let rowHeight = (Layout.cloud.bottom - Layout.cloud.top) / Double(layers.count)
    let timeScale = time
    out.open("g", ["id": "cloud", "font-size": "11"])
    for (row, layer) in layers.enumerated() {
      let top = Layout.cloud.top + Double(row) * rowHeight
      out.element(
        "text",
        ["x": SVGWriter.number(Layout.left - 8), "y": SVGWriter.number(top + rowHeight / 2 + 4), "text-anchor": "end"],
        content: layer.name)
      // Crisp edges: neighbouring hours' cells would otherwise show hairline seams.
      out.open("g", ["data-series": layer.metric.name, "fill": "#52606d", "shape-rendering": "crispEdges"])
      for (instant, cover) in zip(instants, values(layer.metric)) {
        guard let cover, cover >= 0.5 else { continue }
        let start = max(timeScale.lower, Double(instant) - 1_800)
        let end = min(timeScale.upper, Double(instant) + 1_800)
        out.element(
          "rect",
          [
            "x": SVGWriter.number(timeScale(start)), "y": SVGWriter.number(top + 1),
            "width": SVGWriter.number(timeScale(end) - timeScale(start)),
            "height": SVGWriter.number(rowHeight - 2),
            "fill-opacity": SVGWriter.number(min(100, cover) / 100 * 0.85),
          ])
      }
      out.close("g")
    }
    out.element(
      "rect",
      [
        "x": SVGWriter.number(Layout.left), "y": SVGWriter.number(Layout.cloud.top),
        "width": SVGWriter.number(Layout.right - Layout.left),
        "height": SVGWriter.number(Layout.cloud.bottom - Layout.cloud.top), "fill": "none", "stroke": "#666",
      ])
    let middle = (Layout.cloud.top + Layout.cloud.bottom) / 2
    let titleX = Layout.left - 46
    out.element(
      "text",
      [
        "x": SVGWriter.number(titleX), "y": SVGWriter.number(middle), "text-anchor": "middle", "font-size": "12",
        "transform": "rotate(-90 \(SVGWriter.number(titleX)) \(SVGWriter.number(middle)))",
      ], content: "Cloud")
    out.close("g")
  }
}
