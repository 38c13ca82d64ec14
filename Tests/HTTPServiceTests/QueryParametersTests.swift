import FaceKit
import LegacyFace
import Testing

@testable import HTTPService

/// The query string reader: strict percent-decoding, one value per parameter unless the
/// API reads repeats (Open-Meteo's lists and last values), and numbers that are plain
/// decimals.
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
    #expect(throws: FaceError.self) { try QueryParameters("lat=1&lat=2", maximumBytes: 100) }
    for bad in ["lat=%ZZ", "lat=%4", "lat=%FF", "%=1", "=1"] {
      #expect(throws: FaceError.self, "\(bad)") { try QueryParameters(bad, maximumBytes: 100) }
    }
    #expect(throws: FaceError.self) { try QueryParameters(String(repeating: "a", count: 101), maximumBytes: 100) }
    #expect(throws: Never.self) { try QueryParameters(String(repeating: "a", count: 100), maximumBytes: 100) }
  }

  /// Open-Meteo's reading: a list gathers repeated keys, commas, `|` and `name[]`, in
  /// order; any other parameter takes its last value; the default refuses a repeat unless
  /// the name is a list.
  @Test func listsGatherRepeatsAndCommasAndSingleValuesTakeTheLast() throws {
    let lists: Set<String> = ["hourly", "latitude"]
    let query = try QueryParameters(
      "hourly=a,b&latitude=1&hourly[]=c&hourly=d|e&forecast_days=2&forecast_days=3&latitude=2,3",
      maximumBytes: 200, repeats: .lastWins(lists: lists))
    #expect(query.list("hourly") == ["a", "b", "c", "d", "e"])
    #expect(query.list("latitude") == ["1", "2", "3"])
    #expect(query["forecast_days"] == "3")
    #expect(query.list("daily") == nil)
    #expect(try QueryParameters("hourly=", maximumBytes: 10, repeats: .lastWins(lists: lists)).list("hourly") == [""])
    // `name[]` is a list's name only.
    #expect(
      try QueryParameters("daily[]=x", maximumBytes: 20, repeats: .lastWins(lists: lists)).names == ["daily[]"])
    #expect(throws: Never.self) {
      try QueryParameters("hourly=a&hourly=b", maximumBytes: 50, repeats: .refused(except: lists))
    }
    #expect(throws: FaceError.self) {
      try QueryParameters("hours=a&hours=b", maximumBytes: 50, repeats: .refused(except: lists))
    }
  }

  /// A key given twice is refused whatever the rule for other parameters, naming it.
  @Test func aKeyGivenTwiceIsRefusedUnderEveryRule() throws {
    let query = try QueryParameters("apikey=a&APIKEY=b", maximumBytes: 50, repeats: .lastWins())
    #expect {
      try query.key("apikey")
    } throws: { error in
      (error as? FaceError)?.description == "apikey: given more than once; give each parameter once"
    }
    #expect(try QueryParameters("APIKey=a", maximumBytes: 50, repeats: .lastWins()).key("apikey") == "a")
  }

  @Test func numbersArePlainFiniteDecimalsInRange() throws {
    for good in ["38.1294", "-8.9341", "+1", "1e1", "0"] {
      #expect(throws: Never.self, "\(good)") {
        try QueryParameters.number(good, name: "x", in: -90...90, expected: "")
      }
    }
    for bad in ["nan", "NaN", "inf", "-infinity", "0x1p3", "1e999", "", " 1", "1,5", "91", "--1"] {
      #expect(throws: FaceError.self, "\(bad)") {
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
