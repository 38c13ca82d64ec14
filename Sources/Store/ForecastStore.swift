import CubeFormat
import Foundation
import Platform
import PointQuery
import Synchronization

/// A live store directory (`STORE/<model>/<domain>/<run>.cube`): the catalog of its runs,
/// kept current without a restart.
///
/// Readers only load the current catalog (`catalog`): a lock held for a copy, and no system
/// call, file access or hashing. New runs come in through `refresh()`, which asks whether the
/// store changed since the last scan and rescans only when it did: it opens and verifies each
/// new cube once, reuses the cubes already open, and swaps in a new catalog. A server calls
/// it from a service of its own (the HTTP service's `StoreRefreshService`), off the request
/// path; a library user without a service calls it when it wants new runs.
///
/// On Linux each scan watches the store's directories (inotify), so asking is one system call
/// however many directories there are, plus one `stat` when the store's path passes through a
/// symbolic link. Where notification is unavailable or could miss a change (other systems,
/// network file systems, symbolic links inside the store, inotify's limits reached) asking
/// compares each directory's `stat` with the scan's instead; see `StoreWatch`. A cube is
/// published by renaming a complete file into place, so a scan sees either the whole cube or
/// none of it; an already open cube stays mapped for as long as any catalog holds it, so
/// pruning it from disk never tears a read in progress.
public final class ForecastStore: Sendable {
  /// The store's root directory.
  public let path: String
  private let verifyChecksums: Bool
  private let preferredChangeDetection: ChangeDetection
  /// The last scan. Only `refresh` takes this lock, and holds it for a whole rescan, so that
  /// two refreshes never open the same new cube twice; readers never wait for it.
  private let scan: Mutex<StoreScan>
  /// What readers load.
  private let current: Mutex<RunCatalog>
  /// Told of every catalog a scan makes, the first one included.
  private let onScan: @Sendable (RunCatalog) -> Void
  private let opened = Atomic<Int>(0)
  private let rejected = Atomic<Int>(0)
  private let withdrawn = Atomic<Int>(0)

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
  /// the thread that refreshed, so that the server can log the problems.
  public convenience init(
    serving path: String, verifyChecksums: Bool = true, onScan: @escaping @Sendable (RunCatalog) -> Void = { _ in }
  ) throws(QueryError) {
    let status: FileStatus
    do {
      status = try Posix.stat(path)
    } catch {
      throw .unreadableStore(path, reason: error.text)
    }
    guard status.kind == .directory else { throw .unreadableStore(path, reason: "not a directory") }
    do {
      try Posix.access(path, readable: true, searchable: true)
    } catch {
      throw .unreadableStore(path, reason: error.text)
    }
    try self.init(
      path: path, verifyChecksums: verifyChecksums, changeDetection: .notification, strict: false, onScan: onScan)
  }

  /// Opens, for a one-off reader (the command line), only the cubes of the store that can
  /// answer `question` (see `PointQuestion.cubes(in:)`), found from the store's layout and the
  /// cubes' headers: the others are neither opened nor verified, so the time taken depends on
  /// the runs covering the question's times, not on how many runs the store keeps. Its
  /// catalog answers the question as the whole store's would, and never changes. Where the
  /// question is better left to the whole store (an unreadable cube, nothing containing the
  /// point at those times) this is `init(path:)`, with its errors. A caller that gets an
  /// error from this catalog should ask `init(path:)` again for the whole store's wording of
  /// it (`timeNotCovered` lists every run containing the point).
  public convenience init(path: String, answering question: PointQuestion) throws(QueryError) {
    guard let (cubes, opened) = question.cubes(in: path) else {
      try self.init(path: path)
      return
    }
    self.init(
      path: path, scan: StoreScan(store: path, cubes: cubes, opened: opened), verifyChecksums: true,
      changeDetection: .stamps)
  }

  /// A store that notices changes by `changeDetection` where it can, and by stamps where it
  /// cannot. A `strict` store refuses an unreadable cube or an empty store at the first scan.
  convenience init(
    path: String, verifyChecksums: Bool, changeDetection: ChangeDetection, strict: Bool = true,
    onScan: @escaping @Sendable (RunCatalog) -> Void = { _ in }
  ) throws(QueryError) {
    let scan = try StoreScan(
      store: path, previous: nil, verifyChecksums: verifyChecksums, strict: strict, changeDetection: changeDetection)
    if strict, scan.catalog.cubes.isEmpty { throw .emptyStore(path) }
    self.init(
      path: path, scan: scan, verifyChecksums: verifyChecksums, changeDetection: changeDetection, onScan: onScan)
  }

