import Foundation
import Testing

@testable import HTTPService

/// Keys are secrets: no answer, on any error path of a route that takes a key in its path
/// or its query, carries the key back; and a key is the same key however it is encoded,
/// in the query or in Dark Sky's path.
@Suite struct APIKeySecrecyTests {
  static let point = "\(SampleService.latitude),\(SampleService.longitude)"

  /// `text` with every byte written as `%XX`, the most a client can encode.
  static func percentEncodedWhole(_ text: String) -> String {
    text.utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
  }

  /// Requests that fail after the key middleware let them through (or on a server without
  /// keys, where any segment is taken), each carrying `key` in Dark Sky's path segment.
  static func darkSkyFailures(_ key: String) -> [(method: String, target: String, status: Int)] {
    [
      ("GET", "/forecast/\(key)/x/y", 404), ("GET", "/forecast/\(key)/\(point)/extra", 404),
      ("GET", "/forecast/\(key)", 404), ("GET", "/forecast/\(key)/", 404),
      ("POST", "/forecast/\(key)/\(point)", 405), ("DELETE", "/forecast/\(key)/\(point)", 405),
      ("GET", "/forecast/\(key)/abc", 400), ("GET", "/forecast/\(key)/\(point)?units=kelvin", 400),
      ("GET", "/forecast/\(key)/\(point)?units=%zz", 400),
    ]
  }

  /// The status of a raw answer and its text, for the methods `HTTPTestClient.get` does not send.
  static func exchange(_ client: HTTPTestClient, _ method: String, _ target: String) async throws -> (Int, String) {
    let text = String(decoding: try await client.raw(method, target), as: UTF8.self)
    let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, text)
  }

  @Test func darkSkysErrorAnswersNeverEchoTheKeyInThePath() async throws {
    let keyed = try await KeyedService.server().client
    let open = try await SampleService.server().client
    let alice = KeyedService.key("alice")
    // On the keyed server alice's key passes the middleware, so the router, the method check
    // and the route each answer; on the open server any text is a key, and must stay secret.
    for (client, key) in [(keyed, alice), (open, "sEcReT-k3y-0f-a-cl1ent")] {
      for (method, target, status) in Self.darkSkyFailures(key) {
        let (got, text) = try await Self.exchange(client, method, target)
        #expect(got == status, "\(method) \(target): \(text.suffix(300))")
        #expect(!text.contains(key), "\(method) \(target) echoes the key: \(text.suffix(300))")
      }
      let notFound = try await client.get("/forecast/\(key)/x/y")
      #expect(notFound.darkSkyError?.hasPrefix("no route for GET /forecast/(redacted)/x/y") == true, "\(notFound.body)")
    }
  }

  @Test func anAnswerToAMalformedQueryNeverEchoesTheKeyInIt() async throws {
    let keyed = try await KeyedService.server().client
    let open = try await SampleService.server().client
    let alice = KeyedService.key("alice")
    let targets = [
      ("/v1/forecast?latitude=38.1294&longitude=-8.9341&hourly=temp", "apikey"),
      ("/data/2.5/weather?lat=38.7167&lon=-9.1333", "appid"), ("/QuickPrevByDate.php?lat=1&lon=2", "apikey"),
    ]
    for (target, parameter) in targets {
      // The key's value is malformed by one stray escape: a server with keys refuses the
      // query as a whole, quoting the parameter without its value; one without keys drops
      // the parameter unread, whatever its value, and answers the rest.
      let refused = try await keyed.get("\(target)&\(parameter)=\(alice)%zz")
      #expect(refused.status == 400, "\(target): \(refused.body)")
      #expect(!refused.body.contains(alice), "\(target) echoes the key: \(refused.body)")
      #expect(refused.body.contains("malformed percent-encoding in '\(parameter)=(redacted)'"), "\(refused.body)")
      let dropped = try await open.get("\(target)&\(parameter)=\(alice)%zz")
      #expect(!dropped.body.contains(alice), "\(target) echoes the key: \(dropped.body)")
    }
  }

  @Test func aPercentEncodedKeyInDarkSkysPathIsTheKeyItSpells() async throws {
    let keyed = try await KeyedService.server().client
    let open = try await SampleService.server().client
    let alice = KeyedService.key("alice")
    let expected = try await open.get("/forecast/any/\(Self.point)")
    #expect(expected.status == 200)
    let halfEncoded =
      String(alice.prefix(5)) + Self.percentEncodedWhole(String(alice.dropFirst(5).prefix(3)))
      + String(alice.dropFirst(8))
    for spelling in [Self.percentEncodedWhole(alice), halfEncoded, halfEncoded.lowercased()] {
      #expect(spelling != alice)
      let answered = try await keyed.get("/forecast/\(spelling)/\(Self.point)")
      #expect(answered.status == 200 && answered.body == expected.body, "\(spelling): \(answered.body.prefix(200))")
    }
    // Decoded exactly once: `%25` is a `%`, and the key `%61lice…` is not alice's.
    let twice = try await keyed.get(
      "/forecast/\(Self.percentEncodedWhole(alice).replacingOccurrences(of: "%", with: "%25"))/\(Self.point)")
    #expect(twice.status == 401 && twice.darkSkyError == "path segment 2: not a valid API key", "\(twice.body)")
    let malformed = try await keyed.get("/forecast/\(alice)%zz/\(Self.point)")
    #expect(malformed.status == 401, "\(malformed.body)")
    #expect(
      malformed.darkSkyError?.hasPrefix("path segment 2: not a valid API key; it has malformed percent-encoding")
        == true)
    #expect(!malformed.body.contains(alice))
  }

  @Test func aPercentEncodedKeyInTheQueryIsTheKeyItSpellsAsInThePath() async throws {
    let keyed = try await KeyedService.server().client
    let open = try await SampleService.server().client
    let target = "/v1/domains"
    let expected = try await open.get(target)
    let answered = try await keyed.get("\(target)?apikey=\(Self.percentEncodedWhole(KeyedService.key("bob")))")
    #expect(answered.status == 200 && answered.body == expected.body, "\(answered.body.prefix(200))")
  }
}

extension String {
  /// The string with zeros before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
