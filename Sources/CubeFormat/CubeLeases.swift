import CCubeLease
import Dispatch
import Platform
import Synchronization

/// Read leases on the cubes a server maps, so that a cube changed in place (an operator's
/// `cp` or `rsync --inplace` over it, a `truncate`, a `dd` into it) is withdrawn before the
/// change reaches the mapping, instead of crashing the server with SIGBUS or sending a read
/// through a damaged cell table.
///
/// Once `start()` has run, every `CubeFile` opened in the process keeps its descriptor and
/// takes a Linux read lease on it. Another process that then opens the file for writing or
/// truncates it is held back by the kernel, and this process is signalled; the handler (C,
/// `CCubeLease`) writes to a pipe, and a thread here marks each cube whose lease is
/// being broken as withdrawn (`CubeFile.withdrawal`). The store's next refresh leaves it out
/// of the catalog; when the last request still reading it lets go, its mapping is unmapped
/// and its descriptor closed, which releases the lease, and only then does the writer's
/// `open` or `truncate` return. See docs/reliability.md, "Cubes changed in place".
///
/// The signal is separate from the one mechanism the server uses for SIGTERM and SIGINT
/// (swift-service-lifecycle's `UnixSignalsSequence`): that one knows named signals only and
/// cannot say which descriptor a signal is about (`si_fd`).
///
/// Off by default: a one-off reader (the command line) maps a cube for less than a second
/// and has no catalog to withdraw it from.
public final class CubeLeases: Sendable {
  /// The process's leases.
  public static let shared = CubeLeases()

  private struct Held: Sendable {
    weak var file: CubeFile?
  }

  private struct State: Sendable {
    var listening = false
    /// Leased files by descriptor.
    var held: [Int32: Held] = [:]
    /// Withdrawals noticed since the process started.
    var broken = 0
  }

  private let state = Mutex(State())

  private init() {}

  /// Whether cubes opened from now on are leased.
  public var isEnabled: Bool { state.withLock { $0.listening } }

  /// How many leased cubes have been withdrawn because another process opened them for
  /// writing or truncated them.
  public var breaks: Int { state.withLock { $0.broken } }

  /// Installs the lease-break handler and starts listening; cubes opened from now on are
  /// leased. Idempotent. Throws where the handler cannot be installed (not Linux, no pipe).
  public func start() throws(CubeError) {
    let descriptor = nwp_lease_listen()
    guard descriptor >= 0 else {
      throw CubeError(path: "-", reason: "cannot listen for lease breaks: \(Errno.current("nwp_lease_listen").text)")
    }
    let started = state.withLock { state in
      defer { state.listening = true }
      return state.listening
    }
    guard !started else { return }
    // A thread of its own, blocked in `read` until a break is signalled: a dispatch read
    // source would do the same with more state to keep.
    DispatchQueue(label: "nwpcube.cube-leases").async { [self] in
      var notices = [Int32](repeating: 0, count: 64)
      while true {
        // `Posix.read` retries an interrupted read; any other failure ends the thread.
        let read = notices.withUnsafeMutableBytes { buffer in
          Result { () throws(Errno) in try Posix.read(descriptor, into: buffer) }
        }
        guard case .success = read else { return }
        withdrawBreaking()
      }
    }
  }

  /// Ends the process at once, with one line on standard error, on SIGBUS: a mapped cube
  /// shrank under a read, which only a cube served without a lease, or whose lease the
  /// kernel broke by timeout, can do. The runtime's backtracer would otherwise take its
  /// time over it (it has hung for minutes), holding the port while the process is useless.
  public static func exitOnBusError() { nwp_exit_on_sigbus() }

  /// Every leased cube whose lease is being broken, withdrawn. Breaks are looked up by
  /// `F_GETLEASE` rather than by the descriptor the signal named: a full pipe can lose a
  /// notice, and a descriptor's number can be reused once its cube is closed.
  private func withdrawBreaking() {
    let breaking = state.withLock { state in
      let files = state.held.compactMap { descriptor, held in
        nwp_lease_is_breaking(descriptor) != 0 ? held.file : nil
      }
      return files.filter { $0.withdrawal == nil }
    }
    for file in breaking { file.withdraw(.leaseBroken) }
    state.withLock { $0.broken += breaking.count }
  }

  /// Takes a lease on `descriptor`, the file at `path` opened read-only: true when taken,
  /// false where this file cannot be leased (this process neither owns it nor has
  /// CAP_LEASE, or its file system has no leases), so that it is served unprotected.
  /// Throws when another process has it open for writing: it is being written, and is not
  /// a cube to serve yet.
  func lease(_ descriptor: Int32, path: String) throws(CubeError) -> Bool {
    guard isEnabled else { return false }
    switch nwp_lease_take(descriptor) {
    case 0: return true
    case Errno.tryAgain, Errno.busy:
      throw CubeError(path: path, reason: Self.beingWritten)
    default: return false
    }
  }

  /// Whether another process has the file at `path` open for writing, as far as a lease
  /// can tell (false where leases are off or cannot be taken on it).
  public func isBeingWritten(_ path: String) -> Bool {
    guard isEnabled else { return false }
    guard let descriptor = try? Posix.open(path, [.readOnly, .closeOnExec]) else { return false }
    defer { Posix.close(descriptor) }
    let outcome = nwp_lease_take(descriptor)
    return outcome == Errno.tryAgain || outcome == Errno.busy
  }

  /// The reason a cube open for writing elsewhere is refused, by `CubeFile` and the store.
  public static let beingWritten = "open for writing by another process: not served until its writer is done"

  func register(_ file: CubeFile, descriptor: Int32) {
    state.withLock { $0.held[descriptor] = Held(file: file) }
    // A break that came while the cube was being verified was signalled before the cube
    // could be found here.
    if nwp_lease_is_breaking(descriptor) != 0 {
      file.withdraw(.leaseBroken)
      state.withLock { $0.broken += 1 }
    }
  }

  func unregister(descriptor: Int32) {
    state.withLock { state in _ = state.held.removeValue(forKey: descriptor) }
  }
}