  /// A store over a scan already made.
  init(
    path: String, scan: StoreScan, verifyChecksums: Bool, changeDetection: ChangeDetection,
    onScan: @escaping @Sendable (RunCatalog) -> Void = { _ in }
  ) {
    self.path = path
    self.verifyChecksums = verifyChecksums
    preferredChangeDetection = changeDetection
    self.onScan = onScan
    self.scan = Mutex(scan)
    current = Mutex(scan.catalog)
    opened.store(scan.opened, ordering: .relaxed)
    rejected.store(scan.newlyRejected, ordering: .relaxed)
    onScan(scan.catalog)
  }

  /// The current catalog: the one the last scan made. No I/O: a reader never waits for a
  /// scan, and sees a new run once a `refresh()` that found it has returned.
  public var catalog: RunCatalog {
    #if DEBUG
      catalogLoads.add(1, ordering: .relaxed)
    #endif
    return current.withLock { $0 }
  }

  #if DEBUG
    /// How many times `catalog` was read. Counted in debug builds only, where the tests run:
    /// they prove that a request takes one catalog for its whole answer.
    private let catalogLoads = Atomic<Int>(0)

    /// How many times `catalog` was read (debug builds only).
    public var catalogLoadsCounted: Int { catalogLoads.load(ordering: .relaxed) }
  #endif

  /// Rescans the store if a run was published or removed since the last scan, and returns
  /// the catalog then current. Every reader that loads `catalog` after this returns sees the
  /// runs that were in place when it began. Cubes already open are reused, not verified
  /// again; each new cube is opened and verified once; an unreadable new cube is skipped
  /// (and named in `catalog.problems`) rather than failing queries that other cubes can
  /// answer, and is not opened again until its file changes.
  @discardableResult
  public func refresh() -> RunCatalog {
    scan.withLock { last in
      guard last.isStale() else { return current.withLock { $0 } }
      // A serving rescan does not throw: an unreadable cube is a problem, not an error.
      guard
        let fresh = try? StoreScan(
          store: path, previous: last, verifyChecksums: verifyChecksums, strict: false,
          changeDetection: preferredChangeDetection)
      else { return current.withLock { $0 } }
      last = fresh
      opened.add(fresh.opened, ordering: .relaxed)
      rejected.add(fresh.newlyRejected, ordering: .relaxed)
      withdrawn.add(fresh.withdrawn, ordering: .relaxed)
      current.withLock { $0 = fresh.catalog }
      // Inside the lock, so that observers see the catalogs in the order they were made.
      onScan(fresh.catalog)
      return fresh.catalog
    }
  }

  /// How often a service should call `refresh()`: asking costs one system call when the
  /// store is watched by notification, so often (a new run is then served about this long
  /// after its rename, plus the time to verify it); a `stat` per directory otherwise, so
  /// less often.
  public var checkInterval: Duration {
    changeDetection == .notification ? Self.notificationInterval : Self.stampInterval
  }

  /// `checkInterval` with notification.
  public static let notificationInterval = Duration.milliseconds(100)
  /// `checkInterval` comparing stamps.
  public static let stampInterval = Duration.seconds(2)

  /// Cubes the store's scans have opened since it was made, each verified when checksums
  /// are checked: every new cube once.
  public var cubesOpened: Int { opened.load(ordering: .relaxed) }

  /// Cubes the store's scans found unreadable since it was made, each file once.
  public var cubesRejected: Int { rejected.load(ordering: .relaxed) }

  /// Cubes the store's scans left out because their files changed in place while they were
  /// served (`CubeFile.withdrawal`), each time it happened.
  public var cubesWithdrawn: Int { withdrawn.load(ordering: .relaxed) }

  /// How the current scan notices changes.
  var changeDetection: ChangeDetection { scan.withLock { $0.changeDetection } }

  /// When the current scan began.
  var scannedAt: Double { scan.withLock { $0.scannedAt } }

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
