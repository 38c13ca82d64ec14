import Meteorology
import Testing

@Suite struct MetricTests {
  /// Metrics compare by `index`, so the catalogue must give each one its own position, and
  /// identity by index must agree with identity by name.
  @Test func eachMetricsIndexIsItsPositionInTheCatalogue() {
    for (position, metric) in Metric.queryable.enumerated() {
      #expect(metric.index == position, "\(metric.name)")
      #expect(Metric.named(metric.name)?.index == position, "\(metric.name)")
    }
    #expect(Set(Metric.queryable.map(\.name)).count == Metric.queryable.count)
    for stored in Metric.stored {
      #expect(Metric.queryable[stored.index].name == stored.name)
    }
  }

  /// Each named metric refers to its own definition in the catalogue.
  @Test func theNamedMetricsAreTheirDefinitions() {
    let names: [(Metric, String, String)] = [
      (.temp, "temp", "°C"), (.hum, "hum", "%"), (.dewPoint, "dew_point", "°C"), (.rain, "rain", "mm"),
      (.snow, "snow", "mm"), (.cloud, "cloud", "%"), (.windVel, "wind_vel", "m/s"), (.windDir, "wind_dir", "°"),
      (.windU, "wind_u", "m/s"), (.windV, "wind_v", "m/s"), (.atmPress, "atm_press", "hPa"),
      (.sfcPress, "sfc_press", "hPa"), (.shortwave, "shortwave", "W/m²"), (.apparentTemp, "apparent_temp", "°C"),
      (.visibility, "visibility", "m"), (.weatherCode, "weather_code", "wmo code"), (.showers, "showers", "mm"),
      (.snowfall, "snowfall", "cm"), (.cloudLow, "cloud_low", "%"), (.cloudMid, "cloud_mid", "%"),
      (.cloudHigh, "cloud_high", "%"), (.windGusts, "wind_gusts", "m/s"), (.isDay, "is_day", ""),
      (.precipitationNeighbourhood, "precip_neighbourhood", "%"),
      (.precipitationProbability, "precipitation_probability", "%"),
    ]
    #expect(names.count == Metric.queryable.count)
    for (metric, name, unit) in names {
      #expect(metric.name == name)
      #expect(metric.unit == unit, "\(name)")
    }
  }

  /// A cube's metric table holds names of at most 23 bytes (`CubeLimits`): a longer stored
  /// name would make every ingest that derives it fail.
  @Test func everyStoredNameFitsACube() {
    for metric in Metric.stored {
      #expect((1...23).contains(metric.name.utf8.count), "\(metric.name)")
    }
  }

  @Test func equalityAndHashingFollowTheIndex() {
    #expect(Metric.temp == Metric.queryable[0])
    #expect(Metric.temp != Metric.hum)
    #expect(Set(Metric.queryable + Metric.stored).count == Metric.queryable.count)
  }

  /// A stored metric's documented physical range must be representable in its 16-bit
  /// words, or a valid value would be clamped on the way in.
  @Test func everyStoredRangeFitsTheQuantization() {
    for metric in Metric.stored {
      let step = try! #require(metric.step, "\(metric.name)")
      #expect(step > 0, "\(metric.name)")
      #expect(metric.range.lowerBound >= metric.offset, "\(metric.name)")
      #expect(metric.range.upperBound <= metric.maximum + step / 2, "\(metric.name)")
    }
    for metric in Metric.queryable where metric.origin != .stored {
      #expect(metric.step == nil, "\(metric.name)")
      #expect(!Metric.stored.contains(metric), "\(metric.name)")
    }
  }
}
