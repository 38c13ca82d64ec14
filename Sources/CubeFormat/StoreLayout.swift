/// Where cubes live in a store: `STORE/<model>/<domain>/<run>.cube`, run as `yyyyMMddHH`.
public enum StoreLayout {
  /// The path of a cube in a store.
  public static func path(store: String, model: String, domain: String, run: String) -> String {
    "\(store)/\(model)/\(domain)/\(run).cube"
  }

  /// Whether `name` can be a model or domain directory: letters, digits, `_`, `-` and `.`,
  /// not starting with a dot, at most 15 bytes (domain) or 31 (model).
  public static func isValidComponent(_ name: String, maxBytes: Int) -> Bool {
    !name.isEmpty && name.utf8.count <= maxBytes && !name.hasPrefix(".")
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
  }
}
