import CubeFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    var target = stat()
    var source = stat()
    if stat(path, &target) == 0, stat(input, &source) == 0, target.st_dev == source.st_dev,
      target.st_ino == source.st_ino
    {
      throw ExportFailure("--out \(path): is the cube being exported; choose another file")
    }
    // The store's temporary name: hidden, and naming this host and process, so that a
    // killed export is recognisable for what it is.
    temporary = TemporaryFiles.path(for: path)
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Self.failure(path, errno) }
  }

  deinit {
    if descriptor >= 0 {
      close(descriptor)
      unlink(temporary)
    }
  }

  /// Writes all of `bytes` at `offset`, retrying short writes (a full disk reports itself on
  /// the retry).
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ExportFailure) {
    var done = 0
    while done < bytes.count {
      let count = pwrite(
        descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset) + off_t(done))
      if count < 0 {
        if errno == EINTR { continue }
        throw Self.failure(path, errno)
      }
      done += count
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

  private static func failure(_ path: String, _ error: Int32) -> ExportFailure {
    ExportFailure("--out \(path): cannot write: \(String(cString: strerror(error)))")
  }
}
