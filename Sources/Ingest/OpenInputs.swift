import NetCDF
import Synchronization

/// The input files an ingest has opened, kept open from the scan to the last read.
///
/// Opening a file reads all its metadata (every variable and attribute by name), which
/// was about a seventh of an ingest's time when the scan and the field reader each opened
/// every file. Up to `capacity` files stay open, so that a run of thousands of files does
/// not run out of descriptors; the others are opened again when read, as before. A file
/// closes when the last plan reading it is done (`NCFile` closes on release).
///
/// Steps are derived several at a time (`CubePublisher`), so the files are handed out
/// under a lock, and a file beyond the room is released rather than closed when the next
/// one takes its place: a step still reading it keeps it open until it is done.
final class OpenInputs: Sendable {
  private struct State {
    /// Open files by path.
    var files: [String: NCFile] = [:]
    /// The file read last when it did not fit: consecutive steps come from one file, so
    /// it stays open until another is read.
    var overflow: NCFile?
  }
  private let state = Mutex(State())
  /// Well under the usual limit of 1,024 descriptors even at two a file (libnetcdf's, and
  /// a classic file's own for its reads: `NCFile.classicReads`), leaving room for the cube
  /// and the store's other files.
  let capacity: Int

  init(capacity: Int = 256) {
    self.capacity = capacity
  }

  /// Keeps `file` open for later reads, if there is room.
  func keep(_ file: NCFile) {
    let kept = state.withLock { state in
      guard state.files.count < capacity || state.files[file.path] != nil else { return false }
      state.files[file.path] = file
      return true
    }
    if !kept { file.close() }
  }

  /// The open file at `path`, opening it (and keeping it, if there is room) when needed.
  func file(_ path: String) throws(IngestError) -> NCFile {
    let found = state.withLock { state in
      state.files[path] ?? (state.overflow?.path == path ? state.overflow : nil)
    }
    if let found { return found }
    // Opened outside the lock: reading a file's metadata takes a while. Two steps that
    // open the same file at once each get a handle; the first kept is the one kept.
    let opened = try NCFile.openForIngest(path)
    return state.withLock { state in
      if let kept = state.files[path] { return kept }
      if state.files.count < capacity {
        state.files[path] = opened
      } else {
        state.overflow = opened
      }
      return opened
    }
  }
}
