#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX file operations publishing needs, with errors as text.
enum FileSystem {
  static func errnoText() -> String { String(cString: strerror(errno)) }

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
      if mkdir(prefix, 0o755) != 0, errno != EEXIST {
        throw CubeError(path: destination, reason: "cannot create directory \(prefix): \(errnoText())")
      }
    }
  }

  /// Makes a rename durable: the directory entry itself must reach the disk.
  static func syncDirectory(_ directory: String) {
    let descriptor = open(directory, O_RDONLY)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// The names in a directory (without `.` and `..`); empty when it cannot be read.
  static func entries(of directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }
}
