/// Which of a cube's checksums opening it verifies.
public enum ChecksumScope: Sendable, Equatable {
  /// Every checksum: header, geometry, terrain and every data block.
  case all
  /// The header's alone (always verified): for callers that trust the file, or verify later.
  case headerOnly
  /// The header, geometry and terrain, and the data blocks of the named metrics only. A
  /// reader that needs a few blocks of a large cube (the command line's time-lagged
  /// members read one) need not hash the others. `Cube` opened so answers no metric from
  /// a block that was not hashed.
  case blocks(Set<String>)

  /// Whether the geometry and terrain sections are hashed.
  public var coversSections: Bool { self != .headerOnly }

  /// Whether the data block of the metric `name` is hashed.
  public func covers(block name: String) -> Bool {
    switch self {
    case .all: true
    case .headerOnly: false
    case .blocks(let names): names.contains(name)
    }
  }
}
