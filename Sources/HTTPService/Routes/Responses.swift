import Foundation
import Hummingbird

/// Responses with a body already rendered as text, and the conditional-request check the
/// routes that send an `ETag` share.
enum Responses {
  static let json = "application/json; charset=utf-8"
  static let csv = "text/csv; charset=utf-8"
  static let yaml = "application/yaml; charset=utf-8"
  /// Binary messages: Open-Meteo's FlatBuffers answers, as it labels them.
  static let octetStream = "application/octet-stream"
  /// Prometheus's text exposition format, version 0.0.4.
  static let prometheus = "text/plain; version=0.0.4; charset=utf-8"

  /// Whether a request's `If-None-Match` names `etag` (compared weakly, as RFC 9110
  /// §13.1.2 says a server does for this header) or is `*`: then it is answered 304. The
  /// one comparison for every route that sends an `ETag` (the web page, meteograms, tiles).
  static func isNotModified(_ request: Request, etag: String) -> Bool {
    guard let list = request.headers[.ifNoneMatch] else { return false }
    return list.split(separator: ",").contains { candidate in
      let tag = candidate.trimmingCharacters(in: .whitespaces)
      return tag == "*" || tag == etag || tag == "W/" + etag
    }
  }

  /// `text` as the whole body, with its length known up front (one write, no chunking).
  static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: contentType],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}
