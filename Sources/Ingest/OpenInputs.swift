import NetCDF

/// The input files a WRF ingest has opened, kept open from the scan to the last read.
///
/// Opening a file reads all its metadata (every variable and attribute by name), which
/// was about a seventh of an ingest's time when the scan and the field reader each opened
/// every file. Up to `capacity` files stay open, so that a run of thousands of files does
/// not run out of descriptors; the others are opened again when read, as before. A file
/// closes when the last plan reading it is done (`NCFile` closes on release).
final class OpenInputs {
  /// Open files by path.
  private var files: [String: NCFile] = [:]
  /// The file read last when it did not fit: consecutive steps come from one file, so it
  /// stays open until another is read.
  private var overflow: NCFile?
  /// Well under the usual limit of 1,024 descriptors, leaving room for the cube and the
  /// store's other files.
  let capacity: Int

  init(capacity: Int = 256) {
    self.capacity = capacity
  }

  /// Keeps `file` open for later reads, if there is room.
  func keep(_ file: NCFile) {
    guard files.count < capacity || files[file.path] != nil else {
      file.close()
      return
    }
    files[file.path] = file
  }

  /// The open file at `path`, opening it (and keeping it, if there is room) when needed.
  func file(_ path: String) throws(IngestError) -> NCFile {
    if let file = files[path] { return file }
    if let overflow, overflow.path == path { return overflow }
    let opened = try NCFile.openForIngest(path)
    if files.count < capacity {
      files[path] = opened
    } else {
      overflow?.close()
      overflow = opened
    }
    return opened
  }
}
