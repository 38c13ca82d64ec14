import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed requests to `/v1/alerts` and `/v1/alerts.cap` from a seeded generator: each
/// gets a 4xx with Open-Meteo's error body (`{"error": true, "reason": "…"}`, as every
/// `/v1/` path), and the server goes on answering.
@Suite struct MalformedAlertsRequestTests {
  static let seed: UInt64 = 20_261_124
  static let count = 400
  static let paths = [AlertsRoute.path, AlertsRoute.capPath]
  static let good = [("latitude", "38.1294"), ("longitude", "-8.9341")]

  static func malformed(_ random: inout TestRandom) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func garbage(_ length: Int) -> String {
      String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) })
    }
    let path = pick(paths)
    var parameters = good
    var rawTarget: String?
    let index = Int(random.next() % UInt64(parameters.count))
    switch random.next() % 9 {
    case 0:  // a coordinate missing, or both
      if random.next() % 3 == 0 { parameters = [] } else { parameters.remove(at: index) }
    case 1:  // a coordinate given twice
      parameters.insert((parameters[index].0, pick([parameters[index].1] + MalformedRequestTests.badNumbers)), at: 0)
    case 2, 3:  // a bad number
      parameters[index].1 = pick(MalformedRequestTests.badNumbers)
    case 4:  // garbage; `~` first, so it is never a good value by chance
      parameters[index].1 = "~" + garbage(Int(1 + random.next() % 40))
    case 5:  // malformed percent-encoding or bytes that are not UTF-8
      let broken = pick(MalformedRequestRun.brokenEncodings)
      rawTarget = MalformedRequestRun.target(path, parameters, breaking: index, with: broken)
    case 6:  // an over-long query string
      rawTarget = MalformedRequestRun.target(path, parameters, padding: pick(MalformedRequestRun.overlongPadding))
    case 7:  // a parameter the route does not take, or /v1/forecast's lists
      if random.next() % 2 == 0 {
        parameters.append((pick(["hourly", "lat", "lon", "units", "domain", garbage(8)]), "1"))
      } else {
        parameters = [("latitude", "38.1,41.1"), ("longitude", "-8.9,-8.6")]
      }
    default:  // a point outside every domain
      parameters = [
        ("latitude", pick(["0", "-45", "89.9", "60"])), ("longitude", pick(["0", "120", "-170", "359.9"])),
      ]
    }
    let line = rawTarget ?? MalformedRequestTests.target(path, parameters)
    return Array("GET \(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  @Test func everyMalformedAlertsRequestGets4xxInOpenMeteosShapeAndTheServerStaysUp() async throws {
    let client = try await SampleService.server().client
    let good = MalformedRequestTests.target(AlertsRoute.capPath, Self.good)
    var random = TestRandom(seed: Self.seed)
    var statuses: [Int: Int] = [:]
    for index in 0..<Self.count {
      let request = Self.malformed(&random)
      let text = String(decoding: request.prefix(300), as: UTF8.self)
      let answer = try await client.send(request)
      statuses[answer.status, default: 0] += 1
      #expect((400..<500).contains(answer.status), "request \(index) (seed \(Self.seed)): \(text) → \(answer.status)")
      #expect(answer.mediaType == "application/json", "request \(index): \(text)")
      #expect(answer.openMeteoReason?.isEmpty == false, "request \(index): \(text) → \(answer.body.prefix(300))")
      if index % 100 == 99 {
        #expect(try await client.get(good).status == 200, "a good request after \(index + 1) malformed ones")
      }
    }
    #expect(statuses.keys.contains(400) && statuses.keys.contains(414), "\(statuses)")
  }
}
