import CubeFormat
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live store directory (`STORE/<model>/<domain>/<run>.cube`): the catalog of its runs,
/// kept current without a restart.
///
/// Every access to `catalog` first asks whether the store changed since the last scan, and
/// rescans only when it did. On Linux each scan watches the store's directories (inotify), so
/// asking is one system call however many directories there are, plus one `stat` when the
/// store's path passes through a symbolic link. Where notification is unavailable or could
/// miss a change (other systems, network file systems, symbolic links inside the store,
/// inotify's limits reached) the access compares each directory's `stat` with the scan's
/// instead; see `StoreWatch`. A cube is published by renaming a complete file into place, so
/// a scan sees either the whole cube or none of it; an already open cube stays mapped for as
/// long as any snapshot holds it, so pruning it from disk never tears a read in progress.
public final class ForecastStore: Sendable {
  /// The store's root directory.
  public let path: String
  private let verifyChecksums: Bool
  private let preferredChangeDetection: ChangeDetection
  private let state: Mutex<StoreScan>
  /// Told of every catalog a scan makes, the first one included.
  private let onScan: @Sendable (RunCatalog) -> Void

  /// Scans and opens the store for a one-off reader (the command line): a cube that fails
  /// verification is an error naming it; an empty store is an error.
  public convenience init(path: String, verifyChecksums: Bool = true) throws(QueryError) {
    try self.init(path: path, verifyChecksums: verifyChecksums, changeDetection: .notification)
  }

  /// Scans and opens the store for a long-running reader (a server), which must start and
  /// keep going whatever the store holds: a cube that fails verification is left out and
  /// named in `catalog.problems`, as every later rescan does, and an empty store is allowed
  /// (queries throw `emptyStore` or `noReadableCube` until a readable run is published).
  /// Throws only when `path` is not a directory that can be read, which is a mistake in the
  /// configuration rather than a state of the store.
  ///
  /// `onScan` is called with the first catalog and then with each catalog a rescan makes, on
  /// the thread that asked for it, so that the server can log the problems.
  public convenience init(
    serving path: String, verifyChecksums: Bool = true, onScan: @escaping @Sendable (RunCatalog) -> Void = { _ in }
  ) throws(QueryError) {
    var status = stat()
    guard stat(path, &status) == 0 else { throw .unreadableStore(path, reason: String(cString: strerror(errno))) }
    guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .unreadableStore(path, reason: "not a directory") }
    guard access(path, R_OK | X_OK) == 0 else {
      throw .unreadableStore(path, reason: String(cString: strerror(errno)))
    }
    try self.init(
      path: path, verifyChecksums: verifyChecksums, changeDetection: .notification, strict: false, onScan: onScan)
  }

  /// A store that notices changes by `changeDetection` where it can, and by stamps where it
  /// cannot. A `strict` store refuses an unreadable cube or an empty store at the first scan.
  init(
    path: String, verifyChecksums: Bool, changeDetection: ChangeDetection, strict: Bool = true,
    onScan: @escaping @Sendable (RunCatalog) -> Void = { _ in }
  ) throws(QueryError) {
    self.path = path
    self.verifyChecksums = verifyChecksums
    preferredChangeDetection = changeDetection
    self.onScan = onScan
    let scan = try StoreScan(
      store: path, previous: nil, verifyChecksums: verifyChecksums, strict: strict, changeDetection: changeDetection)
    if strict, scan.catalog.cubes.isEmpty { throw .emptyStore(path) }
    state = Mutex(scan)
    onScan(scan.catalog)
  }

  /// The current catalog: rescanned first if a run was published or removed since the last
  /// scan. After the first scan an unreadable new cube is skipped (and named in
  /// `catalog.problems`) rather than failing queries that other cubes can answer.
  public var catalog: RunCatalog {
    let last = state.withLock { $0 }
    guard last.isStale() else { return last.catalog }
    guard
      let fresh = try? StoreScan(
        store: path, previous: last, verifyChecksums: verifyChecksums, strict: false,
        changeDetection: preferredChangeDetection)
    else { return last.catalog }
    let (catalog, replaced) = state.withLock { current in
      // Two readers may rescan at once; the later scan wins.
      guard fresh.scannedAt >= current.scannedAt else { return (current.catalog, false) }
      current = fresh
      return (fresh.catalog, true)
    }
    if replaced { onScan(catalog) }
    return catalog
  }

  /// How the current scan notices changes.
  var changeDetection: ChangeDetection { state.withLock { $0.changeDetection } }

  /// When the current scan began.
  var scannedAt: Double { state.withLock { $0.scannedAt } }

  /// Every cube of the current catalog, in answering order.
  public var cubes: [Cube] { catalog.cubes }

  /// The cube that answers at a point and time, and where the point falls in it. See
  /// `RunCatalog` for the rule.
  public func select(
    latitude: Double, longitude: Double, time: Int64, method: InterpolationMethod, domain: String? = nil
  ) throws(QueryError) -> (Cube, PointLocation) {
    try catalog.select(latitude: latitude, longitude: longitude, time: time, method: method, domain: domain)
  }
}

