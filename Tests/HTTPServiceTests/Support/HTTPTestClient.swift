import Foundation
import NIOCore
import NIOPosix

/// A minimal HTTP/1.1 client over a real loopback connection, one connection per request.
///
/// It sends exactly the bytes it is given, so tests can send what no well-behaved client
/// would (duplicated parameters, raw garbage, over-long request lines), and it runs on
/// NIO's event loops, never blocking the threads the server's handlers need.
struct HTTPTestClient: Sendable {
  let port: Int

  /// `GET target` (a path and query, sent as given) with `Connection: close`.
  func get(_ target: String) async throws -> HTTPTestResponse {
    try await send(Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
  }

  /// `POST target` with `body` of `contentType` and any extra header lines, with
  /// `Connection: close`.
  func post(
    _ target: String, body: String, contentType: String = "application/x-www-form-urlencoded",
    headers: [String] = []
  ) async throws -> HTTPTestResponse {
    let head =
      "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
      + "Content-Length: \(body.utf8.count)\r\n" + headers.map { "\($0)\r\n" }.joined() + "\r\n"
    return try await send(Array((head + body).utf8))
  }

  /// `GET target` with extra header lines.
  func get(_ target: String, headers: [String]) async throws -> HTTPTestResponse {
    let head =
      "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + headers.map { "\($0)\r\n" }.joined()
    return try await send(Array((head + "\r\n").utf8))
  }

  /// `method target` with `Connection: close`: every byte the server sends until it closes
  /// the connection, so that a test sees exactly what came, a body where none belongs too.
  func raw(_ method: String, _ target: String) async throws -> [UInt8] {
    try await exchange(Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
  }

  /// Sends `bytes` and returns every byte received until the server closes the connection.
  func exchange(_ bytes: [UInt8]) async throws -> [UInt8] {
    let channel = try await connect()
    return try await channel.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(bytes: bytes))
      var received: [UInt8] = []
      for try await chunk in inbound { received += chunk.readableBytesView }
      return received
    }
  }

  /// Sends `bytes` and closes the connection at once, as a client that gives up does.
  func sendAndHangUp(_ bytes: [UInt8]) async throws {
    let channel = try await connect()
    try await channel.executeThenClose { _, outbound in try await outbound.write(ByteBuffer(bytes: bytes)) }
  }

  private func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(.seconds(10))
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
  }

  /// Sends `bytes` as the whole request and reads the response until the server closes the
  /// connection or the body is complete.
  func send(_ bytes: [UInt8]) async throws -> HTTPTestResponse {
    let channel = try await connect()
    return try await channel.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(bytes: bytes))
      var received: [UInt8] = []
      for try await chunk in inbound {
        received += chunk.readableBytesView
        if let response = HTTPTestResponse(parsing: received, complete: false) { return response }
      }
      guard let response = HTTPTestResponse(parsing: received, complete: true) else {
        throw HTTPTestError.malformedResponse(String(decoding: received, as: UTF8.self))
      }
      return response
    }
  }
}

enum HTTPTestError: Error {
  case malformedResponse(String)
  case serverDidNotStart(String)
  case neverHappened(String)
}

/// A response as received: status, headers, body.
struct HTTPTestResponse: Sendable {
  let status: Int
  /// Header names lower-cased.
  let headers: [String: String]
  let body: String
  /// The body as received, for binary answers.
  let bodyBytes: [UInt8]

  /// The body parsed as JSON, nil when it is not JSON.
  var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }

  /// The media type without parameters, e.g. `application/json`.
  var mediaType: String? {
    headers["content-type"].map { String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }
  }

  /// The message of an error body, nwpcube's `{"error": {"message": "…"}}`, Open-Meteo's
  /// `{"error": true, "reason": "…"}`, OpenWeatherMap's `{"cod": "400", "message": "…"}` or
  /// Dark Sky's `{"code": 400, "error": "…"}`; nil when the body is none of them.
  var errorMessage: String? {
    openMeteoReason ?? legacyErrorMessage ?? openWeatherMapMessage ?? darkSkyError
  }

  /// The message of a Dark Sky error body `{"code": 400, "error": "…"}`, exactly those two
  /// members; nil when the body is not one.
  var darkSkyError: String? {
    guard let object = json as? [String: Any], object.count == 2, object["code"] is Int else { return nil }
    return object["error"] as? String
  }

  /// The message of an error body `{"error": {"message": "…"}}`, nil when the body is not one.
  var legacyErrorMessage: String? {
    guard let object = json as? [String: Any], object.count == 1, let error = object["error"] as? [String: Any],
      error.count == 1
    else { return nil }
    return error["message"] as? String
  }

  /// The reason of an Open-Meteo error body `{"error": true, "reason": "…"}`, exactly those
  /// two members; nil when the body is not one.
  var openMeteoReason: String? {
    guard let object = json as? [String: Any], object.count == 2, object["error"] as? Bool == true else { return nil }
    return object["reason"] as? String
  }

  /// Parses `bytes`; nil while incomplete. With `complete`, the connection has closed, so a
  /// body without a length ends here.
  init?(parsing bytes: [UInt8], complete: Bool) {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = head[0].split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Array(bytes[(end + separator.count)...])
    if let length = headers["content-length"].flatMap({ Int($0) }) {
      guard body.count >= length else { return nil }
      body = Array(body.prefix(length))
    } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
      guard let decoded = Self.dechunked(body) else { return nil }
      body = decoded
    } else if !complete {
      return nil
    }
    self.status = status
    self.headers = headers
    self.body = String(decoding: body, as: UTF8.self)
    self.bodyBytes = body
  }

  /// A chunked body decoded; nil until its last chunk has arrived.
  private static func dechunked(_ bytes: [UInt8]) -> [UInt8]? {
    var body: [UInt8] = []
    var index = 0
    while let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")) {
      guard let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16) else { return nil }
      let start = lineEnd + 2
      if size == 0 { return body }
      guard bytes.count >= start + size + 2 else { return nil }
      body += bytes[start..<(start + size)]
      index = start + size + 2
    }
    return nil
  }
}
