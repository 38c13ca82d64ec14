import DarkSkyFace
import FaceKit
import Foundation
import LegacyFace
import MapTiles
import Testing
import _TestSupport

@testable import HTTPService

/// openapi.yaml's refusals and patterns against the server's own: every route declares the
/// 401, 429 and 503 keys and load shedding answer, with their headers, in its API's error
/// shape; a server with keys answers as declared; and the date and time patterns admit
/// exactly what the server's readers take.
@Suite struct OpenAPIRefusalTests {
  /// The error schema of each API family, as the document names it.
  static func errorSchema(_ path: String) -> String {
    switch APIFamily(path: path) ?? .nwpcube {
    case .openMeteo: "OpenMeteoError"
    case .openWeatherMap: "OpenWeatherMapError"
    case .darkSky: "DarkSkyError"
    default: "Error"
    }
  }

  /// The declared response for `status` on `operation`, its reference resolved.
  static func response(
    _ operation: OpenAPITests.Operation, _ status: String, _ check: SchemaCheck
  ) throws -> [String: Any] {
    var declared = try #require(operation.responses[status] as? [String: Any], "\(operation.path) has no \(status)")
    if let reference = declared["$ref"] as? String { declared = try #require(check.resolve(reference)) }
    return declared
  }

  static func header(_ response: [String: Any], _ name: String) -> [String: Any]? {
    (response["headers"] as? [String: Any])?[name] as? [String: Any]
  }

  static func schemaName(_ response: [String: Any]) -> String? {
    let media = (response["content"] as? [String: Any])?["application/json"] as? [String: Any]
    return ((media?["schema"] as? [String: Any])?["$ref"] as? String)?.split(separator: "/").last.map(String.init)
  }

  @Test func everyRouteButTheProbesDeclaresTheSheddingAndKeyRefusalsInItsFamilysShape() throws {
    let document = try OpenAPITests.document()
    let check = SchemaCheck(document: document)
    for operation in try OpenAPITests.operations(document) {
      let path = operation.path
      let shed = ![ServiceRoutes.healthPath, ServiceRoutes.metricsPath].contains(path)
      #expect(shed == (operation.responses["429"] != nil), "\(path): 429 declared only where a client can be shed")
      guard shed else { continue }
      let tooMany = try Self.response(operation, "429", check)
      #expect(Self.header(tooMany, "Retry-After")?["required"] as? Bool == true, "\(path) 429")
      #expect(Self.schemaName(tooMany) == Self.errorSchema(path), "\(path) 429")
      let unavailable = try Self.response(operation, "503", check)
      #expect(Self.header(unavailable, "Retry-After") != nil, "\(path) 503")
      #expect(Self.schemaName(unavailable) == Self.errorSchema(path), "\(path) 503")
      // Every path that needs a key when the server has keys can refuse one.
      let keyed = APIFamily(path: path.replacingOccurrences(of: "{file}", with: "app.js")) != nil
      #expect(keyed == (operation.responses["401"] != nil), "\(path): 401 declared only where a key is asked")
      if keyed {
        let unauthorized = try Self.response(operation, "401", check)
        #expect(Self.header(unauthorized, "WWW-Authenticate")?["required"] as? Bool == true, "\(path) 401")
        #expect(Self.schemaName(unauthorized) == Self.errorSchema(path), "\(path) 401")
      }
    }
  }

  @Test func aServerWithKeysRefusesEveryKeyedRouteAsDeclared() async throws {
    let document = try OpenAPITests.document()
    let check = SchemaCheck(document: document)
    let keyed = try await KeyedService.server().client
    for operation in try OpenAPITests.operations(document) where operation.responses["401"] != nil {
      var target = operation.path.replacingOccurrences(of: "{key}", with: KeyedService.wrongKey)
      for parameter in operation.parameters where parameter["in"] as? String == "path" {
        let name = try #require(parameter["name"] as? String)
        target = target.replacingOccurrences(of: "{\(name)}", with: try OpenAPITests.example(parameter))
      }
      let answer = try await keyed.get(target)
      #expect(answer.status == 401, "\(target): \(answer.body.prefix(200))")
      #expect(answer.headers["www-authenticate"]?.hasPrefix("APIKey realm=\"nwpcube\"") == true, "\(target)")
      let declared = try Self.response(operation, "401", check)
      let schema = try #require(check.resolve("#/components/schemas/\(Self.schemaName(declared) ?? "")"))
      let json = try #require(answer.json, "\(target): \(answer.body.prefix(200))")
      #expect(check.problems(json, schema).isEmpty, "\(target): \(check.problems(json, schema).prefix(3))")
    }
  }

  /// The schema pattern of the parameter `name` of the operation at `path`.
  static func pattern(of name: String, on path: String) throws -> String {
    let operations = try OpenAPITests.operations(try OpenAPITests.document())
    let operation = try #require(operations.first { $0.path == path }, "\(path)")
    let schema = try #require(operation.parameter(name)?["schema"] as? [String: Any], "\(path) \(name)")
    return try #require(schema["pattern"] as? String, "\(path) \(name)")
  }

  /// Whether `pattern` (an OpenAPI pattern, ECMA-262, which these stay within) matches `text`.
  static func matches(_ pattern: String, _ text: String) throws -> Bool {
    let expression = try NSRegularExpression(pattern: pattern)
    return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// `yyyy MM dd` texts around every calendar edge: years with and without 29 February
  /// (2000 and 2024 have one, 1900, 2026 and 2100 do not; 0000 does in the proleptic
  /// calendar), months 00 to 13 and days 00 to 32.
  static func days(separator: String) -> [String] {
    var texts: [String] = []
    for year in [0, 1900, 2000, 2024, 2026, 2100] {
      for month in 0...13 {
        for day in 0...32 {
          texts.append(
            String(format: "%04d", year) + separator + String(format: "%02d", month) + separator
              + String(format: "%02d", day))
        }
      }
    }
    return texts
  }

  @Test func theLegacyDatePatternsAdmitExactlyTheHoursAndDaysTheServerReads() throws {
    let document = try OpenAPITests.document()
    let parameters = try #require((document["components"] as? [String: Any])?["parameters"] as? [String: Any])
    func pattern(_ name: String) throws -> String {
      let parameter = try #require(parameters[name] as? [String: Any])
      return try #require((parameter["schema"] as? [String: Any])?["pattern"] as? String)
    }
    let (hourPattern, dayPattern) = (try pattern("hour"), try pattern("day"))
    var checked = 0
    for day in Self.days(separator: "") {
      for text in [day] + ["00", "07", "23", "24", "99"].map({ "\(day)_\($0)" }) {
        let query = try QueryParameters("date=\(text)", maximumBytes: 100)
        let readsHour = (try? LegacyParameters(query: query).hour()) != nil
        let readsDay = (try? LegacyParameters(query: query).day()) != nil
        #expect(try Self.matches(hourPattern, text) == readsHour, "hour \(text): the server reads it: \(readsHour)")
        #expect(try Self.matches(dayPattern, text) == readsDay, "day \(text): the server reads it: \(readsDay)")
        checked += 1
      }
    }
    #expect(checked == 6 * 14 * 33 * 6)
  }

  @Test func darkSkysLocationPatternAdmitsExactlyTheTimesTheServerReads() throws {
    let pattern = try Self.pattern(of: "location", on: DarkSkyRoute.path)
    let times =
      Self.days(separator: "-").flatMap { ["\($0)T12:00:00", "\($0)T23:59:59Z", "\($0)T00:00:00+01:00"] }
      + [
        "1782043200", "-5", "2026-06-21T24:00:00", "2026-06-21T12:60:00", "2026-06-21T12:00",
        "2026-06-21T12:00:00+19:00",
      ]
    for time in times {
      let text = "38.1294,-8.9341,\(time)"
      let reads = (try? DarkSkyParameters(location: text, query: try QueryParameters(nil, maximumBytes: 100))) != nil
      #expect(try Self.matches(pattern, text) == reads, "\(text): the server reads it: \(reads)")
    }
    for text in ["38.1294,-8.9341", "+38,-9", "1e1,5", ".5,5.", "38", "a,b", "38,-9,", "38;-9"] {
      let reads = (try? DarkSkyParameters(location: text, query: try QueryParameters(nil, maximumBytes: 100))) != nil
      #expect(try Self.matches(pattern, text) == reads, "\(text): the server reads it: \(reads)")
    }
  }

  @Test func theTileTimePatternAdmitsExactlyTheTimesTheServerReads() throws {
    let pattern = try Self.pattern(of: "time", on: TileRoutes.tilePath)
    let texts =
      Self.days(separator: "-").flatMap { ["\($0)T12:00Z", "\($0)T23:59"] }
      + ["2026-06-21T24:00Z", "2026-06-21T12:60Z", "2026-06-21T12:00:00Z", "2026-06-21", "2026-06-21T12:00+01:00"]
    for text in texts {
      let reads = (try? TileService.parseTime(text)) != nil
      #expect(try Self.matches(pattern, text) == reads, "\(text): the server reads it: \(reads)")
    }
  }
}
