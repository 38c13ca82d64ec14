import Foundation
import Meteorology
import Testing

/// One hour's conditions and the code docs/weather-codes.md says they give.
struct WeatherCodeCase: Sendable, CustomTestStringConvertible {
  let name: String
  let conditions: WeatherConditions
  let expected: WeatherCode
  var testDescription: String { "\(name) → \(expected.rawValue)" }

  init(
    _ name: String, _ expected: WeatherCode, p: Double, conv: Double? = nil, snow: Double? = nil, t: Double = 10,
    vis: Double? = nil, cloud: Double? = 100, li: Double? = nil, hail: Double? = nil, cape: Double? = nil,
    type: PrecipitationType? = nil
  ) {
    self.name = name
    self.expected = expected
    conditions = WeatherConditions(
      precipitation: p, convective: conv, snow: snow, temperature: t, visibility: vis, cloud: cloud,
      liftedIndex: li, hail: hail, cape: cape, precipitationType: type)
  }
}

/// Every threshold of docs/weather-codes.md, just below, at and just above, written out
/// here as numbers rather than read from the code, so that a changed threshold fails.
private let boundaryCases: [WeatherCodeCase] = {
  typealias C = WeatherCodeCase
  let below = 1e-4
  var cases: [C] = [
    // The sky by total cloud cover: < 20 % clear, < 50 % mainly clear, < 80 % partly cloudy.
    C("cloud 0 %", .clearSky, p: 0, cloud: 0),
    C("cloud just below 20 %", .clearSky, p: 0, cloud: 20 - below),
    C("cloud 20 %", .mainlyClear, p: 0, cloud: 20),
    C("cloud just below 50 %", .mainlyClear, p: 0, cloud: 50 - below),
    C("cloud 50 %", .partlyCloudy, p: 0, cloud: 50),
    C("cloud just below 80 %", .partlyCloudy, p: 0, cloud: 80 - below),
    C("cloud 80 %", .overcast, p: 0, cloud: 80),
    C("cloud 100 %", .overcast, p: 0, cloud: 100),
    C("cloud above 100 % is overcast", .overcast, p: 0, cloud: 101),
    C("negative cloud is clear", .clearSky, p: 0, cloud: -3),
    // Less than 0.1 mm is no precipitation.
    C("precipitation just below 0.1 mm is dry", .overcast, p: 0.1 - below, snow: 0, cloud: 100),
    C("round-off negative precipitation is dry", .mainlyClear, p: -0.002, cloud: 30),
    // Fog: a dry hour with visibility below 1000 m; rime fog below 0 °C.
    C("visibility just below 1000 m", .fog, p: 0, t: 5, vis: 1000 - below),
    C("visibility 1000 m is not fog", .overcast, p: 0, t: 5, vis: 1000),
    C("fog whatever the cloud", .fog, p: 0, t: 5, vis: 200, cloud: 0),
    C("fog just below 0 °C deposits rime", .depositingRimeFog, p: 0, t: -0.01, vis: 500),
    C("fog at 0 °C is not rime fog", .fog, p: 0, t: 0, vis: 500),
    C("no visibility input, no fog", .clearSky, p: 0, t: 5, vis: nil, cloud: 0),
    C("precipitation outranks fog", .denseDrizzle, p: 0.5, snow: 0, t: 5, vis: 200),
    // Drizzle: non-convective liquid below 1.0 mm/h; moderate from 0.25, dense from 0.5.
    C("0.1 mm is light drizzle", .lightDrizzle, p: 0.1, conv: 0, snow: 0),
    C("just below 0.25 mm", .lightDrizzle, p: 0.25 - below, conv: 0, snow: 0),
    C("0.25 mm", .moderateDrizzle, p: 0.25, conv: 0, snow: 0),
    C("just below 0.5 mm", .moderateDrizzle, p: 0.5 - below, conv: 0, snow: 0),
    C("0.5 mm", .denseDrizzle, p: 0.5, conv: 0, snow: 0),
    C("just below 1.0 mm", .denseDrizzle, p: 1 - below, conv: 0, snow: 0),
    // Rain: 1.0 mm/h up; moderate from 2.5, heavy from 7.6.
    C("1.0 mm is slight rain", .slightRain, p: 1, conv: 0, snow: 0),
    C("just below 2.5 mm", .slightRain, p: 2.5 - below, conv: 0, snow: 0),
    C("2.5 mm", .moderateRain, p: 2.5, conv: 0, snow: 0),
    C("just below 7.6 mm", .moderateRain, p: 7.6 - below, conv: 0, snow: 0),
    C("7.6 mm", .heavyRain, p: 7.6, conv: 0, snow: 0),
    C("60 mm", .heavyRain, p: 60, conv: 0, snow: 0),
    // Showers: convective share at least 0.5, same rate bands as rain from 0.1 mm/h.
    C("convective share just below 0.5", .slightRain, p: 2, conv: 1 - below, snow: 0),
    C("convective share 0.5", .slightRainShowers, p: 2, conv: 1, snow: 0),
    C("no convective input, no showers", .moderateRain, p: 5, conv: nil, snow: 0),
    C("0.1 mm of showers", .slightRainShowers, p: 0.1, conv: 0.1, snow: 0),
    C("showers just below 2.5 mm", .slightRainShowers, p: 2.5 - below, conv: 2.5 - below, snow: 0),
    C("showers 2.5 mm", .moderateRainShowers, p: 2.5, conv: 2.5, snow: 0),
    C("showers just below 7.6 mm", .moderateRainShowers, p: 7.6 - below, conv: 7.6 - below, snow: 0),
    C("showers 7.6 mm", .violentRainShowers, p: 7.6, conv: 7.6, snow: 0),
    // Frozen: snow share at least 0.5, whatever the temperature says.
    C("snow share just below 0.5 is rain", .slightRain, p: 2, conv: 0, snow: 1 - below, t: 0.5),
    C("snow share 0.5 is snow", .moderateSnowFall, p: 2, conv: 0, snow: 1, t: 0.5),
    // Snow: slight below 1.0 mm/h water equivalent, moderate below 5.0, heavy from 5.0.
    C("0.1 mm of snow", .slightSnowFall, p: 0.1, conv: 0, snow: 0.1, t: -3),
    C("snow just below 1.0 mm", .slightSnowFall, p: 1 - below, conv: 0, snow: 1 - below, t: -3),
    C("snow 1.0 mm", .moderateSnowFall, p: 1, conv: 0, snow: 1, t: -3),
    C("snow just below 5.0 mm", .moderateSnowFall, p: 5 - below, conv: 0, snow: 5 - below, t: -3),
    C("snow 5.0 mm", .heavySnowFall, p: 5, conv: 0, snow: 5, t: -3),
    // Snow showers: slight below 1.0 mm/h, heavy from 1.0.
    C("0.1 mm of snow showers", .slightSnowShowers, p: 0.1, conv: 0.1, snow: 0.1, t: -3),
    C("snow showers just below 1.0 mm", .slightSnowShowers, p: 1 - below, conv: 1 - below, snow: 1 - below, t: -3),
    C("snow showers 1.0 mm", .heavySnowShowers, p: 1, conv: 1, snow: 1, t: -3),
    C("snow showers 20 mm", .heavySnowShowers, p: 20, conv: 20, snow: 20, t: -3),
    // Without the snow input the type follows the temperature: snow below 0 °C.
    C("no snow input, just below 0 °C", .slightSnowFall, p: 0.5, conv: 0, snow: nil, t: -0.01),
    C("no snow input, 0 °C", .denseDrizzle, p: 0.5, conv: 0, snow: nil, t: 0),
    C("no snow input, just above 0 °C", .denseDrizzle, p: 0.5, conv: 0, snow: nil, t: 0.01),
    // Freezing: liquid below 0 °C; drizzle below 1.0 mm/h (dense from 0.25), rain above
    // (heavy from 2.5).
    C("liquid at 0 °C is not freezing", .lightDrizzle, p: 0.1, conv: 0, snow: 0, t: 0),
    C("0.1 mm just below 0 °C", .lightFreezingDrizzle, p: 0.1, conv: 0, snow: 0, t: -0.01),
    C("freezing just below 0.25 mm", .lightFreezingDrizzle, p: 0.25 - below, conv: 0, snow: 0, t: -2),
    C("freezing 0.25 mm", .denseFreezingDrizzle, p: 0.25, conv: 0, snow: 0, t: -2),
    C("freezing just below 1.0 mm", .denseFreezingDrizzle, p: 1 - below, conv: 0, snow: 0, t: -2),
    C("freezing 1.0 mm", .lightFreezingRain, p: 1, conv: 0, snow: 0, t: -2),
    C("freezing just below 2.5 mm", .lightFreezingRain, p: 2.5 - below, conv: 0, snow: 0, t: -2),
    C("freezing 2.5 mm", .heavyFreezingRain, p: 2.5, conv: 0, snow: 0, t: -2),
    C("freezing beats showers", .heavyFreezingRain, p: 3, conv: 3, snow: 0, t: -1),
    // Thunderstorm: lifted index at most −2 K and at least 1.0 mm convective.
    C("lifted index just above −2 K", .moderateRainShowers, p: 5, conv: 5, snow: 0, t: 20, li: -2 + 0.01),
    C("lifted index −2 K", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, li: -2),
    C("lifted index −8 K", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, li: -8),
    C("convective just below 1.0 mm", .slightRainShowers, p: 1.5, conv: 1 - below, snow: 0, t: 20, li: -6),
    C("convective 1.0 mm", .thunderstorm, p: 1.5, conv: 1, snow: 0, t: 20, li: -6),
    C("thundersnow", .thunderstorm, p: 2, conv: 2, snow: 2, t: -5, li: -3),
    // Hail: slight from 0.01 mm, heavy from 1.0 mm, only in a thunderstorm.
    C("hail just below 0.01 mm", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, li: -5, hail: 0.01 - below),
    C("hail 0.01 mm", .thunderstormWithSlightHail, p: 5, conv: 5, snow: 0, t: 20, li: -5, hail: 0.01),
    C("hail just below 1.0 mm", .thunderstormWithSlightHail, p: 5, conv: 5, snow: 0, t: 20, li: -5, hail: 1 - below),
    C("hail 1.0 mm", .thunderstormWithHeavyHail, p: 5, conv: 5, snow: 0, t: 20, li: -5, hail: 1),
    C("no hail input", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, li: -5, hail: nil),
    C("hail without instability is showers", .moderateRainShowers, p: 5, conv: 5, snow: 0, t: 20, li: 1, hail: 3),
    // CAPE, where the lifted index is unknown: at least 1,000 J/kg with 1.0 mm convective.
    C("CAPE just below 1000 J/kg", .moderateRainShowers, p: 5, conv: 5, snow: 0, t: 20, cape: 1000 - below),
    C("CAPE 1000 J/kg", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, cape: 1000),
    C("CAPE with hail", .thunderstormWithHeavyHail, p: 5, conv: 5, snow: 0, t: 20, hail: 2, cape: 4000),
    C("CAPE with convective just below 1.0 mm", .slightRainShowers, p: 1.5, conv: 1 - below, snow: 0, cape: 4000),
    C("a stable lifted index outranks CAPE", .moderateRainShowers, p: 5, conv: 5, snow: 0, t: 20, li: 1, cape: 4000),
    C("an unknown lifted index leaves CAPE", .thunderstorm, p: 5, conv: 5, snow: 0, t: 20, li: .nan, cape: 2000),
    // Categorical types decide the type after the thunderstorm test, whatever T and S say.
    C("freezing rain flag at 3 °C, light", .lightFreezingDrizzle, p: 0.2, conv: 0, snow: 0, t: 3, type: .freezingRain),
    C("freezing rain flag, 0.5 mm", .denseFreezingDrizzle, p: 0.5, conv: 0, snow: 0, t: 3, type: .freezingRain),
    C("freezing rain flag, 1.0 mm", .lightFreezingRain, p: 1, conv: 0, snow: 0, t: 3, type: .freezingRain),
    C("freezing rain flag in showers", .heavyFreezingRain, p: 3, conv: 3, snow: 0, t: 3, type: .freezingRain),
    C("ice pellets are solid: snow by rate", .moderateSnowFall, p: 2, conv: 0, snow: 0, t: 1, type: .icePellets),
    C("ice pellets in showers", .heavySnowShowers, p: 2, conv: 2, snow: 0, t: 1, type: .icePellets),
    C("snow flag above 0 °C", .slightSnowFall, p: 0.5, conv: 0, snow: 0, t: 2, type: .snow),
    C("snow flag, heavy", .heavySnowFall, p: 5, conv: 0, snow: 0, t: 2, type: .snow),
    C("rain flag below 0 °C is not freezing", .slightRain, p: 2, conv: 0, snow: 0, t: -3, type: .rain),
    C("rain flag over a snow share", .moderateDrizzle, p: 0.3, conv: 0, snow: 0.3, t: -3, type: .rain),
    C("rain flag in showers", .moderateRainShowers, p: 3, conv: 3, snow: 0, t: 5, type: .rain),
    C("a thunderstorm outranks the flags", .thunderstorm, p: 3, conv: 3, snow: 0, t: 5, li: -4, type: .freezingRain),
    C("a dry hour's flag is ignored", .overcast, p: 0, snow: 0, t: -5, type: .snow),
  ]
  // An impossible split (more convective than total) is clamped, not trusted.
  cases.append(C("convective above the total is clamped", .slightRainShowers, p: 0.5, conv: 9, snow: 0))
  return cases
}()

