import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Each connection's gate: asks the shared `LoadGate` about every request as soon as its
/// head is parsed, on the event loop, and answers a refused one there and then.
///
/// Why here and not in a router middleware: a request's work is CPU with no suspension, so
/// requests waiting for a core wait before the router, in the executor's queue and the
/// sockets; a middleware would only ever see as many in flight as there are threads, and
/// measured none to shed at 10 times the capacity. Counted from arrival, a request waiting
/// is in flight, and a refused one never joins the queue.
final class LoadGateHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let gate: LoadGate
  /// The requests passed on and not yet answered, oldest first, with the client whose permit
  /// each holds (nil for the probes, which hold none).
  private var answering: [LoadLimiter.Client?] = []
  /// The refusal of the request being read, sent once its end has arrived, and whether the
  /// client asked to close the connection after it.
  private var refusal: (head: HTTPResponse, body: String, close: Bool)?
  /// Whether a refusal is being held (`LoadLimits.refusalDelay`): what arrives meanwhile
  /// waits in `held`, and reading stops, so that answers keep their requests' order.
  private var holding = false
  private var held: [NIOAny] = []
  private var readWanted = false

  init(gate: LoadGate) {
    self.gate = gate
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !holding else {
      held.append(data)
      return
    }
    let part = unwrapInboundIn(data)
    switch part {
    case .head(let request):
      switch gate.decide(request, peer: context.channel.remoteAddress, force: !answering.isEmpty) {
      case .pass(let client):
        answering.append(client)
        context.fireChannelRead(data)
      case .shed(let head, let body):
        let close = request.headerFields[.connection]?.lowercased().contains("close") ?? false
        refusal = (head, body, close)
      }
    case .body:
      if refusal == nil { context.fireChannelRead(data) }
    case .end:
      guard let (refused, body, close) = refusal else {
        context.fireChannelRead(data)
        return
      }
      refusal = nil
      var head = refused
      if close { head.headerFields[HTTPField.Name.connection] = "close" }
      let delay = gate.limiter.limits.refusalDelay
      guard delay > .zero else { return send(head, body, close: close, context: context) }
      holding = true
      let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      let response = head
      context.eventLoop.scheduleTask(in: delay) {
        let (handler, context) = bound.value
        handler.send(response, body, close: close, context: context)
        handler.holding = false
        let parts = handler.held
        handler.held = []
        for part in parts { handler.channelRead(context: context, data: part) }
        // What follows (NIOAsyncChannel's handler) passes reads on at a read's completion,
        // which came while they were held.
        if !parts.isEmpty { context.fireChannelReadComplete() }
        if handler.readWanted, !handler.holding {
          handler.readWanted = false
          context.read()
        }
      }
    }
  }

  private func send(_ head: HTTPResponse, _ body: String, close: Bool, context: ChannelHandlerContext) {
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(ByteBuffer(string: body))), promise: nil)
    let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    if close {
      let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
      written.whenComplete { _ in bound.value.close(promise: nil) }
    }
  }

  func read(context: ChannelHandlerContext) {
    guard !holding else {
      readWanted = true
      return
    }
    context.read()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data), !answering.isEmpty {
      let client = answering.removeFirst()
      if let client { gate.limiter.release(client) }
    }
    context.write(data, promise: promise)
  }

  /// A connection closed with answers owed gives their permits back: no answer will be
  /// written for them.
  func channelInactive(context: ChannelHandlerContext) {
    releaseAll()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    releaseAll()
  }

  private func releaseAll() {
    for client in answering { if let client { gate.limiter.release(client) } }
    answering.removeAll()
  }
}
