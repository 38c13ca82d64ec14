import Foundation
import HTTPService
import _TestSupport

/// Servers over the sample store that require API keys, each with a keys file of its own.
enum KeyedService {
  /// Keys of the shared keys file, by name; each 40 characters, so a wrong one of the same
  /// length differs only in its content.
  static let keys = [
    "alice": "alice-0123456789abcdefghijklmnopqrstuvwx", "bob": "bob.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  ]
  /// A key of the right form in no file: alice's with its last character changed.
  static let wrongKey = "alice-0123456789abcdefghijklmnopqrstuvwy"

  static func key(_ name: String) -> String { keys[name] ?? "" }

  /// A keys file holding `text`, in a directory of its own.
  static func file(_ text: String) throws -> String {
    let path = SampleFiles.temporaryDirectory("keys") + "/keys.txt"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The shared keys file's text: alice without a limit, bob without a name.
  static var text: String {
    """
    # test keys
    \(key("alice"))  name=alice
    \(key("bob"))
    """
  }

  /// A server over the sample store requiring the keys in `text`.
  static func start(_ text: String = KeyedService.text, exemptLegacy: Bool = false) async throws -> LiveServer {
    var settings = SampleService.settings
    settings.keys = try APIKeySettings(file: try file(text), exemptLegacy: exemptLegacy)
    return try await LiveServer.start(settings)
  }

  private static let shared = Task { try await start() }
  private static let sharedExempt = Task { try await start(exemptLegacy: true) }

  /// The shared server requiring the keys of `text`, left running until the process ends.
  static func server(exemptLegacy: Bool = false) async throws -> LiveServer {
    try await (exemptLegacy ? sharedExempt : shared).value
  }

  /// `target` with `apikey=key` (or another `parameter`, OpenWeatherMap's `appid`) added to
  /// its query.
  static func target(_ target: String, key: String, parameter: String = "apikey") -> String {
    target + (target.contains("?") ? "&" : "?") + parameter + "=" + key
  }
}
