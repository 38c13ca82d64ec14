import FaceKit
import Meteorology

extension MeteogramChart {
  /// The condition icon of every `symbolHours`-th hour above the temperature panel, from
  /// its weather code and whether the sun is up.
  func drawIcons(into out: inout SVGWriter) {
    let codes = values(.weatherCode)
    let isDay = values(.isDay)
    let timeScale = time
    let size = Layout.iconSize
    out.open("g", ["id": "conditions"])
    for index in symbolIndices {
      guard let value = codes[index], let code = WeatherCode(rawValue: Int(value.rounded())) else { continue }
      let icon = ConditionIcon(code, isDay: (isDay[index] ?? 1) >= 0.5)
      let x = timeScale(Double(instants[index])) - size / 2
      out.open("g", ["class": "icon", "data-code": String(code.rawValue)])
      out.element("title", [:], content: code.presentation.description)
      for layer in icon.layers {
        out.element(
          "use",
          [
            "href": "#icon-\(layer.rawValue)", "x": SVGWriter.number(x), "y": SVGWriter.number(Layout.iconsTop),
            "width": SVGWriter.number(size), "height": SVGWriter.number(size),
          ])
      }
      out.close("g")
    }
    out.close("g")
  }
}