@Suite struct WeatherCodeTests {
  @Test(arguments: boundaryCases)
  func classifiesEveryBoundary(_ example: WeatherCodeCase) {
    #expect(WeatherCode.classify(example.conditions) == example.expected)
    // With every input it needs present, the cautious form agrees.
    #expect(WeatherCode.classifyIfKnown(example.conditions) == example.expected)
  }

  /// Where several categorical types are 1, the most hazardous wins: freezing rain, snow,
  /// ice pellets, rain (NCEP's tie order); a flag is yes from 0.5 and unknown flags say
  /// nothing.
  @Test func theDominantCategoricalTypeFollowsNCEPsTieOrder() {
    let cases: [((Double?, Double?, Double?, Double?), PrecipitationType?)] = [
      ((1, 1, 1, 1), .freezingRain),
      ((1, 0, 1, 1), .snow),
      ((1, 0, 1, 0), .icePellets),
      ((1, 0, 0, 0), .rain),
      ((0, 0, 0, 0), nil),
      ((nil, nil, nil, nil), nil),
      ((.nan, .nan, 1, .nan), .icePellets),
      ((0.49, 0.49, 0.49, 0.49), nil),
      ((0.5, 0, 0, 0), .rain),
      ((1, nil, nil, 0.6), .snow),
    ]
    for ((rain, freezing, pellets, snow), expected) in cases {
      #expect(
        PrecipitationType.dominant(rain: rain, freezingRain: freezing, icePellets: pellets, snow: snow) == expected,
        "\(String(describing: rain)) \(String(describing: freezing)) \(String(describing: pellets)) \(String(describing: snow))"
      )
    }
  }

  /// The band form reads the type column as `PrecipitationType` raw values, NaN for none.
  @Test func theBandFormReadsTheTypeAndCAPEColumns() {
    let codes = WeatherCode.codesIfKnown(
      precipitation: [2, 2, 2, 5, 5], convective: [0, 0, 0, 5, 5], snow: [0, 0, 0, 0, 0],
      temperature: [5, 5, 5, 20, 20],
      cloud: [100, 100, 100, 100, 100], cape: [0, 0, 0, 999, 1000], precipitationType: [2, 3, .nan, .nan, .nan])
    #expect(codes == [66, 73, 61, 81, 95])
  }

  /// The boundary table reaches every code the classifier can produce; snow grains (77) is
  /// in the table for the clients but a model's snow water cannot tell grains from flakes.
  @Test func theBoundaryTableReachesEveryCodeButSnowGrains() {
    let reached = Set(boundaryCases.map(\.expected))
    #expect(reached == Set(WeatherCode.allCases).subtracting([.snowGrains]))
  }

  /// Huge convective rain in unstable-looking conditions is still no thunderstorm without a
  /// lifted index, nor with one that is not finite, nor when the air is stable.
  @Test func noThunderstormWithoutTheLiftedIndex() {
    for amount in [1.0, 10, 100, 500] {
      for liftedIndex in [nil, Double.nan, -Double.infinity, 0, 5] as [Double?] {
        let hour = WeatherConditions(
          precipitation: amount, convective: amount, snow: 0, temperature: 30, visibility: 100, cloud: 100,
          liftedIndex: liftedIndex, hail: 50)
        let code = WeatherCode.classify(hour)
        #expect(![.thunderstorm, .thunderstormWithSlightHail, .thunderstormWithHeavyHail].contains(code))
        #expect(code == (amount < 2.5 ? .slightRainShowers : .violentRainShowers), "\(amount)")
      }
    }
    // Nor from the total alone when the convection scheme gave nothing.
    let stratiform = WeatherConditions(
      precipitation: 80, convective: 0, snow: 0, temperature: 25, cloud: 100, liftedIndex: -9)
    #expect(WeatherCode.classify(stratiform) == .heavyRain)
    let noScheme = WeatherConditions(
      precipitation: 80, convective: nil, snow: 0, temperature: 25, cloud: 100, liftedIndex: -9)
    #expect(WeatherCode.classify(noScheme) == .heavyRain)
  }

  /// Over a grid of inputs, the code keeps the documented invariants: a thunderstorm only
  /// with lifted index ≤ −2 K and ≥ 1 mm convective, a dry code exactly for a dry hour, no
  /// snow grains, and a wetter hour never a less significant code.
  @Test func theInvariantsHoldOverAGridOfInputs() {
    let amounts: [Double] = [0, 0.05, 0.1, 0.2, 0.3, 0.6, 0.9, 1, 1.5, 2.5, 4, 7.6, 12, 30, 80]
    let thunder: Set<WeatherCode> = [.thunderstorm, .thunderstormWithSlightHail, .thunderstormWithHeavyHail]
    let dry: Set<WeatherCode> = [.clearSky, .mainlyClear, .partlyCloudy, .overcast, .fog, .depositingRimeFog]
    var checked = 0
    for convectiveShare in [nil, 0, 0.3, 0.5, 1] as [Double?] {
      for snowShare in [nil, 0, 0.4, 0.5, 1] as [Double?] {
        for temperature in [-10, -0.5, 0, 0.5, 20.0] {
          for liftedIndex in [nil, 3, -1.9, -2, -6] as [Double?] {
            for hail in [nil, 0, 0.5, 2] as [Double?] {
              for visibility in [nil, 300, 5000] as [Double?] {
                var previous = -1
                for amount in amounts {
                  let hour = WeatherConditions(
                    precipitation: amount, convective: convectiveShare.map { $0 * amount },
                    snow: snowShare.map { $0 * amount }, temperature: temperature, visibility: visibility, cloud: 60,
                    liftedIndex: liftedIndex, hail: hail)
                  let code = WeatherCode.classify(hour)
                  checked += 1
                  #expect(code != .snowGrains)
                  #expect(dry.contains(code) == (amount < 0.1))
                  if thunder.contains(code) {
                    #expect((liftedIndex ?? 0) <= -2 && (convectiveShare ?? 0) * amount >= 1)
                  }
                  #expect(code.significance >= previous, "\(amount) mm after \(previous): \(code)")
                  previous = code.significance
                }
              }
            }
          }
        }
      }
    }
    #expect(checked == 5 * 5 * 5 * 5 * 4 * 3 * amounts.count)
  }

  /// Non-finite or absent inputs: `classify` reads them as nothing observed and never traps;
  /// `classifyIfKnown` says nil exactly where the code depends on them.
  @Test func unknownInputs() {
    let nan = Double.nan
    let rows: [(WeatherConditions, WeatherCode, WeatherCode?)] = [
      (.init(precipitation: nan, temperature: 5, cloud: 90), .overcast, nil),
      (.init(precipitation: .infinity, temperature: 5, cloud: 10), .clearSky, nil),
      (.init(precipitation: 2, snow: 0, temperature: nan, cloud: 90), .slightRain, nil),
      (.init(precipitation: 2, snow: 2, temperature: nan, cloud: 90), .moderateSnowFall, .moderateSnowFall),
      (.init(precipitation: 1, temperature: nan, cloud: 90), .slightRain, nil),
      (.init(precipitation: 0, temperature: nan, visibility: 400, cloud: 90), .fog, nil),
      (.init(precipitation: 0, temperature: nan, cloud: 60), .partlyCloudy, .partlyCloudy),
      (.init(precipitation: 0, temperature: 5, cloud: nil), .clearSky, nil),
      (.init(precipitation: 0, temperature: 5, cloud: nan), .clearSky, nil),
      (.init(precipitation: 0, temperature: 5, visibility: nan, cloud: 85), .overcast, .overcast),
      (.init(precipitation: 0, temperature: 5, visibility: -1, cloud: 85), .overcast, .overcast),
      (.init(precipitation: 3, convective: nan, snow: nan, temperature: 5, cloud: 85), .moderateRain, .moderateRain),
      (
        .init(precipitation: 5, convective: 5, snow: 0, temperature: 20, cloud: 85, liftedIndex: -4, hail: nan),
        .thunderstorm, .thunderstorm
      ),
    ]
    for (index, (hour, guess, known)) in rows.enumerated() {
      #expect(WeatherCode.classify(hour) == guess, "row \(index)")
      #expect(WeatherCode.classifyIfKnown(hour) == known, "row \(index)")
    }
  }
}

