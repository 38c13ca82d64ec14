import CubeFormat
import PointQuery
import UTCTime

/// One cube file of a store as its header describes it, read without hashing the data
/// (listing a store of many large runs stays fast; queries verify when they open a cube).
public struct StoredRun: Sendable {
  /// The cube's path.
  public let path: String
  /// `model/domain`, from the directories.
  public let name: String
  /// The cube's header, or nil when the file is not a readable cube.
  public let header: CubeHeader?
  /// The size of the file in bytes.
  public let bytes: Int
  /// Why the file is not a readable cube.
  public let problem: String?

  /// The run, `yyyyMMddHH`, or the file name of an unreadable file.
  public var run: String {
    header.map { UTC.runIdentifier($0.runStart) } ?? String(path.split(separator: "/").last ?? "")
  }
}

/// The cubes of a store, listed.
public enum StoreInventory {
  /// Every cube of the store, by model/domain and then newest run first.
  public static func runs(in store: String) -> [StoredRun] {
    runs(in: store, reading: read)
  }

  /// Every cube of the store, each described by `reading(path, name)`.
  static func runs(in store: String, reading: (_ path: String, _ name: String) -> StoredRun) -> [StoredRun] {
    var runs: [StoredRun] = []
    for (name, files) in StoreListing(store: store).cubes {
      let domainRuns = files.map { reading($0, name) }
      runs += domainRuns.sorted { ($0.header?.runStart ?? .min) > ($1.header?.runStart ?? .min) }
    }
    return runs
  }

  static func read(_ path: String, name: String) -> StoredRun {
    do {
      let file = try CubeFile(path: path, verifyChecksums: false)
      return StoredRun(path: path, name: name, header: file.header, bytes: file.fileBytes, problem: nil)
    } catch {
      let bytes = FileIdentity(path: path).map { Int($0.size) } ?? 0
      return StoredRun(path: path, name: name, header: nil, bytes: bytes, problem: error.description)
    }
  }
}
