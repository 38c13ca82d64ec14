import FaceKit
import Foundation
import HTTPTypes
import Hummingbird

/// The web page: `/` and its files under `/static/`, bundled with the service so that it
/// works on a network without access to anything else.
///
/// Every answer carries an `ETag` and `Cache-Control: no-cache`: the files are not
/// versioned in their names, so a browser must ask again after an upgrade, and a 304 makes
/// asking cheap.
struct WebPageRoutes: Sendable {
  static let pagePath = "/"
  static let assetPath = "/static/{file}"
  static let assetPrefix = "/static/"
  /// Only this server's own files, scripts and pictures: the page never asks anyone else.
  static let contentSecurityPolicy =
    "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"

  /// The page's files by name; nil when they are not installed beside the binary.
  let assets: [String: WebAsset]?

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.pagePath)) { request, _ in try respond(WebAsset.pageName, to: request) }
    router.get(RouterPath(Self.assetPath)) { request, _ in
      // The segment as sent, not decoded: only a listed name matches, so an escaped slash
      // or dot names nothing.
      let name = String(request.uri.path.dropFirst(Self.assetPrefix.count))
      guard name != WebAsset.pageName, WebAsset.mediaTypes[name] != nil else {
        let names = WebAsset.mediaTypes.keys.filter { $0 != WebAsset.pageName }.sorted()
        throw FaceError(
          .notFound,
          "file: \(QueryParameters.quoted(name)) is not one of the page's files (\(names.joined(separator: ", ")))")
      }
      return try respond(name, to: request)
    }
  }

  func respond(_ name: String, to request: Request) throws -> Response {
    guard let asset = assets?[name] else {
      throw FaceError(.notFound, "the web page is not installed beside this nwpcube binary")
    }
    var headers: HTTPFields = [
      .eTag: asset.etag, .cacheControl: "no-cache", .contentType: asset.contentType,
      .xContentTypeOptions: "nosniff",
    ]
    if name == WebAsset.pageName { headers[.contentSecurityPolicy] = Self.contentSecurityPolicy }
    if Responses.isNotModified(request, etag: asset.etag) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
  }
}
