import DarkSkyFace
import Forecast
import Foundation
import Testing

/// Dark Sky's `alerts` block as the document writes the alerts the route's seam hands it.
@Suite struct DarkSkyAlertsTests {
  static let alert = DarkSkyAlert(
    title: "Heavy rain warning", regions: ["Setúbal", "Lisboa"], severity: "warning", time: 1_782_050_000,
    expires: 1_782_080_000, description: "Rain above 10 mm/h.\nTake \"care\".", uri: "http://127.0.0.1/v1/alerts.cap")

  static func document(excluding excluded: Set<DarkSkyQuery.Block>) throws -> [String: Any] {
    let forecaster = try #require(SampleService.forecaster)
    let query = DarkSkyQuery(
      request: ForecastRequest(latitude: SampleService.latitude, longitude: SampleService.longitude),
      time: SampleService.now, excluded: excluded)
    let answer = try query.answer(forecaster)
    let json = DarkSkyDocument(answer: answer, alerts: [Self.alert, Self.alert]).jsonBytes
    return try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
  }

  @Test func aListOfAlertsIsWrittenInDarkSkysShape() throws {
    let object = try Self.document(excluding: [])
    let alerts = try #require(object["alerts"] as? [[String: Any]])
    #expect(alerts.count == 2)
    let first = try #require(alerts.first)
    #expect(
      Set(first.keys) == ["title", "regions", "severity", "time", "expires", "description", "uri"])
    #expect(first["title"] as? String == "Heavy rain warning")
    #expect(first["regions"] as? [String] == ["Setúbal", "Lisboa"])
    #expect(first["severity"] as? String == "warning")
    #expect(first["time"] as? Int == 1_782_050_000 && first["expires"] as? Int == 1_782_080_000)
    #expect(first["description"] as? String == "Rain above 10 mm/h.\nTake \"care\".")
    #expect(first["uri"] as? String == "http://127.0.0.1/v1/alerts.cap")
  }

  @Test func excludeAlertsRemovesThem() throws {
    let object = try Self.document(excluding: [.alerts])
    #expect(object["alerts"] == nil)
    #expect(object["currently"] != nil)
  }
}
