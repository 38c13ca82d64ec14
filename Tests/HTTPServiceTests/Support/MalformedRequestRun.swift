import Testing
import _TestSupport

/// Sends malformed requests from a seeded generator and checks each answer: a 4xx with a
/// JSON body carrying a message, and a good request still answered every hundred. A
/// failure names the request's index, seed and text; the same seed makes the same requests.
enum MalformedRequestRun {
  /// Sends `count` requests made by `make` from `seed` to `client`, checking each, and
  /// `good` between them; returns how many answers had each status.
  /// - Parameter message: the message of an answer's error body in the shape expected for
  ///   the request (given as text), nil when the body is not in that shape.
  static func send(
    _ count: Int, seed: UInt64, to client: HTTPTestClient, good: String,
    make: (inout TestRandom) -> [UInt8],
    message: (HTTPTestResponse, String) -> String? = { answer, _ in answer.errorMessage }
  ) async throws -> [Int: Int] {
    var random = TestRandom(seed: seed)
    var statuses: [Int: Int] = [:]
    for index in 0..<count {
      let request = make(&random)
      let text = String(decoding: request.prefix(300), as: UTF8.self)
      let answer = try await client.send(request)
      statuses[answer.status, default: 0] += 1
      #expect((400..<500).contains(answer.status), "request \(index) (seed \(seed)): \(text) → \(answer.status)")
      #expect(answer.mediaType == "application/json", "request \(index): \(text)")
      #expect(message(answer, text)?.isEmpty == false, "request \(index): \(text) → \(answer.body.prefix(300))")
      if index % 100 == 99 {
        let check = try await client.get(good)
        #expect(check.status == 200, "a good request after \(index + 1) malformed ones")
      }
    }
    return statuses
  }

  /// Percent-encodings that are broken or decode to bytes that are not UTF-8.
  static let brokenEncodings = ["%", "%G1", "%F", "%FF", "%C3%28", "%ED%A0%80", "%E2%82", "%%", "%zz"]
  /// Lengths of a query's padding beyond the query limit (8,192 bytes).
  static let overlongPadding = [8_193, 9_000, 20_000, 60_000]

  /// `path` with `parameters`, the value of the one at `index` followed by `broken` as it
  /// is, unencoded.
  static func target(
    _ path: String, _ parameters: [(String, String)], breaking index: Int, with broken: String
  )
    -> String
  {
    MalformedRequestTests.target(path, Array(parameters.prefix(index))) + (index == 0 ? "?" : "&")
      + "\(parameters[index].0)=\(parameters[index].1)\(broken)"
  }

  /// `path` with `parameters` and a `pad` parameter `length` bytes long.
  static func target(_ path: String, _ parameters: [(String, String)], padding length: Int) -> String {
    MalformedRequestTests.target(path, parameters) + "&pad=" + String(repeating: "x", count: length)
  }
}