/// How a scan notices that the store changed after it.
enum ChangeDetection: Sendable, CaseIterable {
  /// The scan watches the store's directories (`StoreWatch`); a scan that cannot falls back
  /// to `stamps`.
  case notification
  /// The scan keeps each directory's `stat`, and every check compares them again.
  case stamps
}

/// One scan of a store: the catalog, and how to tell that the store changed after it.
struct StoreScan: Sendable {
  let catalog: RunCatalog
  /// Wall-clock seconds when the scan began.
  let scannedAt: Double
  private let changes: Changes

  private enum Changes: Sendable {
    case watch(StoreWatch)
    /// The root, model and domain directories and their stamps at scan time.
    case stamps(directories: [String], stamps: [FileIdentity?])
  }

  /// Directory timestamps are taken from a coarse clock (a few milliseconds, a second on
  /// some network file systems), so a change in the same tick as a scan can leave the
  /// stamp unchanged. Directories modified this recently are therefore rescanned anyway.
  static let timestampGranularity = 1.0

  init(
    store: String, previous: StoreScan?, verifyChecksums: Bool, strict: Bool, changeDetection: ChangeDetection
  ) throws(QueryError) {
    scannedAt = Date().timeIntervalSince1970
    var watch = changeDetection == .notification ? StoreWatch(root: store) : nil
    // Each directory is watched before it is listed, so that a change made meanwhile is
    // either in the listing or queued.
    let listing = StoreListing(store: store) { directory in
      if watch?.add(directory) == false { watch = nil }
    }
    if let watch {
      changes = .watch(watch)
    } else {
      // A change between listing and stamping is dated after `scannedAt`, so `isStale` still
      // sees it.
      changes = .stamps(directories: listing.directories, stamps: listing.directories.map(FileIdentity.init(path:)))
    }

    let reusable = Dictionary(
      (previous?.catalog.cubes ?? []).map { ($0.file.path, $0) }, uniquingKeysWith: { first, _ in first })
    var cubes: [Cube] = []
    var problems: [String] = []
    for file in listing.cubes.flatMap(\.files) {
      guard let identity = FileIdentity(path: file) else { continue }  // pruned meanwhile
      if let cube = reusable[file], cube.file.identity == identity {
        cubes.append(cube)
        continue
      }
      do {
        cubes.append(try Cube(path: file, verifyChecksums: verifyChecksums))
      } catch {
        guard FileIdentity(path: file) != nil else { continue }  // pruned while opening
        if strict { throw error }
        problems.append(error.description)
      }
    }
    catalog = RunCatalog(store: store, cubes: cubes, problems: problems)
  }

  /// How this scan notices changes.
  var changeDetection: ChangeDetection {
    switch changes {
    case .watch: .notification
    case .stamps: .stamps
    }
  }

  /// Whether the store may have changed since this scan.
  func isStale() -> Bool {
    switch changes {
    case .watch(let watch):
      return watch.hasChanged()
    case .stamps(let directories, let stamps):
      let now = directories.map(FileIdentity.init(path:))
      guard now == stamps else { return true }
      let newest = now.compactMap { $0?.modified }.max() ?? 0
      return newest > scannedAt - Self.timestampGranularity
    }
  }
}

/// What a store directory holds: its model and domain directories and the cubes in each.
struct StoreListing {
  /// The root, then every model and domain directory.
  let directories: [String]
  /// The cube files of each `model/domain`, sorted by name (and so by run).
  let cubes: [(name: String, files: [String])]

  /// Lists `store`, calling `willList` with each model and domain directory just before
  /// listing it.
  init(store: String, willList: (String) -> Void = { _ in }) {
    var directories = [store]
    var cubes: [(String, [String])] = []
    for model in Self.children(store) {
      let modelDirectory = "\(store)/\(model)"
      directories.append(modelDirectory)
      willList(modelDirectory)
      for domain in Self.children(modelDirectory) {
        let domainDirectory = "\(modelDirectory)/\(domain)"
        directories.append(domainDirectory)
        willList(domainDirectory)
        let files = Self.children(domainDirectory).filter { $0.hasSuffix(".cube") }
        cubes.append(("\(model)/\(domain)", files.map { "\(domainDirectory)/\($0)" }))
      }
    }
    self.directories = directories
    self.cubes = cubes
  }

  /// The entries of a directory that can be models, domains or cubes: not hidden (a cube
  /// still being written is a hidden temporary file), sorted.
  static func children(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }
}
