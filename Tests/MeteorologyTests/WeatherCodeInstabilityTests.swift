import Meteorology
import Testing

/// `WeatherCode.readsLiftedIndex` against the classifier itself, by brute force over
/// amounts on both sides of every threshold: where it says no, no lifted index changes the
/// code; where it says yes, an unstable index makes a thunderstorm that none does not.
@Suite struct WeatherCodeInstabilityTests {
  static let amounts: [Double] = [-1, 0, 0.05, 0.0999, 0.1, 0.5, 0.9999, 1, 1.5, 3, 10, .nan, .infinity]
  static let indices: [Double?] = [nil, -20, -2.0001, -2, -1.9999, 0, 5, .nan]

  @Test func theIndexChangesTheCodeExactlyWhereTheIngestComputesIt() {
    var consulted = 0
    for precipitation in Self.amounts {
      for convective in Self.amounts.map(Optional.some) + [nil] {
        for snow: Double? in [nil, 0, 2] {
          for temperature in [-5.0, 10] {
            for hail: Double? in [nil, 0, 2] {
              func code(_ index: Double?) -> WeatherCode? {
                WeatherCode.classifyIfKnown(
                  WeatherConditions(
                    precipitation: precipitation, convective: convective, snow: snow, temperature: temperature,
                    visibility: 20_000, cloud: 50, liftedIndex: index, hail: hail))
              }
              let codes = Self.indices.map(code)
              let reads = WeatherCode.readsLiftedIndex(precipitation: precipitation, convective: convective)
              let label = "p \(precipitation), convective \(String(describing: convective))"
              if reads {
                consulted += 1
                #expect(code(-20).map { [95, 96, 99].contains($0.rawValue) } == true, "\(label)")
                #expect(code(nil).map { [95, 96, 99].contains($0.rawValue) } == false, "\(label)")
              } else {
                #expect(codes.allSatisfy { $0 == codes[0] }, "\(label): \(codes)")
              }
            }
          }
        }
      }
    }
    // The cases above include wet hours with enough convective precipitation.
    #expect(consulted > 0)
  }
}
