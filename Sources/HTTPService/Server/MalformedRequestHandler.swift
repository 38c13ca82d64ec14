import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser cannot read — a malformed request line, a head larger
/// than the parser's limit (80 KiB) — with a 400 and a JSON error body, then closes the
/// connection.
///
/// Such a request never reaches the router, so the error middleware cannot answer it;
/// without this handler the client would get Hummingbird's bare 400 with no body. It sits
/// after the HTTP codec in each connection's pipeline and only acts on parser errors.
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundOut = HTTPResponsePart

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    // nwpcube's own shape: no path was read, so no family can be told.
    let body = ByteBuffer(string: APIFamily.nwpcube.errorBody(status: .badRequest, message: Self.message(error)))
    let head = HTTPResponse(
      status: .badRequest,
      headerFields: [
        .contentType: Responses.json, .contentLength: String(body.readableBytes), .connection: "close",
      ])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(body)), promise: nil)
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
  }

  static func message(_ error: HTTPParserError) -> String {
    switch error {
    case .headerOverflow:
      "the request line and headers are over 80 KiB; a query string may have at most 8,192 bytes"
    default:
      "the request is not well-formed HTTP/1.1 (\(error)); send GET PATH?QUERY HTTP/1.1 with percent-encoded values"
    }
  }
}
