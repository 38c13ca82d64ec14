import CubeFormat
import Foundation
import PointQuery

/// One scan of a store: the catalog, and how to tell that the store changed after it.
struct StoreScan: Sendable {
  let catalog: RunCatalog
  /// Wall-clock seconds when the scan began.
  let scannedAt: Double
  /// Cubes this scan opened (and verified, when it checks checksums): the new ones only,
  /// since a cube already open in the previous scan is reused.
  let opened: Int
  /// Cubes this scan found unreadable for the first time.
  let newlyRejected: Int
  /// Cubes of the previous catalog this scan left out because their files changed in place
  /// while they were served (`CubeFile.withdrawal`, or the same file with another size or
  /// modification time).
  let withdrawn: Int
  /// Whether a cube file was open for writing elsewhere: it is looked at again at every
  /// check rather than remembered as rejected, since its writer may finish without
  /// changing anything a change detector sees (or a refused `truncate` change nothing).
  private let waitsForWriter: Bool
  /// The cubes left out, by path, with the file they were: a file that failed once is not
  /// opened again until it changes, so a bad cube costs one verification and one log line,
  /// not one per rescan.
  private let rejected: [String: Rejection]
  private let changes: Changes

  private struct Rejection: Sendable {
    let identity: FileIdentity
    let problem: String
  }

  private enum Changes: Sendable {
    /// A scan that is never stale: the cubes chosen for one question (`PointQuestion`).
    case none
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
    var rejected: [String: Rejection] = [:]
    var (opened, newlyRejected, withdrawn, waitsForWriter) = (0, 0, 0, false)
    for file in listing.cubes.flatMap(\.files) {
      guard let identity = FileIdentity(path: file) else { continue }  // pruned meanwhile
      if let cube = reusable[file] {
        let served = cube.file.identity
        if served == identity, cube.file.withdrawal == nil {
          cubes.append(cube)
          continue
        }
        // The same file with another size or time was written to in place (a cube not
        // leased, or a lease broken); a new file under the name is a publish.
        let inPlace = served.device == identity.device && served.inode == identity.inode
        if let reason = cube.file.withdrawal?.description ?? (inPlace ? "it was changed in place while served" : nil) {
          // Dropped from the catalog, so that it is unmapped (and its lease released) once
          // the last request reading it ends; the file is opened afresh below.
          withdrawn += 1
          let problem = "\(file): withdrawn: \(reason); served again once a complete cube is published under its name"
          problems.append(problem)
          // A damaged file would open again (opening reads only its header and record):
          // it is remembered as rejected until it changes, as a file that failed to open is.
          if cube.file.withdrawal == .damaged, served == identity {
            rejected[file] = Rejection(identity: identity, problem: problem)
            continue
          }
        }
      }
      if let known = previous?.rejected[file], known.identity == identity {
        rejected[file] = known
        problems.append(known.problem)
        continue
      }
      if CubeLeases.shared.isBeingWritten(file) {
        waitsForWriter = true
        problems.append("\(file): \(CubeLeases.beingWritten)")
        continue
      }
      opened += 1
      do {
        // Runs of a domain share their grid: a new run takes the locator of one already open.
        cubes.append(
          try Cube(
            path: file, verifyingOnTouch: verifyChecksums ? .all : .headerOnly,
            sharingGridWith: cubes + (previous?.catalog.cubes ?? [])))
      } catch {
        guard FileIdentity(path: file) != nil else { continue }  // pruned while opening
        if strict { throw error }
        newlyRejected += 1
        rejected[file] = Rejection(identity: identity, problem: error.description)
        problems.append(error.description)
      }
    }
    catalog = RunCatalog(store: store, cubes: cubes, problems: problems)
    self.rejected = rejected
    self.opened = opened
    self.newlyRejected = newlyRejected
    self.withdrawn = withdrawn
    self.waitsForWriter = waitsForWriter
  }

  /// A scan of the cubes `cubes` only, already opened by the caller, that never sees a
  /// change: the store of a one-off question.
  init(store: String, cubes: [Cube], opened: Int) {
    scannedAt = Date().timeIntervalSince1970
    catalog = RunCatalog(store: store, cubes: cubes)
    self.opened = opened
    newlyRejected = 0
    withdrawn = 0
    waitsForWriter = false
    rejected = [:]
    changes = .none
  }

  /// How this scan notices changes (a scan that never looks counts as comparing stamps).
  var changeDetection: ChangeDetection {
    switch changes {
    case .watch: .notification
    case .stamps, .none: .stamps
    }
  }

  /// Whether the store may have changed since this scan, or one of its cubes was withdrawn
  /// (one atomic load per cube), or it waits for a writer.
  func isStale() -> Bool {
    if waitsForWriter || catalog.cubes.contains(where: { $0.file.withdrawal != nil }) { return true }
    switch changes {
    case .none:
      return false
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
