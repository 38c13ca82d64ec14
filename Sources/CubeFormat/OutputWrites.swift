import Dispatch
import Platform
import Synchronization

/// The writes of one `CubeOutput`, made in order on a thread of their own, so that the
/// thread packing a band does not wait for the device: a direct write (`O_DIRECT`) returns
/// only once the device has the bytes, and a global ingest's packing thread spent a fifth
/// of its time waiting so (0.37 s of 1.7 s), time the last band's pack, which nothing else
/// overlaps, added to the ingest.
///
/// The output hands over one staging buffer while it fills the other, and waits for the
/// write of a buffer before it fills that buffer again (`finish()`), so at most one write
/// is in flight and every byte is written in the order staged.
final class OutputWrites: Sendable {
  private struct State {
    /// Whether aligned writes still go past the page cache: until the first refusal.
    var writesDirect = true
    /// The first error, as text; later writes do nothing.
    var failure: String?
  }

  private let descriptor: Int32
  private let queue = DispatchQueue(label: "nwpcube.cube-output")
  private let pending = DispatchGroup()
  /// Reached by the writing thread while a write is in flight, and by the output's once it
  /// has waited for it.
  private let state = Mutex(State())
  private static let pageBytes = Posix.pageSize

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// Starts writing `bytes` at file offset `offset`; the caller leaves the bytes alone until
  /// `finish()` returns. Nothing is written after a failure.
  func start(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
    nonisolated(unsafe) let bytes = bytes
    queue.async(group: pending) { self.write(bytes, at: offset) }
  }

  /// Waits for the write in flight, if any; returns the first failure, nil when none.
  @discardableResult
  func finish() -> String? {
    pending.wait()
    return state.withLock { $0.failure }
  }

  /// Writes `bytes` at `offset` past the page cache when the file system allows it and the
  /// write is aligned for it (the staging always is; the offset and count are, but for the
  /// part of the page the header shares and the last write), and through the page cache
  /// otherwise, starting its writeback there.
  private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
    guard state.withLock({ $0.failure == nil }) else { return }
    let direct = writeDirect(bytes, at: offset)
    guard direct < bytes.count else { return }
    let failure = CubeOutput.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[direct...]), at: offset + direct)
    if let failure {
      state.withLock { $0.failure = failure }
      return
    }
    // Not the part of the page the header shares: the header dirties that page again at the
    // end, and a page written back in between would count (and be written) twice.
    if (offset + direct) % Self.pageBytes == 0 {
      startWriteback(from: offset + direct, count: bytes.count - direct)
    }
  }

  /// Writes `bytes` straight to the device when it can; returns the bytes so written, which
  /// the caller writes through the page cache when fewer than all. A refusal turns direct
  /// writes off for good: a file system that refuses one refuses them all.
  private func writeDirect(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    let alignment = Posix.directAlignment
    guard state.withLock({ $0.writesDirect }), offset % alignment == 0, bytes.count % alignment == 0, !bytes.isEmpty
    else { return 0 }
    let written = (try? Posix.pwriteDirect(descriptor, bytes, at: offset)) ?? 0
    // A refusal ends direct writes, and so does a short write, whose rest may not be aligned.
    if written != bytes.count { state.withLock { $0.writesDirect = false } }
    return written
  }

  /// Has the device start writing the `count` bytes just written at `offset`, without
  /// waiting: the final `fsync` then finds little left to write, where it found the whole
  /// cube (hundreds of MB) dirty and the process waited for all of it. Durability is still
  /// the `fsync`'s alone. A refusal costs nothing but the overlap: the `fsync` writes what
  /// is left, and reports any error of the device.
  private func startWriteback(from offset: Int, count: Int) {
    Posix.startWriteback(descriptor, from: offset, count: count)
  }
}
