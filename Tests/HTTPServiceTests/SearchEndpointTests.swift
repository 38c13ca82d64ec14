import Foundation
import HTTPService
import Testing
import _TestSupport

/// `/v1/search` against a real server with the bundled gazetteer: Open-Meteo's geocoding
/// shape, GeoNames' ids, and Open-Meteo's error shape naming the parameter at fault.
@Suite struct SearchEndpointTests {
  static func get(_ query: String) async throws -> HTTPTestResponse {
    try await SampleService.server().client.get("/v1/search?\(query)")
  }

  static func object(_ answer: HTTPTestResponse) throws -> [String: Any] {
    try #require(answer.json as? [String: Any], "\(answer.status): \(answer.body.prefix(300))")
  }

  static func results(_ answer: HTTPTestResponse) throws -> [[String: Any]] {
    try #require(try object(answer)["results"] as? [[String: Any]], "\(answer.body.prefix(300))")
  }

  /// `{"error": true, "reason": …}` with `status`: the reason.
  static func refusal(_ answer: HTTPTestResponse, status: Int) throws -> String {
    #expect(answer.status == status, "\(answer.body)")
    let object = try object(answer)
    #expect(object.count == 2 && object["error"] as? Bool == true, "\(answer.body)")
    return try #require(object["reason"] as? String)
  }

  @Test func lisbonComesBackInOpenMeteosShapeWithGeoNamesFields() async throws {
    let answer = try await Self.get("name=lisboa&count=1&language=en&format=json")
    #expect(answer.status == 200)
    #expect(answer.mediaType == "application/json")
    let object = try Self.object(answer)
    #expect(Set(object.keys) == ["results", "generationtime_ms"])
    #expect((object["generationtime_ms"] as? Double).map { $0 >= 0 } == true)
    let lisbon = try #require(try Self.results(answer).first)
    #expect(lisbon["id"] as? Int == 2_267_057)
    #expect(lisbon["name"] as? String == "Lisbon")
    #expect(lisbon["latitude"] as? Double == 38.71667 && lisbon["longitude"] as? Double == -9.13333)
    #expect(lisbon["elevation"] as? Double == 45)
    #expect(lisbon["feature_code"] as? String == "PPLC" && lisbon["country_code"] as? String == "PT")
    #expect(lisbon["timezone"] as? String == "Europe/Lisbon" && lisbon["population"] as? Int == 517_802)
    // Open-Meteo's elevation is a float: 45.0, not 45.
    #expect(answer.body.contains("\"elevation\":45.0,"))
  }

  @Test(arguments: [
    ("lisboa", 2_267_057), ("Lisbon", 2_267_057), ("evora", 2_268_406), ("%C3%89vora", 2_268_406),
    ("porto", 2_735_943), ("PORTO", 2_735_943),
  ])
  func namesResolveToGeoNamesIDs(name: String, id: Int) async throws {
    let first = try #require(try Self.results(try await Self.get("name=\(name)")).first)
    #expect(first["id"] as? Int == id, "\(name)")
  }

  @Test func resultsRankByPopulationAndCountLimitsThem() async throws {
    let ten = try Self.results(try await Self.get("name=san"))
    #expect(ten.count == 10)
    let populations = ten.map { $0["population"] as? Int ?? 0 }
    #expect(populations == populations.sorted(by: >))
    let three = try Self.results(try await Self.get("name=san&count=3"))
    #expect(three.map { $0["id"] as? Int } == ten.prefix(3).map { $0["id"] as? Int })
    #expect(try Self.results(try await Self.get("name=a&count=100")).count == 100)
  }

  @Test func noMatchLeavesResultsOutAsOpenMeteoDoes() async throws {
    let answer = try await Self.get("name=qqqzzx")
    #expect(answer.status == 200)
    #expect(Array(try Self.object(answer).keys) == ["generationtime_ms"])
  }

  @Test func aMissingEmptyOrOverlongNameIsRefusedByName() async throws {
    #expect(try Self.refusal(try await Self.get("count=3"), status: 400).hasPrefix("name: missing; give a place name"))
    #expect(try Self.refusal(try await Self.get("name="), status: 400).hasPrefix("name: empty; give a place name"))
    #expect(try Self.refusal(try await Self.get("name=%20%20"), status: 400).hasPrefix("name: only spaces;"))
    let long = String(repeating: "a", count: 101)
    #expect(
      try Self.refusal(try await Self.get("name=\(long)"), status: 400)
        == "name: 101 bytes long; at most 100 are accepted")
    // 100 bytes is allowed, counted in UTF-8: 50 × "é" is 100 bytes, 51 is 102.
    #expect(try await Self.get("name=\(String(repeating: "a", count: 100))").status == 200)
    #expect(try await Self.get("name=\(String(repeating: "%C3%A9", count: 50))").status == 200)
    #expect(
      try Self.refusal(try await Self.get("name=\(String(repeating: "%C3%A9", count: 51))"), status: 400)
        == "name: 102 bytes long; at most 100 are accepted")
  }

  @Test func badCountFormatLanguageAndUnknownParametersAreRefusedByName() async throws {
    for count in ["0", "101", "ten"] {
      #expect(try Self.refusal(try await Self.get("name=porto&count=\(count)"), status: 400).hasPrefix("count: "))
    }
    #expect(
      try Self.refusal(try await Self.get("name=porto&format=protobuf"), status: 400)
        == "format: 'protobuf' is not supported; give json")
    #expect(try Self.refusal(try await Self.get("name=porto&language=english"), status: 400).hasPrefix("language: "))
    #expect(try Self.refusal(try await Self.get("name=porto&nmae=x"), status: 400).hasPrefix("nmae: unknown parameter"))
    #expect(try Self.refusal(try await Self.get("name=porto&name=lisboa"), status: 400).hasPrefix("name: given more"))
    // language is accepted and ignored: the same places in the same order.
    #expect(
      try await Self.get("name=porto&language=de").body.prefix(200)
        == (try await Self.get("name=porto&language=en").body.prefix(200)))
  }

  @Test func withoutAGazetteerTheRouteAnswers404SayingHowToConfigureIt() async throws {
    let server = try await LiveServer.start(ServiceSettings(store: SampleService.store))
    let answer = try await server.client.get("/v1/search?name=porto")
    try await server.stop()
    #expect(
      try Self.refusal(answer, status: 404)
        == "place search is not configured on this server; start nwpcube serve with --places FILE "
        + "(a GeoNames cities*.txt gazetteer)")
  }
}
