import FNV
import Foundation

/// One file of the web page at `/`: its bytes as bundled, its media type and the validator
/// clients revalidate with.
///
/// The page's files are a fixed list: a request names one of them or gets a 404, so no
/// path a client sends ever reaches the file system.
struct WebAsset: Sendable {
  /// The page, served at `/` rather than under `/static/`.
  static let pageName = "index.html"

  /// Every file of the page and its media type; the bundle's `web` folder holds exactly
  /// these (WebPageTests checks it).
  static let mediaTypes: [String: String] = [
    pageName: "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
  ]

  let contentType: String
  let bytes: [UInt8]
  /// A strong validator of the bytes (RFC 9110 §8.8.3): FNV-1a over them, as quoted hex.
  let etag: String

  init(bytes: [UInt8], contentType: String) {
    self.bytes = bytes
    self.contentType = contentType
    self.etag = "\"" + String(FNV1a(bytes).value, radix: 16) + "\""
  }

  /// The page's files from `directory`; nil when any is missing, so that the page is
  /// served whole or not at all.
  static func load(from directory: URL) -> [String: WebAsset]? {
    var assets: [String: WebAsset] = [:]
    for (name, contentType) in mediaTypes {
      guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return nil }
      assets[name] = WebAsset(bytes: Array(data), contentType: contentType)
    }
    return assets
  }
}
