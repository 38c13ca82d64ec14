import Platform

/// The few file operations publishing needs, with errors as text.
enum FileSystem {
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func basename(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `mkdir -p`.
  static func makeDirectories(_ directory: String, for destination: String) throws(CubeError) {
    var prefix = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      prefix += "/" + component
      do {
        try Posix.mkdir(prefix)
      } catch {
        guard error.code == Errno.fileExists else {
          throw CubeError(path: destination, reason: "cannot create directory \(prefix): \(error.text)")
        }
      }
    }
  }

  /// Makes a rename durable: the directory entry itself must reach the disk.
  static func syncDirectory(_ directory: String) {
    guard let descriptor = try? Posix.open(directory, .readOnly) else { return }
    try? Posix.fsync(descriptor)
    Posix.close(descriptor)
  }

  /// The names in a directory (without `.` and `..`); empty when it cannot be read.
  static func entries(of directory: String) -> [String] {
    (try? Posix.directoryEntries(directory)) ?? []
  }
}
