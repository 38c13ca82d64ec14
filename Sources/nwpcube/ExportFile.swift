import CubeFormat
import Platform

/// The file `nwpcube export` writes, in any order, and puts in place only when complete:
/// the bytes go to a temporary file beside it, which `publish` renames over `path`, so a
/// failed export never leaves a truncated file under the name a reader expects. Dropped
/// unpublished, it removes the temporary file.
final class ExportFile {
  let path: String
  private let temporary: String
  private var descriptor: Int32

  /// Creates the temporary file. `notReplacing` names a file that `path` must not be (the
  /// cube being exported): renaming over it would destroy the input.
  init(path: String, notReplacing input: String) throws(ExportFailure) {
    self.path = path
    if let target = try? Posix.stat(path), let source = try? Posix.stat(input), target.isSameFile(as: source) {
      throw ExportFailure("--out \(path): is the cube being exported; choose another file")
    }
    // The store's temporary name: hidden, and naming this host and process, so that a
    // killed export is recognisable for what it is. Created and locked as a cube's is, so
    // that a store's cleaner never takes a slow export's file for a leftover.
    temporary = TemporaryFiles.path(for: path)
    do {
      descriptor = try DurablePublish.createTemporary(temporary)
    } catch {
      throw Self.failure(path, error)
    }
  }

  deinit {
    if descriptor >= 0 {
      Posix.close(descriptor)
      try? Posix.unlink(temporary)
    }
  }

  /// Writes all of `bytes` at `offset`, retrying short writes (a full disk reports itself on
  /// the retry).
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ExportFailure) {
    var done = 0
    while done < bytes.count {
      do {
        done += try Posix.pwrite(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: Int(offset) + done)
      } catch {
        throw Self.failure(path, error)
      }
    }
  }

  /// Flushes the file to disk and renames it over `path`, durably (`DurablePublish`): a
  /// crash leaves the old file or the whole export, never a torn one.
  func publish() throws(ExportFailure) {
    let file = descriptor
    descriptor = -1
    do {
      try DurablePublish.publish(file, temporaryPath: temporary, to: path)
    } catch {
      throw ExportFailure("--out \(path): \(error.reason)")
    }
  }

  private static func failure(_ path: String, _ error: Errno) -> ExportFailure {
    ExportFailure("--out \(path): cannot write: \(error.text)")
  }
}
