import Foundation
import Meteorology

/// The small picture of a weather code, drawn from a few shapes (sun, moon, cloud, rain,
/// snow, lightning, fog) that the SVG defines once and each icon uses by reference.
struct ConditionIcon: Equatable {
  /// One shape of an icon, the id of its `<symbol>`.
  enum Layer: String, CaseIterable {
    case sun, moon, smallSun = "sun-small", smallMoon = "moon-small", lightCloud = "cloud-light", cloud
    case darkCloud = "cloud-dark", rain, drizzle, snow, lightning, fog
  }

  /// The shapes, back to front.
  let layers: [Layer]

  /// The icon of `code` by day or night.
  init(_ code: WeatherCode, isDay: Bool) {
    let body: Layer = isDay ? .sun : .moon
    let behind: Layer = isDay ? .smallSun : .smallMoon
    switch code {
    case .clearSky: layers = [body]
    case .mainlyClear: layers = [behind, .lightCloud]
    case .partlyCloudy: layers = [behind, .cloud]
    case .overcast: layers = [.cloud]
    case .fog, .depositingRimeFog: layers = [.fog]
    case .lightDrizzle, .moderateDrizzle, .denseDrizzle: layers = [.cloud, .drizzle]
    case .lightFreezingDrizzle, .denseFreezingDrizzle: layers = [.cloud, .drizzle, .snow]
    case .slightRain, .moderateRain, .heavyRain: layers = [.darkCloud, .rain]
    case .lightFreezingRain, .heavyFreezingRain: layers = [.darkCloud, .rain, .snow]
    case .slightSnowFall, .moderateSnowFall, .heavySnowFall, .snowGrains: layers = [.darkCloud, .snow]
    case .slightRainShowers, .moderateRainShowers, .violentRainShowers: layers = [behind, .darkCloud, .rain]
    case .slightSnowShowers, .heavySnowShowers: layers = [behind, .darkCloud, .snow]
    case .thunderstorm, .thunderstormWithSlightHail, .thunderstormWithHeavyHail:
      layers = [.darkCloud, .lightning, .rain]
    }
  }

  /// The `<symbol>` of every layer, each in a 32 × 32 box, inside `<defs>`.
  static func definitions(into out: inout SVGWriter) {
    out.open("defs")
    for layer in Layer.allCases {
      out.open("symbol", ["id": "icon-\(layer.rawValue)", "viewBox": "0 0 32 32"])
      shape(layer, into: &out)
      out.close("symbol")
    }
    out.close("defs")
  }

  /// The elements of one layer.
  private static func shape(_ layer: Layer, into out: inout SVGWriter) {
    switch layer {
    case .sun: sun(centre: (16, 16), radius: 6.5, into: &out)
    case .smallSun: sun(centre: (11, 11), radius: 4.5, into: &out)
    case .moon: out.element("path", ["d": "M19 5a11 11 0 1 0 8 19a9 9 0 1 1 -8 -19z", "fill": "#8797b0"])
    case .smallMoon: out.element("path", ["d": "M12 3a8 8 0 1 0 6 13a6.5 6.5 0 1 1 -6 -13z", "fill": "#8797b0"])
    case .lightCloud: cloud(fill: "#e4e8ee", stroke: "#aab3bf", into: &out)
    case .cloud: cloud(fill: "#cfd6df", stroke: "#8e99a6", into: &out)
    case .darkCloud: cloud(fill: "#8f9aa8", stroke: "#66717e", into: &out)
    case .rain: strokes("M11 25l-2 5M17 25l-2 5M23 25l-2 5", colour: "#2b7bd0", width: 2, into: &out)
    case .drizzle: strokes("M11 26l-1 2M17 26l-1 2M23 26l-1 2", colour: "#2b7bd0", width: 1.6, into: &out)
    case .snow:
      // Three six-pointed flakes: a vertical stroke and two diagonals each.
      let flakes = [10.0, 17.0, 24.0].map { x in
        let left = SVGWriter.number(x - 2.2)
        return "M\(SVGWriter.number(x)) 25.5v5M\(left) 26.7l4.4 2.6M\(left) 29.3l4.4 -2.6"
      }
      strokes(flakes.joined(), colour: "#4a7fb5", width: 1.2, into: &out)
    case .lightning:
      out.element(
        "path",
        ["d": "M17 19l-5 7h4l-2 6l6 -8h-4l2 -5z", "fill": "#f2b705", "stroke": "#b38600", "stroke-width": "0.6"])
    case .fog: strokes("M5 11h22M3 16h26M5 21h22M7 26h18", colour: "#9aa5b1", width: 2.4, into: &out)
    }
  }

  /// Round-capped strokes along `path`.
  private static func strokes(_ path: String, colour: String, width: Double, into out: inout SVGWriter) {
    out.element(
      "path", ["d": path, "stroke": colour, "stroke-width": SVGWriter.number(width), "stroke-linecap": "round"])
  }

  private static func sun(centre: (Double, Double), radius: Double, into out: inout SVGWriter) {
    var rays = ""
    for index in 0..<8 {
      let angle = Double(index) * Double.pi / 4
      let (inner, outer) = (radius + 2, radius + 5)
      let (c, s) = (cos(angle), sin(angle))
      rays += "M\(SVGWriter.number(centre.0 + c * inner)) \(SVGWriter.number(centre.1 + s * inner))"
      rays += "L\(SVGWriter.number(centre.0 + c * outer)) \(SVGWriter.number(centre.1 + s * outer))"
    }
    out.element("path", ["d": rays, "stroke": "#f0a500", "stroke-width": "1.8", "stroke-linecap": "round"])
    out.element(
      "circle",
      [
        "cx": SVGWriter.number(centre.0), "cy": SVGWriter.number(centre.1), "r": SVGWriter.number(radius),
        "fill": "#ffc21a", "stroke": "#f0a500",
      ])
  }

  private static func cloud(fill: String, stroke: String, into out: inout SVGWriter) {
    out.element(
      "path",
      [
        "d": "M9 24a5 5 0 0 1 0.6 -10a7.5 7.5 0 0 1 14.2 -1.6a5.8 5.8 0 0 1 -0.8 11.6z", "fill": fill,
        "stroke": stroke, "stroke-width": "1.2", "stroke-linejoin": "round",
      ])
  }
}