@Suite struct WeatherCodeSignificanceTests {
  @Test func everyCodeHasItsOwnRank() {
    #expect(WeatherCode.allCases.map(\.significance).sorted() == Array(0..<WeatherCode.allCases.count))
  }

  @Test func aDaysCodeIsItsMostSignificantHour() {
    let examples: [([WeatherCode], WeatherCode?)] = [
      ([], nil),
      ([.clearSky], .clearSky),
      ([.clearSky, .overcast, .mainlyClear, .partlyCloudy], .overcast),
      ([.overcast, .fog], .fog),
      ([.fog, .depositingRimeFog], .depositingRimeFog),
      // Precipitation outranks fog, as in WMO's order and Open-Meteo's maximum.
      ([.depositingRimeFog, .lightDrizzle], .lightDrizzle),
      // Where the largest number would mislead: heavy rain over a slight shower (80) or
      // slight snow (71), heavy snow over a slight shower.
      ([.heavyRain, .slightRainShowers], .heavyRain),
      ([.heavyRain, .slightSnowFall], .heavyRain),
      ([.heavySnowFall, .slightRainShowers], .heavySnowFall),
      ([.violentRainShowers, .slightSnowShowers], .violentRainShowers),
      // Freezing precipitation outranks all other precipitation.
      ([.heavySnowFall, .lightFreezingDrizzle, .heavyRain], .lightFreezingDrizzle),
      ([.denseFreezingDrizzle, .lightFreezingRain], .lightFreezingRain),
      // Thunderstorms outrank everything, hail the more.
      ([.heavyFreezingRain, .thunderstorm], .thunderstorm),
      ([.thunderstormWithSlightHail, .thunderstormWithHeavyHail, .thunderstorm], .thunderstormWithHeavyHail),
      // Within one intensity: snow over showers over rain.
      ([.moderateRain, .moderateSnowFall, .moderateRainShowers], .moderateSnowFall),
    ]
    for (hours, day) in examples {
      #expect(WeatherCode.mostSignificant(hours) == day, "\(hours.map(\.rawValue))")
      #expect(WeatherCode.mostSignificant(hours.reversed()) == day, "\(hours.map(\.rawValue)) reversed")
    }
  }
}
