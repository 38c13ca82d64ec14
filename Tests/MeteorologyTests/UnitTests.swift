import Meteorology
import Testing

/// Whether `a` equals `b` to 1e-12 of `b`: the conversions are exact factors, so only the
/// rounding of a multiplication or division separates them.
private func same(_ a: Double, _ b: Double) -> Bool {
  abs(a - b) <= 1e-12 * max(abs(b), 1)
}

@Suite struct UnitTests {
  @Test func temperaturesFollowTheFahrenheitDefinition() {
    // °F = °C × 9/5 + 32: water freezes at 32 °F and boils at 212 °F; the scales meet at −40.
    for (celsius, fahrenheit) in [(0.0, 32.0), (100, 212), (-40, -40), (37, 98.6), (-17.5, 0.5)] {
      #expect(same(TemperatureUnit.fahrenheit.convert(fromCanonical: celsius), fahrenheit))
      #expect(TemperatureUnit.celsius.convert(fromCanonical: celsius) == celsius)
    }
    // 0 K is −273.15 °C by definition; water's triple point is 273.16 K.
    for (celsius, kelvin) in [(0.0, 273.15), (-273.15, 0), (0.01, 273.16), (25, 298.15)] {
      #expect(same(TemperatureUnit.kelvin.convert(fromCanonical: celsius), kelvin))
    }
    #expect(TemperatureUnit.kelvin.label == "K")
  }

  @Test func windSpeedsUseTheDefinedMileAndKnot() {
    // 1 mph = 1609.344 m / 3600 s = 0.44704 m/s; 1 kn = 1852 m / 3600 s; 1 km/h = 1/3.6 m/s.
    #expect(same(WindSpeedUnit.milesPerHour.convert(fromCanonical: 0.44704), 1))
    #expect(same(WindSpeedUnit.milesPerHour.convert(fromCanonical: 44.704), 100))
    #expect(same(WindSpeedUnit.knots.convert(fromCanonical: 1852.0 / 3600), 1))
    #expect(same(WindSpeedUnit.knots.convert(fromCanonical: 10), 10 * 3600 / 1852.0))
    #expect(same(WindSpeedUnit.kilometresPerHour.convert(fromCanonical: 10), 36))
    #expect(WindSpeedUnit.metresPerSecond.convert(fromCanonical: 7.25) == 7.25)
  }

  @Test func precipitationUsesTheDefinedInch() {
    #expect(same(PrecipitationUnit.inches.convert(fromCanonical: 25.4), 1))
    #expect(same(PrecipitationUnit.inches.convert(fromCanonical: 1), 1 / 25.4))
    #expect(PrecipitationUnit.millimetres.convert(fromCanonical: 3.5) == 3.5)
    #expect(PrecipitationUnit.inches.rateLabel == "in/h" && PrecipitationUnit.millimetres.rateLabel == "mm/h")
  }

  @Test func pressuresUseTheConventionalMercuryColumns() {
    // 1 inHg = 3386.389 Pa = 33.86389 hPa; 1 mmHg = 133.322387415 Pa; 1 kPa = 10 hPa.
    #expect(same(PressureUnit.inchesOfMercury.convert(fromCanonical: 33.86389), 1))
    #expect(same(PressureUnit.inchesOfMercury.convert(fromCanonical: 1013.25), 101_325 / 3386.389))
    #expect(same(PressureUnit.millimetresOfMercury.convert(fromCanonical: 1.33322387415), 1))
    #expect(same(PressureUnit.millimetresOfMercury.convert(fromCanonical: 1013.25), 101_325 / 133.322387415))
    #expect(same(PressureUnit.kilopascals.convert(fromCanonical: 1013.25), 101.325))
    #expect(PressureUnit.hectopascals.convert(fromCanonical: 1013.25) == 1013.25)
  }

