import FaceKit

extension QueryParameters {
  /// A request's query (or form body) decoded, its messages never quoting the value of any
  /// API's key parameter (`APIFamily.keyParameters`): a key is a secret even when malformed.
  init(request query: String?, maximumBytes: Int, repeats: Repeats = .refused()) throws(FaceError) {
    try self.init(query, maximumBytes: maximumBytes, repeats: repeats, keyNames: APIFamily.keyParameters)
  }
}
