import Testing

@testable import HTTPService

/// The query string reader: strict percent-decoding, one value per parameter, and numbers
/// that are plain decimals.
@Suite struct QueryParametersTests {
  @Test func decodesNamesAndValuesAndKeepsPlusSigns() throws {
    let query = try QueryParameters("timezone=Etc%2FGMT+1&lat=38.1294&empty=&flag&&", maximumBytes: 100)
    #expect(query.names == ["timezone", "lat", "empty", "flag"])
    #expect(query["timezone"] == "Etc/GMT+1")
    #expect(query["empty"] == "")
    #expect(query["flag"] == "")
    #expect(query["missing"] == nil)
  }

  @Test func refusesDuplicatesMalformedEscapesAndOverlongQueries() {
    #expect(throws: APIError.self) { try QueryParameters("lat=1&lat=2", maximumBytes: 100) }
    for bad in ["lat=%ZZ", "lat=%4", "lat=%FF", "%=1", "=1"] {
      #expect(throws: APIError.self, "\(bad)") { try QueryParameters(bad, maximumBytes: 100) }
    }
    #expect(throws: APIError.self) { try QueryParameters(String(repeating: "a", count: 101), maximumBytes: 100) }
    #expect(throws: Never.self) { try QueryParameters(String(repeating: "a", count: 100), maximumBytes: 100) }
  }

  @Test func numbersArePlainFiniteDecimalsInRange() throws {
    for good in ["38.1294", "-8.9341", "+1", "1e1", "0"] {
      #expect(throws: Never.self, "\(good)") {
        try QueryParameters.number(good, name: "x", in: -90...90, expected: "")
      }
    }
    for bad in ["nan", "NaN", "inf", "-infinity", "0x1p3", "1e999", "", " 1", "1,5", "91", "--1"] {
      #expect(throws: APIError.self, "\(bad)") {
        try QueryParameters.number(bad, name: "x", in: -90...90, expected: "")
      }
    }
  }

  @Test func legacyDatesAreDigitsWithAnOptionalHour() {
    #expect(LegacyParameters.dateFields("20260620")! == (2026, 6, 20, nil))
    #expect(LegacyParameters.dateFields("20260620_15")! == (2026, 6, 20, 15))
    for bad in ["2026062", "2026-06-20", "20260620_1", "20260620_", "20260620-15", "2026062a", "20260620_1a", "_"] {
      #expect(LegacyParameters.dateFields(bad) == nil, "\(bad)")
    }
  }
}
