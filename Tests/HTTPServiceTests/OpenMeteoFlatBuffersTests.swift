import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// `/v1/forecast?format=flatbuffers` read by Open-Meteo's own decoder (PyPI `openmeteo-sdk`)
/// against a real server over the sample run: every value and time it decodes is the JSON
/// answer's for the same request, every variable carries the schema's enums for its name
/// (the SDK's names, checked against a table written from Open-Meteo's documentation),
/// and errors stay JSON.
@Suite(.enabled(if: PythonReference.isAvailable, Comment(rawValue: PythonReference.unavailableReason)))
struct OpenMeteoFlatBuffersTests {
  /// Lisbon and Porto, as repeated keys and as a comma list, mixed.
  static let points = "latitude=38.7223&latitude=41.1579&longitude=-9.1393,-8.6291"
  static let blocks =
    "hourly=temperature_2m&hourly=precipitation,wind_speed_10m,relative_humidity_2m"
    + "&daily=sunrise,sunset,temperature_2m_max&daily=precipitation_sum,wind_direction_10m_dominant"
    + "&current=temperature_2m,weather_code,is_day,wind_speed_10m"
    + "&minutely_15=temperature_2m,precipitation&timezone=Europe/Lisbon"

  /// What each Open-Meteo name is in the schema, from Open-Meteo's documentation and SDK
  /// names: variable, altitude, aggregation, unit (with the default units).
  static let expected: [String: (variable: String, altitude: Int, aggregation: String, unit: String)] = [
    "temperature_2m": ("temperature", 2, "none", "celsius"),
    "precipitation": ("precipitation", 0, "none", "millimetre"),
    "wind_speed_10m": ("wind_speed", 10, "none", "kilometres_per_hour"),
    "relative_humidity_2m": ("relative_humidity", 2, "none", "percentage"),
    "weather_code": ("weather_code", 0, "none", "wmo_code"),
    "is_day": ("is_day", 0, "none", "dimensionless_integer"),
    "sunrise": ("sunrise", 0, "none", "unix_time"),
    "sunset": ("sunset", 0, "none", "unix_time"),
    "temperature_2m_max": ("temperature", 2, "maximum", "celsius"),
    "precipitation_sum": ("precipitation", 0, "sum", "millimetre"),
    "wind_direction_10m_dominant": ("wind_direction", 10, "dominant", "degree_direction"),
  ]

  static func decode(_ bytes: [UInt8]) throws -> [[String: Any]] {
    let output = try PythonReference.run(mode: "decode", input: Data(bytes))
    return try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
  }

  /// A JSON number (of either answer) as a 32-bit float, what a client of the FlatBuffers
  /// answer reads. Compared as Float: Foundation's JSON reader may miss the last bit of a
  /// double written in 17 digits, never the float it stands for.
  static func float(_ value: Any?) -> Float? {
    guard let number = value as? NSNumber else { return nil }
    return Float(number.doubleValue)
  }

