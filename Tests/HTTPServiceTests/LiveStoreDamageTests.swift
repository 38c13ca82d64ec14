import Foundation
import Synchronization
import Testing
import _TestSupport

/// A cube that `nwpcube serve` has mapped, changed in place under load the ways an operator
/// can: `truncate`, a `dd` of 0xFF bytes over its cell tables, and a `cp` over it (open with
/// O_TRUNC, then write). With leases the server survives each one: every request is still
/// answered (by the other run), the cube is withdrawn and counted in `/metrics`, the writer
/// proceeds once the server has let go, and a proper publish brings the run back. Without a
/// lease (a store the server neither owns nor may lease), damaged cell tables are still
/// survived, and a truncation, which cannot be, ends the process at once with one line
/// (docs/reliability.md, "Cubes changed in place").
///
/// Every wait is bounded: a writer held back by a lease is let go by the kernel after
/// /proc/sys/fs/lease-break-time (45 s) whatever the server does, and every poll has a
/// deadline.
@Suite(.serialized) struct LiveStoreDamageTests {
  /// Run A covers the whole day asked about, so that it answers while run B is withdrawn.
  static let older = ("2026-06-20_00:00:00", 48)
  static let newer = ("2026-06-20_06:00:00", 30)
  static let request = "/QuickPrevByDate.php?lat=39.4&lon=-8.1&date=20260620_15"
  /// A bound on every poll, far beyond what each step takes.
  static let deadline = Duration.seconds(60)

  @Test func aServedCubeTruncatedOverwrittenOrCopiedOverIsWithdrawnAndServedAgainOncePublished() async throws {
    let store = try DamageStore("damage-leased")
    defer { SampleFiles.remove(store.root) }
    let served = try await ServeProcess.start(drainSeconds: 0, store: store.root)
    defer { served.kill() }
    let client = served.client
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 2)
    #expect(try await Self.metric(client, "nwpcube_store_unleased_cubes") == 0)
    let load = Load(client: client)

