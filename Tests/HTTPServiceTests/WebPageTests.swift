import Foundation
import Testing
import Yams
import _TestSupport

@testable import HTTPService

/// The web page at `/` and its files under `/static/`: served as bundled, with their media
/// types and validators, only by their listed names, and without a key on a keyed server.
@Suite struct WebPageTests {
  static let folder = "\(SampleFiles.packageRoot)/Sources/HTTPService/Resources/web"
  /// The media types a browser needs for each file, written out here rather than read from
  /// the server's table.
  static let expected = [
    "/": ("index.html", "text/html"), "/static/app.js": ("app.js", "text/javascript"),
    "/static/style.css": ("style.css", "text/css"), "/static/icon.svg": ("icon.svg", "image/svg+xml"),
  ]

  @Test func thePageAndEachFileAreServedAsBundledWithTheirMediaType() async throws {
    let client = try await SampleService.server().client
    for (target, (file, mediaType)) in Self.expected {
      let answer = try await client.get(target)
      #expect(answer.status == 200, "\(target): \(answer.body.prefix(200))")
      #expect(answer.mediaType == mediaType, "\(target)")
      #expect(answer.body == (try String(contentsOfFile: "\(Self.folder)/\(file)", encoding: .utf8)), "\(target)")
      #expect(answer.headers["cache-control"] == "no-cache", "\(target)")
      #expect(answer.headers["x-content-type-options"] == "nosniff", "\(target)")
    }
    let page = try await client.get("/")
    #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'self';") == true)
  }

  @Test func theBundledFolderHoldsExactlyTheListedFilesAndTheDocumentNamesThem() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder)
    #expect(Set(files) == Set(WebAsset.mediaTypes.keys))
    #expect(Set(Self.expected.values.map(\.0)) == Set(files))
    let document = try #require(
      try Yams.load(yaml: String(contentsOfFile: OpenAPITests.file, encoding: .utf8)) as? [String: Any])
    let paths = try #require(document["paths"] as? [String: Any])
    let get = try #require((paths[WebPageRoutes.assetPath] as? [String: Any])?["get"] as? [String: Any])
    let parameter = try #require((get["parameters"] as? [[String: Any]])?.first)
    let names = try #require((parameter["schema"] as? [String: Any])?["enum"] as? [String])
    #expect(Set(names) == Set(files).subtracting([WebAsset.pageName]))
  }

  @Test func anUnchangedFileIsAnsweredWith304AndAChangedOneInFull() async throws {
    let client = try await SampleService.server().client
    for target in Self.expected.keys {
      let first = try await client.get(target)
      let etag = try #require(first.headers["etag"], "\(target)")
      #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 2, "\(target): \(etag)")
      func ask(_ tags: String) async throws -> HTTPTestResponse {
        try await client.send(
          Array("GET \(target) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tags)\r\nConnection: close\r\n\r\n".utf8))
      }
      for tags in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
        let again = try await ask(tags)
        #expect(again.status == 304 && again.body.isEmpty, "\(target) \(tags): \(again.status)")
        #expect(again.headers["etag"] == etag, "\(target) \(tags)")
      }
      let changed = try await ask("\"other\"")
      #expect(changed.status == 200 && changed.body == first.body, "\(target)")
    }
    // Each file has its own validator.
    var tags: Set<String> = []
    for target in Self.expected.keys { tags.insert(try await client.get(target).headers["etag"] ?? "") }
    #expect(tags.count == Self.expected.count)
  }

  @Test func unknownNamesAndPathsOutOfTheFolderGet404WithoutReadingAnyFile() async throws {
    let client = try await SampleService.server().client
    let targets = [
      "/static/nope.js", "/static/index.html", "/static/APP.JS", "/static/%61pp.js", "/static/app.js%00",
      "/static/..%2FPackage.swift", "/static/..%2f..%2fPackage.swift", "/static/%2e%2e%2fPackage.swift",
      "/static/..%5CPackage.swift", "/static/../Package.swift", "/static/../../Package.swift", "/static/./app.js",
      "/static/web/app.js", "/static/", "/static", "/static/app.js/", "/index.html", "/static//etc/passwd",
    ]
    for target in targets {
      let answer = try await client.get(target)
      #expect(answer.status == 404, "\(target): \(answer.status) \(answer.body.prefix(200))")
      #expect(answer.mediaType == "application/json", "\(target)")
      #expect(answer.errorMessage != nil, "\(target): \(answer.body.prefix(200))")
      #expect(!answer.body.contains("swift-tools-version") && !answer.body.contains("root:"), "\(target)")
    }
    let unknown = try await client.get("/static/nope.js")
    #expect(
      unknown.errorMessage == "file: 'nope.js' is not one of the page's files (app.js, icon.svg, style.css)",
      "\(unknown.body)")
    let escaped = try await client.get("/static/..%2FPackage.swift")
    #expect(escaped.errorMessage?.hasPrefix("file: '..%2FPackage.swift' is not one of the page's files") == true)
  }

  @Test func aKeyedServerServesThePageWithoutAKeyAndItsAPIWithOne() async throws {
    let keyed = try await KeyedService.server().client
    for target in Self.expected.keys {
      #expect(try await keyed.get(target).status == 200, "\(target)")
    }
    #expect(try await keyed.get("/static/nope.js").status == 404)
    #expect(try await keyed.get("/v1/runs").status == 401)
    #expect(try await keyed.get("/v1/runs?apikey=\(KeyedService.key("alice"))").status == 200)
  }

  @Test func thePageAsksOnlyThisServer() throws {
    let page = try String(contentsOfFile: "\(Self.folder)/index.html", encoding: .utf8)
    // Every src and href of the page names one of its listed files.
    let references =
      page.components(separatedBy: #"src=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
      + page.components(separatedBy: #"href=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(references.count >= 3)
    for reference in references {
      #expect(reference.hasPrefix(WebPageRoutes.assetPrefix), "\(reference)")
      #expect(WebAsset.mediaTypes[String(reference.dropFirst(WebPageRoutes.assetPrefix.count))] != nil, "\(reference)")
    }
    for file in WebAsset.mediaTypes.keys {
      let text = try String(contentsOfFile: "\(Self.folder)/\(file)", encoding: .utf8)
      // The SVG's namespace is a name, not a request.
      let urls = text.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
      #expect(!urls.contains("http://") && !urls.contains("https://") && !urls.contains("//cdn"), "\(file)")
    }
  }
}
