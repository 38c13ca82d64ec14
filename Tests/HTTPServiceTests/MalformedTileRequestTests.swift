import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed requests to the map routes from a seeded generator: bad zooms, columns and
/// rows (huge ones too), unknown metrics, bad times and times outside every run, broken
/// percent-encoding. Each gets a 4xx with Open-Meteo's error body, and the server goes on
/// answering.
@Suite struct MalformedTileRequestTests {
  static let seed: UInt64 = 20_261_125
  static let count = 400
  static let good = "/v1/tiles/temp/2026-06-21T12:00Z/8/121/98.png"

  static let badIndices = [
    "-1", "", "x", "1.5", "1e3", "+3", "%203", "0x10", "99999999999999999999999", "4294967296", "%31x", "1%00",
    "١٢", "1_0", "--1", "0.0",
  ]
  static let hugeZooms = ["19", "20", "64", "99", "1000", "999999", "9223372036854775808"]
  static let badTimes = [
    "2026-06-21", "2026-06-21T12", "2026-06-21T12:00:00Z", "2026-06-21T12:00+01:00", "2026-13-01T00:00Z",
    "2026-02-30T00:00Z", "2026-06-21T24:00Z", "2026-06-21T12:60Z", "now", "", "20260621T1200Z", "2026-06-21%2012:00",
    "%FF", "2026-06-21T12:00ZZ", "+2026-06-21T12:00Z",
  ]
  /// Well-formed times no run of the sample store covers (it covers 2026-06-20 00:00 to
  /// 2026-06-23 00:00).
  static let uncoveredTimes = ["2026-06-19T23:00Z", "2026-06-23T01:00Z", "1970-01-01T00:00Z", "9999-12-31T23:59Z"]

  static func malformed(_ random: inout TestRandom) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    var (metric, time, z, x, y) = ("temp", "2026-06-21T12:00Z", "8", "121", "98")
    var target: String?
    switch random.next() % 8 {
    case 0:  // a bad zoom, column or row
      switch random.next() % 3 {
      case 0: z = pick(badIndices)
      case 1: x = pick(badIndices)
      default: y = pick(badIndices)
      }
    case 1:  // a huge zoom
      z = pick(hugeZooms)
    case 2:  // a column or row beyond the zoom's
      let zoom = Int(random.next() % 19)
      z = String(zoom)
      if random.next() % 2 == 0 {
        x = String((1 << zoom) + Int(random.next() % 5))
      } else {
        y = String((1 << zoom) + Int(random.next() % 5))
      }
    case 3:  // an unknown metric, on a tile or a legend
      metric = pick(["tempp", "TEMP", "rain%20", "wind-vel", "", "lands", "%74emps", "../temp", "temp.png"])
      if random.next() % 3 == 0 { target = "/v1/legend/\(metric.isEmpty ? "x" : metric).svg" }
    case 4:  // a bad time
      time = pick(badTimes)
    case 5:  // a well-formed time outside every run
      time = pick(uncoveredTimes)
    case 6:  // broken percent-encoding in a segment
      metric = pick(["%", "%G1", "%C3%28", "%ED%A0%80", "te%mp"])
    default:  // a metric the sample run does not hold at all is unknown too; and garbage
      metric = String(
        (0..<Int(1 + random.next() % 12)).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) })
      if Set(["temp", "rain", "land", "hum", "snow", "cloud"]).contains(metric) { metric = "zz" + metric }
    }
    let line = target ?? "/v1/tiles/\(metric)/\(time)/\(z)/\(x)/\(y).png"
    return Array("GET \(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  @Test func everyMalformedTileRequestGets4xxInOpenMeteosShapeAndTheServerStaysUp() async throws {
    let client = try await SampleService.server().client
    let statuses = try await MalformedRequestRun.send(
      Self.count, seed: Self.seed, to: client, good: Self.good, make: { Self.malformed(&$0) }
    ) { answer, _ in
      // A path NIO's parser refuses (a bare `%`) never reaches a route, and gets nwpcube's
      // own shape.
      answer.openMeteoReason
        ?? answer.legacyErrorMessage.flatMap { $0.hasPrefix("the request is not well-formed HTTP") ? $0 : nil }
    }
    #expect(statuses.keys.contains(400) && statuses.keys.contains(404), "\(statuses)")
  }
}
