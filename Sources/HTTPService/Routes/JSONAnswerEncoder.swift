import Hummingbird
import JSONOutput

/// Writes the service's cold answers, `Encodable` documents (errors, `/healthz`, `/v1/runs`,
/// `/v1/domains`, `/v1/search`), as JSON responses: Hummingbird's `ResponseEncoder` over
/// `OrderedJSONEncoder`, so that their keys come in their documents' order and their numbers
/// as the hot answers write them. The forecasts write their JSON straight into a
/// `JSONWriter` instead, which is several times faster than building a document first.
struct JSONAnswerEncoder: ResponseEncoder {
  /// `value` as a 200 response (`ResponseEncodable`'s; an `EditedResponse` sets another
  /// status).
  func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
    try Self.response(value)
  }

  /// `value` as a JSON response of `status`, with its length known up front (one write, no
  /// chunking), for the places that answer without a request context.
  ///
  /// - Throws: `EncodingError.invalidValue` for a number JSON cannot write (NaN, infinite).
  static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let bytes = try OrderedJSONEncoder().encode(value)
    return Response(
      status: status, headers: [.contentType: Responses.json],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}

/// A document of a face (which knows nothing of HTTP) as Hummingbird's `ResponseEncodable`:
/// it encodes as the document does.
struct ColdAnswer: ResponseEncodable {
  let document: any Encodable & Sendable

  init(_ document: any Encodable & Sendable) {
    self.document = document
  }

  func encode(to encoder: any Encoder) throws {
    try document.encode(to: encoder)
  }
}
