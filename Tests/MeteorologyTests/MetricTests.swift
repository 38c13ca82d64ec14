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
      (.cloudHigh, "cloud_high", "%"), (.windGusts, "wind_gusts", "m/s"), (.snowDepth, "snow_depth", "m"),
      (.isDay, "is_day", ""),
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

  /// A missing metric is explained in its cube's input's names: WRF variables for WRF,
  /// GRIB parameters for GRIB, CF standard names for CF.
  @Test func reasonsNameTheInputConventionsOwnInputs() {
    #expect(
      Metric.temp.absenceReason(amongAbsent: [.temp], convention: .wrf)
        == "not in this cube: derived from T2, which the WRF input lacked (the ingest warning named the missing ones)")
    #expect(
      Metric.temp.absenceReason(amongAbsent: [.temp], convention: .grib)
        == "not in this cube: derived from 2t (0/0/0 heightAboveGround 2), which the GRIB input lacked (the ingest warning named the missing ones)"
    )
    // A warning's inputs end in a comma before "not found in FILE"; a reason's do not.
    #expect(
      Metric.hum.absenceReason(amongAbsent: [.hum], convention: .cf)
        == "not in this cube: derived from 2 m relative_humidity, or temperature and dew point, which the CF input lacked (the ingest warning named the missing ones)"
    )
    #expect(
      Metric.snow.absenceReason(amongAbsent: [.snow], convention: .grib)
        == "not in this cube: nwpcube derives snow from WRF and MM5 output only, not from GRIB input")
  }

  /// A cube that does not record its input (written before cubes did) is explained in WRF's
  /// names as before, but its snow_depth may be missing only because the cube predates
  /// the metric, which the reason says, naming the inputs of every convention.
  @Test func aCubeWithoutItsInputConventionMayPredateSnowDepth() {
    #expect(Metric.temp.absenceReason(amongAbsent: [.temp], convention: nil) == Metric.temp.absenceReason)
    #expect(
      Metric.snowDepth.absenceReason(amongAbsent: [.snowDepth], convention: nil)
        == "not in this cube: it was written before nwpcube derived snow_depth, or from output without its inputs (SNOWH in WRF output; surface_snow_thickness (sde, …), or surface_snow_amount (sd, …) in CF output; sde (0/1/11 surface), or sd/sdwe (0/1/60 or 0/1/13 surface) in GRIB output); ingesting the run again derives it where they exist"
    )
  }
}
