import Meteorology

extension ColourScale {
  /// The scale a metric is drawn with: its family's (temperature, rain, wind, cloud,
  /// pressure, humidity, direction, probability), or a viridis ramp over the metric's
  /// physical range. docs/pictures.md shows them and says why they look as they do.
  public static func scale(for metric: Metric) -> ColourScale {
    switch metric {
    case .temp, .apparentTemp, .dewPoint: temperature(metric)
    case .rain, .showers, .snow: precipitation(metric)
    case .windVel, .windGusts: wind(metric)
    case .cloud, .cloudLow, .cloudMid, .cloudHigh: cloud(metric)
    case .atmPress: pressure(metric)
    case .hum: humidity(metric)
    case .windDir: direction(metric)
    case .precipitationProbability, .precipitationNeighbourhood: probability(metric)
    default: viridis(metric)
    }
  }

  private static func stops(_ pairs: [(Double, UInt32)], alpha: UInt8 = 255) -> [Stop] {
    pairs.map { Stop($0.0, RGBA(hex: $0.1, alpha: alpha)) }
  }

  /// Cold purples and blues through a pale 10 °C to reds: the hue tells above or below
  /// freezing at a glance, and lightness peaks in the common range so that contrasts there
  /// stay readable.
  static func temperature(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: stops([
        (-30, 0x5e3c99), (-20, 0x2c5aa0), (-10, 0x3f8fd2), (0, 0xa6dbf0), (10, 0xeaf5c8), (20, 0xfee08b),
        (30, 0xf46d43), (40, 0xa50026), (50, 0x5c0016),
      ]))
  }

  /// Radar-like: nothing below 0.1 mm (the wet-hour threshold), light blue for drizzle,
  /// then blue, green, yellow, orange, red and purple at roughly doubling amounts, as rain
  /// radars show it.
  static func precipitation(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: [Stop(0.1, RGBA(hex: 0x9ecae1, alpha: 170))]
        + stops([
          (0.5, 0x4292c6), (1, 0x2171b5), (2, 0x41ab5d), (5, 0xfdd835), (10, 0xfb8c00), (20, 0xe53935),
          (50, 0x8e24aa),
        ]),
      transparentBelow: Metric.wetHour)
  }

  /// Calm pale yellow through greens and blues to purple for storm force: sequential, since
  /// stronger is simply more.
  static func wind(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: stops([
        (0, 0xffffcc), (5, 0xa1dab4), (10, 0x41b6c4), (15, 0x2c7fb8), (20, 0x253494), (30, 0x7a0177), (40, 0x49006a),
      ]))
  }

  /// Clear sky transparent, overcast an opaque grey: the map underneath shows through
  /// where the sky is clear, as on a satellite picture.
  static func cloud(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: [
        Stop(0, RGBA(hex: 0xffffff, alpha: 0)), Stop(50, RGBA(hex: 0xc8c8c8, alpha: 150)),
        Stop(100, RGBA(hex: 0x828282, alpha: 220)),
      ])
  }

  /// Viridis over the sea-level range of ordinary weather: perceptually uniform, so that
  /// equal pressure differences look equally different and lows stand out dark.
  static func pressure(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: stops([(970, 0x440154), (985, 0x3b528b), (1000, 0x21918c), (1015, 0x5ec962), (1030, 0xfde725)]))
  }

  /// Dry browns to humid teals, pale in the middle (diverging around 50 %).
  static func humidity(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: stops([(0, 0x8c510a), (25, 0xd8b365), (50, 0xf6e8c3), (75, 0x5ab4ac), (100, 0x01665e)]))
  }

  /// Cyclic: north is red at both ends, so that 359° and 1° look alike.
  static func direction(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit,
      stops: stops([(0, 0xe41a1c), (90, 0x4daf4a), (180, 0x377eb8), (270, 0x984ea3), (360, 0xe41a1c)]))
  }

  /// Nothing below 5 %, then pale to deep blue.
  static func probability(_ metric: Metric) -> ColourScale {
    ColourScale(
      title: metric.name, unit: metric.unit, stops: stops([(5, 0xc6dbef), (50, 0x4292c6), (100, 0x08306b)]),
      transparentBelow: 5)
  }

  /// Every other metric: viridis over its physical range.
  static func viridis(_ metric: Metric) -> ColourScale {
    let (low, high) = (metric.range.lowerBound, metric.range.upperBound)
    let colours: [UInt32] = [0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725]
    return ColourScale(
      title: metric.name, unit: metric.unit,
      stops: colours.enumerated().map { Stop(low + (high - low) * Double($0.offset) / 4, RGBA(hex: $0.element)) })
  }
}