  @Test func visibilityUsesTheDefinedMile() {
    // Visibility is stored in metres; a mile is 1609.344 m.
    #expect(same(VisibilityUnit.miles.convert(fromCanonical: 1609.344), 1))
    #expect(same(VisibilityUnit.miles.convert(fromCanonical: 24_135), 24.135 / 1.609344))
    #expect(same(VisibilityUnit.kilometres.convert(fromCanonical: 10_000), 10))
    #expect(VisibilityUnit.metres.convert(fromCanonical: 10_000) == 10_000)
  }

  @Test func sharesAreHundredthsAsFractions() {
    for percent in [0.0, 1, 37.5, 63, 100] {
      #expect(same(ShareUnit.fraction.convert(fromCanonical: percent), percent / 100))
      #expect(ShareUnit.percent.convert(fromCanonical: percent) == percent)
    }
    var darkSky = UnitSystem.us
    darkSky.share = .fraction
    for metric in [Metric.hum, .cloud, .cloudLow, .cloudMid, .cloudHigh, .precipitationProbability] {
      #expect(same(darkSky.convert(63, of: metric), 0.63), "\(metric)")
    }
    #expect(darkSky.convert(63, of: .windDir) == 63)
  }

  @Test func presetsAreTheIssuesTable() throws {
    let table: [(UnitSystem, TemperatureUnit, WindSpeedUnit, PrecipitationUnit, PressureUnit, VisibilityUnit)] = [
      (.si, .celsius, .metresPerSecond, .millimetres, .hectopascals, .metres),
      (.us, .fahrenheit, .milesPerHour, .inches, .inchesOfMercury, .miles),
      (.uk, .celsius, .milesPerHour, .millimetres, .hectopascals, .miles),
      (.canada, .celsius, .kilometresPerHour, .millimetres, .kilopascals, .kilometres),
    ]
    for (units, temperature, windSpeed, precipitation, pressure, visibility) in table {
      #expect(units.temperature == temperature && units.windSpeed == windSpeed)
      #expect(units.precipitation == precipitation && units.pressure == pressure && units.visibility == visibility)
      #expect(units.share == .percent)
    }
    for preset in UnitPreset.allCases {
      #expect(UnitSystem(preset) == (try UnitSystem(preset: preset.rawValue)))
    }
  }

  @Test func metricsConvertByTheirUnitAndTheRestPassThrough() {
    let us = UnitSystem.us
    #expect(same(us.convert(20, of: .temp), 68))
    #expect(same(us.convert(-40, of: .dewPoint), -40))
    #expect(same(us.convert(25.4, of: .rain), 1))
    #expect(same(us.convert(50.8, of: .snow), 2))
    #expect(same(us.convert(44.704, of: .windVel), 100))
    #expect(same(us.convert(-0.44704, of: .windU), -1))
    #expect(same(us.convert(33.86389, of: .atmPress), 1))
    #expect(same(us.convert(338.6389, of: .sfcPress), 10))
    #expect(same(us.convert(16_093.44, of: .visibility), 10))
    for metric in [Metric.hum, .cloud, .windDir, .shortwave] {
      #expect(us.convert(123.4, of: metric) == 123.4, "\(metric)")
      #expect(us.label(of: metric) == metric.unit, "\(metric)")
    }
    let si = UnitSystem.si
    for metric in Metric.queryable {
      #expect(si.convert(-12.5, of: metric) == -12.5, "SI is the stored units: \(metric)")
      #expect(si.label(of: metric) == metric.unit, "\(metric)")
    }
  }

  @Test func everyMetricsUnitIsConvertedOrMeantToPassThrough() {
    // A new metric in a unit no choice knows (K, Pa) would silently pass through
    // unconverted; this list makes adding one a decision. Snowfall in
    // centimetres is Open-Meteo's unit; the client APIs convert it themselves.
    let converted: Set<String> = ["°C", "m/s", "mm", "hPa", "m", "%"]
    let passing: Set<String> = ["°", "W/m²", "cm", "wmo code", ""]
    for metric in Metric.queryable {
      #expect(converted.contains(metric.unit) || passing.contains(metric.unit), "\(metric): \(metric.unit)")
    }
  }

