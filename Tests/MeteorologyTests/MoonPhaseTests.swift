import Meteorology
import Testing

/// The Moon's phase against published instants of new and full moons (the eclipses among
/// them are timed by NASA's eclipse catalogues) and of quarters.
@Suite struct MoonPhaseTests {
  /// (year, month, day, hour, minute) in UTC and the phase at that instant.
  static let published: [(Int64, Int64, Int64, Int64, Int64, Double)] = [
    (2000, 1, 6, 18, 14, 0),  // new moon
    (2017, 8, 21, 18, 30, 0),  // new moon, the total solar eclipse
    (2024, 4, 8, 18, 21, 0),  // new moon, the total solar eclipse
    (2025, 3, 14, 6, 55, 0.5),  // full moon, the total lunar eclipse
    (2022, 11, 8, 11, 2, 0.5),  // full moon, the total lunar eclipse
    (2026, 3, 3, 11, 38, 0.5),  // full moon, the total lunar eclipse
    (2024, 1, 18, 3, 53, 0.25),  // first quarter
    (2024, 2, 2, 23, 18, 0.75),  // last quarter
  ]

  static func seconds(_ y: Int64, _ mo: Int64, _ d: Int64, _ h: Int64, _ mi: Int64) -> Int64 {
    // Days from 1970-01-01 by the civil-from-days inverse (Howard Hinnant's algorithm).
    let year = mo <= 2 ? y - 1 : y
    let era = year / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return (era * 146_097 + dayOfEra - 719_468) * 86_400 + h * 3_600 + mi * 60
  }

  /// The circular distance between two phases.
  static func distance(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 1)
    return min(d, 1 - d)
  }

  @Test func thePhaseAtPublishedNewFullAndQuarterMoonsIsTheirsWithinHalfAnHour() {
    // The elongation grows 12.19° a day: half an hour is 0.0007 of a lunation.
    for (y, mo, d, h, mi, phase) in Self.published {
      let time = Self.seconds(y, mo, d, h, mi)
      let found = MoonPhase.fraction(at: time)
      #expect(Self.distance(found, phase) < 0.0007, "\(y)-\(mo)-\(d) \(h):\(mi): \(found), published \(phase)")
      #expect((0..<1).contains(found))
    }
  }

  @Test func thePhaseGrowsByAboutOneLunationIn29Point53Days() {
    // From three days after a new moon, so the start is not at the wrap.
    let start = Self.seconds(2024, 4, 11, 18, 21)
    var previous = MoonPhase.fraction(at: start)
    var wraps = 0
    for hour in 1...(24 * 59) {
      let phase = MoonPhase.fraction(at: start + Int64(hour) * 3_600)
      if phase < previous { wraps += 1 }
      previous = phase
    }
    // The next two new moons, 26.5 and 56.1 days on, fall within the 59 days.
    #expect(wraps == 2)
  }
}
