import Foundation
import LegacyFace
import Meteogram
import Meteorology
import OpenMeteoFace
import PointQuery
import Testing
import Yams
import _TestSupport

@testable import HTTPService

/// openapi.yaml against the real server: every documented route answers as documented, with
/// every documented parameter accepted and its bad values refused, and the server routes and
/// takes nothing the document does not describe.
@Suite struct OpenAPITests {
  static let file = "\(SampleFiles.packageRoot)/Sources/HTTPService/Resources/openapi.yaml"

  static func document() throws -> [String: Any] {
    try #require(try Yams.load(yaml: String(contentsOfFile: file, encoding: .utf8)) as? [String: Any])
  }

  /// A documented operation: its path, parameters and responses.
  struct Operation {
    let path: String
    let parameters: [[String: Any]]
    let responses: [String: Any]

    func parameter(_ name: String) -> [String: Any]? { parameters.first { $0["name"] as? String == name } }
    var names: [String] { parameters.compactMap { $0["name"] as? String } }
    var required: [String] {
      parameters.filter { $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
    }
  }

  static func operations(_ document: [String: Any]) throws -> [Operation] {
    let check = SchemaCheck(document: document)
    let paths = try #require(document["paths"] as? [String: Any])
    return try paths.keys.sorted().map { path in
      let get = try #require((paths[path] as? [String: Any])?["get"] as? [String: Any], "\(path) has no get")
      let parameters = try (get["parameters"] as? [[String: Any]] ?? []).map { parameter in
        guard let reference = parameter["$ref"] as? String else { return parameter }
        return try #require(check.resolve(reference), "\(reference)")
      }
      return Operation(path: path, parameters: parameters, responses: get["responses"] as? [String: Any] ?? [:])
    }
  }

  /// Parameters that are only meaningful together.
  static let companions = [
    "start_date": "end_date", "end_date": "start_date", "start_hour": "end_hour", "end_hour": "start_hour",
  ]
  /// Optional parameters the smallest meaningful request has: /v1/forecast needs something
  /// to answer, OpenWeatherMap's routes a place.
  static let baseExtras = [
    "/v1/forecast": ["hourly"], "/data/2.5/forecast": ["lat", "lon"], "/data/2.5/weather": ["lat", "lon"],
  ]
  /// Parameters given instead of others: OpenWeatherMap's `q` and `id` name the place `lat`
  /// and `lon` would.
  static let replacing = ["q": ["lat", "lon"], "id": ["lat", "lon"]]

  static func example(_ parameter: [String: Any]) throws -> String {
    let value = try #require(parameter["example"], "\(parameter["name"] ?? "?") has no example")
    return "\(value)"
  }

  /// A value the parameter's schema refuses.
  static func invalid(_ parameter: [String: Any]) -> String {
    let schema = parameter["schema"] as? [String: Any] ?? [:]
    if schema["enum"] != nil { return "not-a-choice" }
    if let maximum = SchemaCheck.number(schema["maximum"]) { return String(Int(maximum) + 1) }
    if schema["pattern"] != nil { return "x" }
    if let length = SchemaCheck.number(schema["maxLength"]) { return String(repeating: "x", count: Int(length) + 1) }
    if schema["format"] as? String == "date" { return "2026-02-30" }
    return "no_such_value"
  }

  static func query(_ parameters: [(String, String)]) -> String {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~,"))
    return parameters.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $1)" }
      .joined(separator: "&")
  }

