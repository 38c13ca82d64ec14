import Hummingbird

/// Responses with a body already rendered as text.
enum Responses {
  static let json = "application/json; charset=utf-8"
  static let csv = "text/csv; charset=utf-8"
  static let yaml = "application/yaml; charset=utf-8"
  /// Prometheus's text exposition format, version 0.0.4.
  static let prometheus = "text/plain; version=0.0.4; charset=utf-8"

  /// `text` as the whole body, with its length known up front (one write, no chunking).
  static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: contentType],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}