    // truncate(2) to half its size: held back until the server lets go of the cube.
    let truncated = await Self.blocking { truncate(store.newer, off_t(store.pristine.count / 2)) }
    #expect(truncated == 0, "truncate: \(String(cString: strerror(errno)))")
    try await Self.waitFor(client, "nwpcube_store_withdrawn_cubes_total", toBe: 1)
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 1)
    #expect(Self.fileSize(store.newer) == store.pristine.count / 2)
    try store.republish()
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 2)

    // dd conv=notrunc of 0xFF over every cell table.
    let tables = try store.cellTables()
    let overwritten = await Self.blocking { Self.overwrite(store.newer, regions: tables, truncating: false) }
    #expect(overwritten)
    try await Self.waitFor(client, "nwpcube_store_withdrawn_cubes_total", toBe: 2)
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 1)
    try store.republish()
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 2)

    // cp over it: open with O_TRUNC, then write the whole cube again. Once its writer is
    // done the file is a complete cube, verified afresh and served again.
    let copied = await Self.blocking {
      Self.overwrite(store.newer, regions: [(0, [UInt8](store.pristine))], truncating: true)
    }
    #expect(copied)
    try await Self.waitFor(client, "nwpcube_store_withdrawn_cubes_total", toBe: 3)
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 2)

    let (answered, failures) = await load.end()
    #expect(answered > 0)
    #expect(failures.isEmpty, "statuses other than 200: \(failures.prefix(20))")
    #expect(served.process.isRunning)
    #expect(try await client.get(Self.request).status == 200)
  }

  /// Needs root (to give the files away) and util-linux's `setpriv` (to drop CAP_LEASE).
  @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
  func withoutALeaseDamagedTablesAreSurvivedAndATruncationEndsTheServerAtOnce() async throws {
    let store = try DamageStore("damage-unleased")
    defer { SampleFiles.remove(store.root) }
    // The server's usual situation when it runs as a user of its own: the files belong to
    // another user, and it may not lease them (no CAP_LEASE).
    for file in [store.older, store.newer] { try #require(chown(file, 65534, 65534) == 0) }
    // Without the answer cache, which would answer a request asked before from memory
    // instead of reading the damaged mapping.
    let served = try await ServeProcess.start(
      drainSeconds: 0, store: store.root, launcher: ["/usr/bin/setpriv", "--bounding-set=-lease"],
      options: ["--answer-cache", "0"])
    defer { served.kill() }
    let client = served.client
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 2)
    #expect(try await Self.metric(client, "nwpcube_store_unleased_cubes") == 2)

    // Nothing holds the writer back: the first read through a damaged entry withdraws B.
    #expect(Self.overwrite(store.newer, regions: try store.cellTables(), truncating: false))
    for _ in 0..<3 { _ = try await client.get(Self.request) }
    try await Self.waitFor(client, "nwpcube_store_withdrawn_cubes_total", toBe: 1)
    try await Self.waitFor(client, "nwpcube_cubes", toBe: 1)
    #expect(try await client.get(Self.request).status == 200)

    // A truncated mapping cannot be read: the next request ends the process, at once.
    #expect(truncate(store.older, 0) == 0)
    _ = try? await client.get(Self.request)
    // The exit first, within the deadline: the output ends with the process, so reading it
    // for the SIGBUS line cannot wait on a server that goes on running.
    let exited = await Self.poll { !served.process.isRunning }
    #expect(exited, "the server still runs after a read of its truncated mapping")
    guard exited else { return }
    #expect(served.process.terminationReason == .exit && served.process.terminationStatus == 128 + SIGBUS)
    let line = await served.output.first { $0.contains("SIGBUS") }
    #expect(line?.contains("truncated in place without a lease") == true, "\(line ?? "no SIGBUS line")")
  }

  // MARK: - Support

  /// A store of runs A and B, B's bytes kept for republishing.
  struct DamageStore {
    let root: String
    let older: String
    let newer: String
    let pristine: Data

    init(_ label: String) throws {
      root = SampleFiles.temporaryDirectory(label)
      older = try TestStores.publish(
        TestStores.spec(start: LiveStoreDamageTests.older.0, hours: LiveStoreDamageTests.older.1, seed: 1), into: root)
      newer = try TestStores.publish(
        TestStores.spec(start: LiveStoreDamageTests.newer.0, hours: LiveStoreDamageTests.newer.1, seed: 2), into: root)
      pristine = try Data(contentsOf: URL(fileURLWithPath: newer))
    }

    /// Publishes B's original bytes properly: a hidden temporary file renamed over it.
    func republish() throws {
      let temporary = (newer as NSString).deletingLastPathComponent + "/.republish"
      try pristine.write(to: URL(fileURLWithPath: temporary))
      try #require(rename(temporary, newer) == 0, "rename: \(String(cString: strerror(errno)))")
    }

    /// Every cell table in B, as 0xFF bytes at its offset, found from the header as
    /// docs/cube-format.md lays it out: the cell count from width and height (u32 at 24 and
    /// 28), the metric count M (u32 at 36); in version 2 each metric's entry of 96 bytes from
    /// byte 256 with its data offset (u64 at 64 in it); in version 3 the record after the
    /// metric table, with the band cells (u32 at 0), the band count (u32 at 4) and the band
    /// index's offset (u64 at 8), whose 16-byte entries give each band's sub-section of each
    /// metric (u64 offset first). 8 bytes a cell entry.
    func cellTables() throws -> [(offset: Int, bytes: [UInt8])] {
      let bytes = [UInt8](pristine)
      func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
      func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
      let (version, cells, metrics) = (u32(8), u32(24) * u32(28), u32(36))
      try #require(version == 2 || version == 3, "B is version \(version), not 2 or 3")
      guard version == 3 else {
        return (0..<metrics).map { metric in
          (u64(256 + 96 * metric + 64), [UInt8](repeating: 0xFF, count: cells * 8))
        }
      }
      let record = 256 + 96 * metrics
      let (bandCells, bands, index) = (u32(record), u32(record + 4), u64(record + 8))
      return (0..<bands).flatMap { band in
        (0..<metrics).map { metric in
          let cellsInBand = min(bandCells, cells - band * bandCells)
          return (u64(index + 16 * (band * metrics + metric)), [UInt8](repeating: 0xFF, count: cellsInBand * 8))
        }
      }
    }
  }

  /// Requests the forecast in a loop on two connections until ended, and keeps every
  /// status that was not 200 (a failed connection counts as 0).
  final class Load: Sendable {
    private let failures = Mutex<[Int]>([])
    private let answered = Atomic<Int>(0)
    private let stop = Atomic<Bool>(false)
    private let tasks = Mutex<[Task<Void, Never>]>([])

    init(client: HTTPTestClient) {
      let started = (0..<2).map { _ in
        Task.detached { [self] in
          while !stop.load(ordering: .relaxed) {
            let status = (try? await client.get(LiveStoreDamageTests.request).status) ?? 0
            answered.add(1, ordering: .relaxed)
            if status != 200 { failures.withLock { $0.append(status) } }
          }
        }
      }
      tasks.withLock { $0 = started }
    }

    /// Stops the requests and returns how many were answered and the failures.
    func end() async -> (answered: Int, failures: [Int]) {
      stop.store(true, ordering: .relaxed)
      for task in tasks.withLock({ $0 }) { await task.value }
      return (answered.load(ordering: .relaxed), failures.withLock { $0 })
    }
  }

  /// `body` on a thread of its own: a system call a lease holds back must not hold a thread
  /// of the pool the test's requests run on.
  static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { done in
      Thread.detachNewThread { done.resume(returning: body()) }
    }
  }

  /// Writes `regions` into the file at `path` in place, opening it for writing (with
  /// O_TRUNC when `truncating`, as `cp` does); false when any step fails.
  static func overwrite(_ path: String, regions: [(offset: Int, bytes: [UInt8])], truncating: Bool) -> Bool {
    let descriptor = open(path, O_WRONLY | (truncating ? O_TRUNC : 0))
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return regions.allSatisfy { region in
      region.bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(region.offset)) }
        == region.bytes.count
    }
  }

  static func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : -1
  }

  /// The value of an unlabelled metric in `/metrics`, nil when it is not there.
  static func metric(_ client: HTTPTestClient, _ name: String) async throws -> Double? {
    let text = try await client.get("/metrics").body
    let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
    return line.flatMap { Double($0.split(separator: " ").last ?? "") }
  }

  /// Polls until `metric` is `value`; fails the test (naming the last value) when the
  /// deadline passes first.
  static func waitFor(_ client: HTTPTestClient, _ name: String, toBe value: Double) async throws {
    var last: Double?
    let reached = await poll {
      last = try? await metric(client, name)
      return last == value
    }
    try #require(reached, "\(name) stayed \(last.map { "\($0)" } ?? "absent"), not \(value)")
  }

  /// Whether `condition` held within `deadline`, checked every 50 ms.
  static func poll(_ condition: () async -> Bool) async -> Bool {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
      if await condition() { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }
}