  /// The smallest request the operation answers: required parameters and base extras, each
  /// with its example.
  static func base(_ operation: Operation) throws -> [(String, String)] {
    try (operation.required + (baseExtras[operation.path] ?? [])).map { name in
      (name, try example(try #require(operation.parameter(name))))
    }
  }

  /// Sends `parameters` to the operation and checks the answer against the documented
  /// response for `status`: its media type and, for JSON, its schema.
  static func check(
    _ operation: Operation, _ parameters: [(String, String)], status: Int, check: SchemaCheck
  ) async throws -> HTTPTestResponse {
    // Path parameters ({key}, {location}) go into the path, the others into the query.
    var path = operation.path
    var queryParameters: [(String, String)] = []
    for (name, value) in parameters {
      if operation.parameter(name)?["in"] as? String == "path" {
        path = path.replacingOccurrences(of: "{\(name)}", with: value)
      } else {
        queryParameters.append((name, value))
      }
    }
    let target = queryParameters.isEmpty ? path : "\(path)?\(query(queryParameters))"
    let answer = try await SampleService.server().client.get(target)
    #expect(answer.status == status, "\(target): \(answer.body.prefix(400))")
    var documented = try #require(
      operation.responses[String(answer.status)] as? [String: Any], "\(target) → \(answer.status)")
    if let reference = documented["$ref"] as? String { documented = try #require(check.resolve(reference)) }
    let content = try #require(documented["content"] as? [String: Any], "\(target): response has no content")
    let mediaType = try #require(answer.mediaType)
    let media = try #require(content[mediaType] as? [String: Any], "\(target): \(mediaType) is not documented")
    if mediaType == "application/json" {
      let schema = try #require(media["schema"] as? [String: Any])
      let json = try #require(answer.json, "\(target): not JSON: \(answer.body.prefix(200))")
      let problems = check.problems(json, schema)
      #expect(problems.isEmpty, "\(target): \(problems.prefix(5))")
    }
    return answer
  }

  @Test func theServerServesTheCheckedInDocument() async throws {
    let answer = try await SampleService.server().client.get("/openapi.yaml")
    #expect(answer.status == 200)
    #expect(answer.body == (try String(contentsOfFile: Self.file, encoding: .utf8)))
    #expect(
      (try String(contentsOfFile: "\(SampleFiles.packageRoot)/docs/openapi.yaml", encoding: .utf8)) == answer.body)
  }

  @Test func everyRouteIsDocumentedAndAnswersItsSmallestRequestAsDocumented() async throws {
    let document = try Self.document()
    let operations = try Self.operations(document)
    #expect(Set(operations.map(\.path)) == (try RouteTableTests.routedPaths()))
    for operation in operations {
      _ = try await Self.check(operation, try Self.base(operation), status: 200, check: SchemaCheck(document: document))
    }
  }

  @Test func everyDocumentedParameterIsTakenAndItsBadValuesAreRefusedByName() async throws {
    let document = try Self.document()
    let check = SchemaCheck(document: document)
    for operation in try Self.operations(document) {
      let base = try Self.base(operation)
      for parameter in operation.parameters {
        let name = try #require(parameter["name"] as? String)
        // A path without its parameter is another path; DarkSkyEndpointTests checks bad locations.
        guard parameter["in"] as? String != "path" else { continue }
        var companions: [(String, String)] = []
        if let companion = Self.companions[name], let other = operation.parameter(companion) {
          companions.append((companion, try Self.example(other)))
        }
        let others = base.filter { $0.0 != name && !(Self.replacing[name] ?? []).contains($0.0) } + companions
        _ = try await Self.check(operation, others + [(name, try Self.example(parameter))], status: 200, check: check)
        let refused = try await Self.check(
          operation, others + [(name, Self.invalid(parameter))], status: 400, check: check)
        #expect(refused.errorMessage?.contains(name) == true, "\(operation.path) \(name): \(refused.body)")
        if operation.required.contains(name) {
          let missing = try await Self.check(operation, others, status: 400, check: check)
          #expect(missing.errorMessage?.hasPrefix("\(name): missing") == true, "\(operation.path): \(missing.body)")
        }
      }
    }
  }

  @Test func theDocumentedChoicesAndLimitsAreTheServers() throws {
    let operations = try Self.operations(try Self.document())
    let forecast = try #require(operations.first { $0.path == ForecastRoute.path })
    #expect(forecast.names.sorted() == ForecastParameters.names.sorted())
    func schema(_ operation: Operation, _ name: String) throws -> [String: Any] {
      try #require(operation.parameter(name)?["schema"] as? [String: Any], "\(operation.path) \(name)")
    }
    func choices(_ name: String) throws -> [String] { try schema(forecast, name)["enum"] as? [String] ?? [] }
    #expect(try choices("units") == UnitPreset.allCases.map(\.rawValue))
    #expect(try choices("temperature_unit") == TemperatureUnit.allCases.map(\.rawValue))
    #expect(try choices("wind_speed_unit") == WindSpeedUnit.allCases.map(\.rawValue))
    #expect(try choices("precipitation_unit") == PrecipitationUnit.allCases.map(\.rawValue))
    #expect(try choices("pressure_unit") == PressureUnit.allCases.map(\.rawValue))
    #expect(try choices("visibility_unit") == VisibilityUnit.allCases.map(\.rawValue))
    #expect(try choices("method") == ["nearest", "bilinear"])
    #expect(try choices("format") == ForecastParameters.Format.allCases.map(\.rawValue))
    #expect(try choices("timeformat") == OpenMeteoDocument.TimeFormat.allCases.map(\.rawValue))
    #expect(Set(try choices("cell_selection")) == Set(CellSelection.allCases.map(\.rawValue)))
    #expect(SchemaCheck.number(try schema(forecast, "forecast_days")["maximum"]) == Double(ServiceLimits().days))
    let meteogram = try #require(operations.first { $0.path == MeteogramRoute.path })
    #expect(meteogram.names.sorted() == MeteogramParameters.names.sorted())
    #expect(try schema(meteogram, "units")["enum"] as? [String] == MeteogramUnits.allCases.map(\.rawValue))
    #expect(try schema(meteogram, "format")["enum"] as? [String] == MeteogramParameters.Format.allCases.map(\.rawValue))
    #expect(SchemaCheck.number(try schema(meteogram, "days")["maximum"]) == Double(MeteogramQuery.dayLimit.upperBound))
    let legacy = operations.filter { $0.path.hasSuffix(".php") }
    #expect(legacy.count == 4)
    for operation in legacy {
      #expect(Set(operation.names).isSubset(of: ["lat", "lon", "date", "metric", "days"]), "\(operation.path)")
      if operation.names.contains("metric") {
        #expect(try schema(operation, "metric")["enum"] as? [String] == Metric.queryable.map(\.name))
      }
      if operation.names.contains("days") {
        #expect(
          SchemaCheck.number(try schema(operation, "days")["maximum"]) == Double(LegacyParameters.days.upperBound))
      }
    }
  }
}
