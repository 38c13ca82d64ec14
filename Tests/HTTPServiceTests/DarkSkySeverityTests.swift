import DarkSkyFace
import Testing
import Warnings

/// Dark Sky's alert severities, from CAP's.
@Suite struct DarkSkySeverityTests {
  @Test func darkSkysThreeSeveritiesRankCAPsFive() {
    #expect(CAPSeverity.allCases.map(\.darkSky) == ["warning", "warning", "watch", "advisory", "advisory"])
  }
}
