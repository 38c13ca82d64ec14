import Hummingbird

/// The request context of nwpcube's router: Hummingbird's basic one, with the JSON encoder
/// of its cold answers (`JSONAnswerEncoder`) as the encoder of every `ResponseEncodable`
/// a route or middleware answers with, in place of Foundation's, whose key order is not
/// the documents'.
struct NwpcubeRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }

  var responseEncoder: JSONAnswerEncoder { JSONAnswerEncoder() }
}