  @Test func labelsFollowTheChosenUnits() {
    let expected: [(UnitSystem, [Metric: String])] = [
      (.us, [.temp: "°F", .windVel: "mph", .rain: "in", .atmPress: "inHg"]),
      (.uk, [.temp: "°C", .windVel: "mph", .rain: "mm", .atmPress: "hPa"]),
      (.canada, [.temp: "°C", .windVel: "km/h", .rain: "mm", .atmPress: "kPa"]),
    ]
    for (units, labels) in expected {
      for (metric, label) in labels { #expect(units.label(of: metric) == label, "\(metric)") }
    }
    var knots = UnitSystem.si
    knots.windSpeed = .knots
    knots.pressure = .millimetresOfMercury
    #expect(knots.label(of: .windU) == "kn" && knots.label(of: .sfcPress) == "mmHg")
    #expect(VisibilityUnit.miles.label == "mi" && VisibilityUnit.kilometres.label == "km")
  }

  @Test func openMeteoSpellingsParse() throws {
    #expect(try TemperatureUnit(parsing: "fahrenheit") == .fahrenheit)
    #expect(try TemperatureUnit(parsing: "celsius") == .celsius)
    #expect(try WindSpeedUnit(parsing: "ms") == .metresPerSecond)
    #expect(try WindSpeedUnit(parsing: "kmh") == .kilometresPerHour)
    #expect(try WindSpeedUnit(parsing: "mph") == .milesPerHour)
    #expect(try WindSpeedUnit(parsing: "kn") == .knots)
    #expect(try PrecipitationUnit(parsing: "inch") == .inches)
    #expect(try PrecipitationUnit(parsing: "mm") == .millimetres)
    #expect(try PressureUnit(parsing: "inHg") == .inchesOfMercury)
    #expect(try PressureUnit(parsing: "hpa") == .hectopascals)
    #expect(try PressureUnit(parsing: "MMHG") == .millimetresOfMercury)
    #expect(try PressureUnit(parsing: "kPa") == .kilopascals)
    #expect(try VisibilityUnit(parsing: "mi") == .miles)
    #expect(try UnitPreset(parsing: "US") == .us)
  }

  @Test func aPresetTakesOverrides() throws {
    let units = try UnitSystem(preset: "us", temperature: "celsius", pressure: "hPa")
    #expect(
      units
        == UnitSystem(
          temperature: .celsius, windSpeed: .milesPerHour, precipitation: .inches, pressure: .hectopascals,
          visibility: .miles))
    #expect(
      try UnitSystem(preset: nil, windSpeed: "kn")
        == UnitSystem(
          temperature: .celsius, windSpeed: .knots,
          precipitation: .millimetres, pressure: .hectopascals, visibility: .metres))
  }

  @Test func aBadNameIsNamedWithTheAllowedOnes() {
    func failure(_ body: () throws -> Void) -> UnitError? {
      do {
        try body()
        return nil
      } catch { return error as? UnitError }
    }
    let rankine = failure { _ = try UnitSystem(preset: "si", temperature: "rankine") }
    #expect(rankine?.parameter == "temperature_unit" && rankine?.value == "rankine")
    #expect(rankine?.allowed == ["celsius", "fahrenheit", "kelvin"])
    let metric = failure { _ = try UnitSystem(preset: "metric") }
    #expect(metric?.parameter == "units" && metric?.value == "metric")
    #expect(metric?.allowed == ["si", "us", "uk", "canada"])
    #expect(
      failure { _ = try WindSpeedUnit(parsing: "m/s") }?.description
        == "wind_speed_unit: unknown unit \"m/s\"; allowed: ms, kmh, mph, kn")
    #expect(
      failure { _ = try PressureUnit(parsing: "bar") }?.description
        == "pressure_unit: unknown unit \"bar\"; allowed: hPa, kPa, inHg, mmHg")
  }
}
