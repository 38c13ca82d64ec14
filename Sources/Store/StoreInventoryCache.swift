import CubeFormat
import Synchronization

/// `StoreInventory.runs(in:)` for a service that lists its store on request (`/v1/runs`): a
/// cube's header is read again only when its file has changed (its identity: device, inode,
/// size and modification time), so that a listing costs a walk of the directories and a
/// `stat` per cube rather than opening every cube. The answer is the one
/// `StoreInventory.runs(in:)` gives at the same moment.
public final class StoreInventoryCache: Sendable {
  /// The runs read, by path, with the identity of the file they were read from.
  private let kept = Mutex<[String: (identity: FileIdentity, run: StoredRun)]>([:])

  /// An empty cache.
  public init() {}

  /// Every cube of `store`, by model/domain and then newest run first.
  public func runs(in store: String) -> [StoredRun] {
    let before = kept.withLock { $0 }
    var after: [String: (identity: FileIdentity, run: StoredRun)] = [:]
    let runs = StoreInventory.runs(in: store) { path, name in
      guard let identity = FileIdentity(path: path) else { return StoreInventory.read(path, name: name) }
      if let known = before[path], known.identity == identity {
        after[path] = known
        return known.run
      }
      let run = StoreInventory.read(path, name: name)
      // A file that could not be read is read again next time: its problem may pass.
      if run.header != nil { after[path] = (identity, run) }
      return run
    }
    // Only the files listed now are kept, so that pruned runs do not accumulate.
    kept.withLock { $0 = after }
    return runs
  }
}
