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
      (.sfcPress, "sfc_press", "hPa"), (.shortwave, "shortwave", "W/m²"),
    ]
    #expect(names.count == Metric.queryable.count)
    for (metric, name, unit) in names {
      #expect(metric.name == name)
      #expect(metric.unit == unit, "\(name)")
    }
  }

  @Test func equalityAndHashingFollowTheIndex() {
    #expect(Metric.temp == Metric.queryable[0])
    #expect(Metric.temp != Metric.hum)
    #expect(Set(Metric.queryable + Metric.stored).count == Metric.queryable.count)
  }
}