  /// Checks a decoded block against the JSON block `name` of `json`.
  static func check(
    _ decoded: [String: Any]?, json: [String: Any], block name: String, columns: [String], interval: Int
  ) throws {
    let decoded = try #require(decoded, "\(name) missing")
    let jsonBlock = try #require(json[name] as? [String: Any])
    let times = (jsonBlock["time"] as? [Any])?.compactMap { ($0 as? NSNumber)?.int64Value } ?? []
    #expect(decoded["interval"] as? Int == interval, "\(name) interval")
    let variables = try #require(decoded["variables"] as? [[String: Any]])
    #expect(variables.count == columns.count, "\(name) variables")
    if name == "current" {
      let time = (jsonBlock["time"] as? NSNumber)?.int64Value
      #expect((decoded["time"] as? NSNumber)?.int64Value == time)
      #expect((decoded["time_end"] as? NSNumber)?.int64Value == time.map { $0 + Int64(interval) })
    } else {
      #expect((decoded["time"] as? NSNumber)?.int64Value == times.first, "\(name) time")
      #expect((decoded["time_end"] as? NSNumber)?.int64Value == times.last.map { $0 + Int64(interval) }, "\(name) end")
    }
    for (column, variable) in zip(columns, variables) {
      let want = try #require(expected[column])
      #expect(variable["variable"] as? String == want.variable, "\(name).\(column)")
      #expect(variable["altitude"] as? Int == want.altitude, "\(name).\(column) altitude")
      #expect(variable["aggregation"] as? String == want.aggregation, "\(name).\(column) aggregation")
      #expect(variable["unit"] as? String == want.unit, "\(name).\(column) unit")
      if name == "current" {
        let value = float(variable["value"])
        let jsonValue = float(jsonBlock[column])
        // The schema's default 0 reads back as 0; JSON null as NaN (null here).
        #expect(
          value == jsonValue, "\(name).\(column): \(String(describing: value)) vs \(String(describing: jsonValue))")
      } else if column == "sunrise" || column == "sunset" {
        let instants = (variable["values_int64"] as? [NSNumber])?.map { $0.int64Value }
        let jsonInstants = (jsonBlock[column] as? [Any])?.map { ($0 as? NSNumber)?.int64Value ?? Int64.max }
        #expect(instants != nil && instants == jsonInstants, "\(name).\(column)")
      } else {
        let values = (variable["values"] as? [Any])?.map(float)
        let jsonValues = (jsonBlock[column] as? [Any])?.map(float)
        let first = zip(values ?? [], jsonValues ?? []).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
          values != nil && values == jsonValues,
          "\(name).\(column): first difference at \(first.map { "\($0.offset): \($0.element)" } ?? "none")")
        #expect(values?.count == times.count, "\(name).\(column) length")
      }
    }
  }

  @Test func everyBlockOfSeveralLocationsDecodesToTheJSONAnswersValues() async throws {
    let client = try await SampleService.server().client
    let query = "\(Self.points)&\(Self.blocks)&start_date=2026-06-20&end_date=2026-06-22"
    let json = try await client.get("/v1/forecast?\(query)&timeformat=unixtime")
    let binary = try await client.get("/v1/forecast?\(query)&format=flatbuffers")
    #expect(json.status == 200, "\(json.body.prefix(300))")
    #expect(binary.status == 200, "\(binary.body.prefix(300))")
    #expect(binary.headers["content-type"] == "application/octet-stream")
    let answers = try #require(json.json as? [[String: Any]])
    let messages = try Self.decode(binary.bodyBytes)
    #expect(messages.count == 2)
    #expect(answers.count == 2)
    for (index, (message, answer)) in zip(messages, answers).enumerated() {
      #expect(message["location_id"] as? Int == index)
      #expect(message["model"] as? String == "undefined")
      #expect(Self.float(message["latitude"]) == Self.float(answer["latitude"]))
      #expect(Self.float(message["longitude"]) == Self.float(answer["longitude"]))
      #expect(Self.float(message["elevation"]) == Self.float(answer["elevation"]))
      #expect(message["utc_offset_seconds"] as? Int == answer["utc_offset_seconds"] as? Int)
      #expect(message["timezone"] as? String == "Europe/Lisbon")
      #expect(message["timezone_abbreviation"] as? String == answer["timezone_abbreviation"] as? String)
      #expect((message["generation_time_milliseconds"] as? Double).map { $0 >= 0 } == true)
      try Self.check(
        message["current"] as? [String: Any], json: answer, block: "current",
        columns: ["temperature_2m", "weather_code", "is_day", "wind_speed_10m"], interval: 900)
      try Self.check(
        message["hourly"] as? [String: Any], json: answer, block: "hourly",
        columns: ["temperature_2m", "precipitation", "wind_speed_10m", "relative_humidity_2m"], interval: 3_600)
      try Self.check(
        message["minutely_15"] as? [String: Any], json: answer, block: "minutely_15",
        columns: ["temperature_2m", "precipitation"], interval: 900)
      try Self.check(
        message["daily"] as? [String: Any], json: answer, block: "daily",
        columns: ["sunrise", "sunset", "temperature_2m_max", "precipitation_sum", "wind_direction_10m_dominant"],
        interval: 86_400)
    }
  }

  /// A block asked for with no steps (`forecast_hours=0`) is there, with empty vectors; the
  /// blocks not asked for are absent; UTC is written as Open-Meteo writes it, without names.
  @Test func anEmptyBlockHasEmptyValuesAndAbsentBlocksAreAbsent() async throws {
    let client = try await SampleService.server().client
    let binary = try await client.get(
      "/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m,precipitation&forecast_hours=0"
        + "&format=flatbuffers")
    #expect(binary.status == 200, "\(binary.body.prefix(300))")
    let message = try #require(try Self.decode(binary.bodyBytes).first)
    let hourly = try #require(message["hourly"] as? [String: Any])
    let variables = try #require(hourly["variables"] as? [[String: Any]])
    #expect(variables.count == 2)
    for variable in variables { #expect((variable["values"] as? [Any])?.isEmpty == true) }
    #expect((hourly["time"] as? NSNumber) == (hourly["time_end"] as? NSNumber))
    #expect(message["daily"] is NSNull)
    #expect(message["current"] is NSNull)
    #expect(message["minutely_15"] is NSNull)
    #expect(message["timezone"] is NSNull)
    #expect(message["timezone_abbreviation"] is NSNull)
    #expect(message["utc_offset_seconds"] as? Int == 0)
  }

  /// `forecast_days=0` is no day: empty hourly and daily blocks, as on Open-Meteo.
  @Test func noDayGivesEmptyBlocks() async throws {
    let client = try await SampleService.server().client
    let binary = try await client.get(
      "/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&daily=sunrise,temperature_2m_max"
        + "&forecast_days=0&format=flatbuffers")
    #expect(binary.status == 200, "\(binary.body.prefix(300))")
    let message = try #require(try Self.decode(binary.bodyBytes).first)
    for block in ["hourly", "daily"] {
      let variables = try #require((message[block] as? [String: Any])?["variables"] as? [[String: Any]], "\(block)")
      #expect(variables.count == (block == "daily" ? 2 : 1))
      for variable in variables {
        let values = (variable["values"] as? [Any]) ?? (variable["values_int64"] as? [Any])
        #expect(values?.isEmpty == true, "\(block): \(variable)")
      }
    }
    let json = try await client.get(
      "/v1/forecast?latitude=38.7223&longitude=-9.1393&daily=sunrise&forecast_days=0")
    #expect(json.status == 200, "\(json.body.prefix(300))")
    #expect(((json.json as? [String: Any])?["daily"] as? [String: Any])?["sunrise"] as? [Any] != nil)
  }

  /// A location outside every domain in the middle of a request fails the whole request in
  /// JSON, naming it, as any error of the FlatBuffers format is answered.
  @Test func anErrorInTheMiddleOfSeveralLocationsIsJSONNamingIt() async throws {
    let client = try await SampleService.server().client
    let answer = try await client.get(
      "/v1/forecast?latitude=38.7223,0,41.1579&longitude=-9.1393,0,-8.6291&hourly=temperature_2m&format=flatbuffers")
    #expect(answer.status == 404)
    #expect(answer.mediaType == "application/json")
    #expect(
      answer.openMeteoReason?.hasPrefix("location_id 1 (latitude 0.0, longitude 0.0): ") == true, "\(answer.body)")
    let bad = try await client.get("/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=rainbow&format=flatbuffers")
    #expect(bad.status == 400)
    #expect(bad.openMeteoReason?.hasPrefix("hourly: unknown variable 'rainbow'") == true, "\(bad.body)")
  }

  /// The same parameters posted as a form are answered as by GET, message for message but
  /// the time spent; a POST reads its body only.
  @Test func aPostedFormIsAnsweredAsTheSameGET() async throws {
    let client = try await SampleService.server().client
    let query = "\(Self.points)&\(Self.blocks)&start_date=2026-06-20&end_date=2026-06-21&format=flatbuffers"
    let get = try await client.get("/v1/forecast?\(query)")
    let post = try await client.post("/v1/forecast?latitude=0&longitude=0", body: query)
    #expect(post.status == 200, "\(post.body.prefix(300))")
    var got = try Self.decode(get.bodyBytes)
    var posted = try Self.decode(post.bodyBytes)
    for index in got.indices { got[index]["generation_time_milliseconds"] = nil }
    for index in posted.indices { posted[index]["generation_time_milliseconds"] = nil }
    #expect(got.count == 2)
    #expect(NSArray(array: got).isEqual(to: posted))
    let json = try await client.post("/v1/forecast", body: "latitude=38.7223&longitude=-9.1393&hourly=temperature_2m")
    #expect(json.status == 200)
    #expect(json.mediaType == "application/json")
  }

  /// A POST body that is not a form, or too long, is refused saying why.
  @Test func aPostThatIsNotAFormIsRefusedSayingWhy() async throws {
    let client = try await SampleService.server().client
    let wrongType = try await client.post("/v1/forecast", body: "{}", contentType: "application/json")
    #expect(wrongType.status == 415)
    #expect(wrongType.openMeteoReason?.contains("application/x-www-form-urlencoded") == true, "\(wrongType.body)")
    let long = try await client.post(
      "/v1/forecast", body: "hourly=" + String(repeating: "temperature_2m,", count: 10_000))
    #expect(long.status == 413, "\(long.body.prefix(300))")
    #expect(long.openMeteoReason?.contains("131072") == true, "\(long.body.prefix(300))")
  }
}
