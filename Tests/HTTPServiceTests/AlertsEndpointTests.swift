import Forecast
import Foundation
import Meteorology
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// `/v1/alerts` and `/v1/alerts.cap` over a store with known heavy-rain hours: the warnings
/// and their onset and expiry, found independently from the library's hourly values, in
/// JSON and in a CAP 1.2 document that parses and has every required element in order.
@Suite struct AlertsEndpointTests {
  /// The expected runs of hours with rain above 10 mm, from the library's own hourly rain
  /// at the point: (onset, expiry), the hour of an amount starting an hour before its stamp.
  static func expectedRuns(latitude: Double, longitude: Double) throws -> [(Int64, Int64)] {
    let forecaster = try #require(RainyService.forecaster)
    let start = RainyStore.now - RainyStore.now % 3_600
    let stamps = (1...24).map { start + Int64($0) * 3_600 }
    let rain = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude), metrics: [.rain], instants: stamps
    ).values[0]
    var runs: [(Int64, Int64)] = []
    for (stamp, value) in zip(stamps, rain) where (value ?? 0) > 10 {
      if let last = runs.last, last.1 == stamp - 3_600 {
        runs[runs.count - 1].1 = stamp
      } else {
        runs.append((stamp - 3_600, stamp))
      }
    }
    return runs
  }

  /// A JSON number as Foundation gives it on any platform.
  static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

  static func target(_ path: String, _ point: (latitude: Double, longitude: Double)) -> String {
    "\(path)?latitude=\(point.latitude)&longitude=\(point.longitude)"
  }

  @Test func theHeavyRainHoursAreListedWithTheirOnsetAndExpiry() async throws {
    let point = try RainyService.centre(5, 9)
    let expected = try Self.expectedRuns(latitude: point.latitude, longitude: point.longitude)
    // The store was made with heavy rain in the hours ending at 06, 12–14 and 20 UTC.
    let hour = { (step: Int64) in RainyStore.start + step * 3_600 }
    #expect(expected.map(\.0) == [hour(5), hour(11), hour(19)] && expected.map(\.1) == [hour(6), hour(14), hour(20)])
    let answer = try await RainyService.server().client.get(Self.target("/v1/alerts", point))
    #expect(answer.status == 200 && answer.mediaType == "application/json", "\(answer.body)")
    let json = try #require(answer.json as? [String: Any])
    let alerts = try #require(json["alerts"] as? [[String: Any]])
    #expect(alerts.count == expected.count)
    for (alert, (onset, expires)) in zip(alerts, expected) {
      #expect(alert["id"] as? String == "heavy-rain")
      #expect(alert["title"] as? String == "Heavy rain & floods <local>")
      #expect(alert["event"] as? String == "Heavy rain & floods <local>")
      #expect(alert["severity"] as? String == "Severe")
      #expect(alert["urgency"] as? String == "Immediate")
      #expect(alert["certainty"] as? String == "Possible")
      #expect(
        Self.number(alert["onset_unix"]) == Double(onset) && Self.number(alert["expires_unix"]) == Double(expires))
      #expect(alert["onset"] as? String == UTC.iso8601(onset) && alert["expires"] as? String == UTC.iso8601(expires))
      #expect(alert["description"] as? String == #"Over 10 mm of rain in an hour: "take care" & stay 'safe'."#)
      #expect(alert["instruction"] as? String == "Keep off flooded roads.")
      #expect(Self.number(alert["threshold"]) == 10 && alert["unit"] as? String == "mm/h")
      let cell = try #require(alert["cell"] as? [String: Any])
      #expect(Self.number(cell["i"]) == 5 && Self.number(cell["j"]) == 9 && cell["run"] as? String == "2026062000")
      let polygon = try #require(cell["polygon"] as? [[Any]]).map { $0.compactMap(Self.number) }
      #expect(polygon.count == 5 && polygon.first == polygon.last)
      let uri = try #require(alert["uri"] as? String)
      // On the host the client called (the test client's Host is 127.0.0.1).
      #expect(uri.hasPrefix("http://127.0.0.1/v1/alerts.cap?latitude="), "\(uri)")
      #expect(json["cap"] as? String == uri)
    }
    #expect(Self.number(json["start_unix"]) == Double(RainyStore.now - RainyStore.now % 3_600))
    #expect(Self.number(json["hours"]) == 24)
  }

  @Test func darkSkysAlertsAreTheSameWarnings() async throws {
    let point = try RainyService.centre(5, 9)
    let expected = try Self.expectedRuns(latitude: point.latitude, longitude: point.longitude)
    let server = try await RainyService.server()
    let answer = try await server.client.get("/forecast/any/\(point.latitude),\(point.longitude)?units=si")
    #expect(answer.status == 200, "\(answer.body.prefix(300))")
    let json = try #require(answer.json as? [String: Any])
    let alerts = try #require(json["alerts"] as? [[String: Any]])
    #expect(alerts.count == expected.count && !expected.isEmpty)
    let listed = try #require(
      try await server.client.get(Self.target("/v1/alerts", point)).json as? [String: Any])
    let capURL = try #require(listed["cap"] as? String)
    for (alert, (onset, expires)) in zip(alerts, expected) {
      #expect(alert["title"] as? String == "Heavy rain & floods <local>")
      // CAP's Severe is Dark Sky's "warning".
      #expect(alert["severity"] as? String == "warning")
      #expect(Self.number(alert["time"]) == Double(onset) && Self.number(alert["expires"]) == Double(expires))
      #expect(alert["description"] as? String == #"Over 10 mm of rain in an hour: "take care" & stay 'safe'."#)
      #expect((alert["regions"] as? [String])?.first?.contains("grid cell (5, 9)") == true, "\(alert)")
      #expect(alert["uri"] as? String == capURL)
    }
    let excluded = try #require(
      try await server.client.get("/forecast/any/\(point.latitude),\(point.longitude)?exclude=alerts").json
        as? [String: Any])
    #expect(excluded["alerts"] == nil)
  }

  /// CAP 1.2's `alert` and `info` elements in the schema's order: a document's elements
  /// must appear in this order, and the required ones (marked) must appear.
  static let alertOrder: [(String, Bool)] = [
    ("identifier", true), ("sender", true), ("sent", true), ("status", true), ("msgType", true), ("source", false),
    ("scope", true), ("restriction", false), ("addresses", false), ("code", false), ("note", false),
    ("references", false), ("incidents", false), ("info", false),
  ]
  static let infoOrder: [(String, Bool)] = [
    ("language", false), ("category", true), ("event", true), ("responseType", false), ("urgency", true),
    ("severity", true), ("certainty", true), ("audience", false), ("eventCode", false), ("effective", false),
    ("onset", false), ("expires", false), ("senderName", false), ("headline", false), ("description", false),
    ("instruction", false), ("web", false), ("contact", false), ("parameter", false), ("resource", false),
    ("area", false),
  ]

  /// Problems with `element`'s children against `order`.
  static func orderProblems(_ element: XMLTree.Element, _ order: [(String, Bool)]) -> [String] {
    var problems: [String] = []
    var position = 0
    for child in element.children {
      guard let index = order.firstIndex(where: { $0.0 == child.name }) else {
        problems.append("\(element.name) has an unknown element \(child.name)")
        continue
      }
      if index < position { problems.append("\(child.name) is out of order in \(element.name)") }
      position = index
    }
    for (name, required) in order where required && element.all(name).isEmpty {
      problems.append("\(element.name) lacks \(name)")
    }
    return problems
  }

  @Test func theCAPDocumentParsesAndHasEveryRequiredElementInOrder() async throws {
    let point = try RainyService.centre(5, 9)
    let expected = try Self.expectedRuns(latitude: point.latitude, longitude: point.longitude)
    let answer = try await RainyService.server().client.get(Self.target("/v1/alerts.cap", point))
    #expect(answer.status == 200 && answer.mediaType == "application/xml", "\(answer.body.prefix(300))")
    let tree = try #require(XMLTree.parse(answer.body), "not XML: \(answer.body.prefix(500))")
    let alert = tree.root
    #expect(alert.name == "alert" && alert.namespace == "urn:oasis:names:tc:emergency:cap:1.2")
    #expect(Self.orderProblems(alert, Self.alertOrder).isEmpty, "\(Self.orderProblems(alert, Self.alertOrder))")
    #expect(alert.text("sender") == RainyService.sender)
    #expect(alert.text("status") == "Actual" && alert.text("msgType") == "Alert" && alert.text("scope") == "Public")
    // Sent at the run's start, in CAP's form: a numeric offset, never Z.
    #expect(alert.text("sent") == "2026-06-20T00:00:00-00:00")
    let identifier = try #require(alert.text("identifier"))
    #expect(identifier.hasPrefix("nwpcube.wrf.d01.2026062000.5.9.") && !identifier.contains(" "))
    let infos = alert.all("info")
    #expect(infos.count == expected.count)
    let capTime = { (instant: Int64) in String(UTC.iso8601(instant).dropLast()) + "-00:00" }
    for (info, (onset, expires)) in zip(infos, expected) {
      #expect(Self.orderProblems(info, Self.infoOrder).isEmpty, "\(Self.orderProblems(info, Self.infoOrder))")
      #expect(info.text("category") == "Met" && info.text("event") == "Heavy rain & floods <local>")
      #expect(info.text("headline") == "Heavy rain & floods <local>")
      #expect(info.text("urgency") == "Immediate" && info.text("severity") == "Severe")
      #expect(info.text("certainty") == "Possible")
      #expect(info.text("onset") == capTime(onset) && info.text("expires") == capTime(expires))
      #expect(info.text("description") == #"Over 10 mm of rain in an hour: "take care" & stay 'safe'."#)
      let area = try #require(info.all("area").first)
      #expect(area.text("areaDesc")?.hasPrefix("wrf/d01 grid cell (5, 9) around ") == true)
      let pairs = try #require(area.text("polygon")).split(separator: " ").map { pair in
        pair.split(separator: ",").compactMap { Double($0) }
      }
      // A closed ring of at least four pairs, around the cell's centre.
      #expect(pairs.count == 5 && pairs.first == pairs.last && pairs.allSatisfy { $0.count == 2 })
      let latitudes = pairs.map { $0.first ?? 0 }
      let longitudes = pairs.map { $0.last ?? 0 }
      #expect((latitudes.min() ?? 0) < point.latitude && point.latitude < (latitudes.max() ?? 0))
      #expect((longitudes.min() ?? 0) < point.longitude && point.longitude < (longitudes.max() ?? 0))
    }
  }

  @Test func aPointWithoutWarningsGetsAnEmptyListAndACAPAlertWithoutInfo() async throws {
    let point = try RainyService.centre(18, 9)
    #expect(try Self.expectedRuns(latitude: point.latitude, longitude: point.longitude).isEmpty)
    let client = try await RainyService.server().client
    let json = try #require(try await client.get(Self.target("/v1/alerts", point)).json as? [String: Any])
    #expect((json["alerts"] as? [Any])?.isEmpty == true)
    let cap = try await client.get(Self.target("/v1/alerts.cap", point))
    #expect(cap.status == 200)
    let alert = try #require(XMLTree.parse(cap.body)).root
    #expect(Self.orderProblems(alert, Self.alertOrder).isEmpty && alert.all("info").isEmpty)
    #expect(alert.text("note")?.hasPrefix("No warning in force for this cell") == true)
    #expect(alert.text("identifier")?.hasPrefix("nwpcube.wrf.d01.2026062000.18.9.none.") == true)
  }

  @Test func aServerWithoutAnAlertsFileAnswers404SayingSo() async throws {
    var settings = RainyService.settings
    settings.alerts = nil
    let server = try await LiveServer.start(settings)
    defer { Task { try await server.stop() } }
    for path in ["/v1/alerts", "/v1/alerts.cap"] {
      let answer = try await server.client.get(Self.target(path, try RainyService.centre(5, 9)))
      #expect(answer.status == 404 && answer.mediaType == "application/json")
      #expect(
        answer.openMeteoReason
          == "this server publishes no warnings; start nwpcube serve with --alerts FILE (docs/alerts.md)")
    }
  }

  @Test func badParametersAreRefusedByName() async throws {
    let client = try await RainyService.server().client
    let cases: [(String, String)] = [
      (
        "latitude=38", "longitude: missing; give a longitude in decimal degrees, east-positive, −180…360 (e.g. -8.9341)"
      ),
      ("longitude=-8", "latitude: missing; give a latitude in decimal degrees, −90…90 (e.g. 38.1294)"),
      (
        "latitude=91&longitude=-8",
        "latitude: '91' is out of range; give a latitude in decimal degrees, −90…90 (e.g. 38.1294)"
      ),
      (
        "latitude=nan&longitude=-8",
        "latitude: 'nan' is not a decimal number; give a latitude in decimal degrees, −90…90 (e.g. 38.1294)"
      ),
      ("latitude=38&longitude=-8&hourly=rain", "hourly: unknown parameter; allowed: latitude, longitude"),
    ]
    for path in ["/v1/alerts", "/v1/alerts.cap"] {
      for (query, message) in cases {
        let answer = try await client.get("\(path)?\(query)")
        #expect(answer.status == 400 && answer.openMeteoReason == message, "\(path)?\(query): \(answer.body)")
      }
      // Outside the domain: the store's own refusal.
      let outside = try await client.get("\(path)?latitude=0&longitude=0")
      #expect((400..<500).contains(outside.status) && outside.openMeteoReason != nil, "\(outside.body)")
    }
  }
}
