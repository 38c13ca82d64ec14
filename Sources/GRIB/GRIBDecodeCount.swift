import Synchronization

/// How often each message of a file was decoded: whole by ecCodes, and point by point by
/// `GRIBSimplePacking`. Counted in debug builds only, where the tests run: they prove that
/// an ingest written in several bands decodes no message again for each band. A release
/// build records nothing.
public struct GRIBDecodeCount: Sendable, Equatable {
  /// Whole decodes by ecCodes (`codes_get_double_array` of `values`).
  public var whole = 0
  /// Points decoded by ranges, counted once per point per decode.
  public var points = 0

  /// No decode.
  public init() {}

  #if DEBUG
    /// The counts by file path and message number. Tests give every run a path of its own.
    private static let counts = Mutex<[String: [Int: GRIBDecodeCount]]>([:])

    /// The counts of the messages of the file at `path` (debug builds only).
    public static func counted(path: String) -> [Int: GRIBDecodeCount] {
      counts.withLock { $0[path] ?? [:] }
    }
  #endif

  /// Adds a decode of `message` of the file at `path`; nothing in a release build.
  @inline(__always)
  static func record(path: String, message: Int, whole: Int = 0, points: Int = 0) {
    #if DEBUG
      counts.withLock { counts in
        counts[path, default: [:]][message, default: GRIBDecodeCount()].whole += whole
        counts[path, default: [:]][message, default: GRIBDecodeCount()].points += points
      }
    #endif
  }
}
