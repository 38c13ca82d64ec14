/// The API keys a server requires (`nwpcube serve --keys FILE`), read and checked when the
/// settings are made, so that a bad file stops the server before it listens.
public struct APIKeySettings: Sendable {
  /// The keys file as read at start-up; SIGHUP reads it again.
  let file: APIKeyFile
  /// Whether the legacy app's endpoints are answered without a key (the app sends none).
  public var exemptLegacy: Bool

  /// The path of the keys file.
  public var path: String { file.path }
  /// How many keys the file holds.
  public var count: Int { file.keys.count }

  /// Reads the keys file at `path` (docs/keys.md).
  /// - Throws: `KeyFileError` naming the file, the line and why.
  public init(file path: String, exemptLegacy: Bool = false) throws(KeyFileError) {
    self.file = try APIKeyFile(path: path)
    self.exemptLegacy = exemptLegacy
  }
}
