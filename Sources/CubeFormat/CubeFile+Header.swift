#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CubeFile {
  /// The header of the cube at `path`, read with `pread` and checked as opening checks it
  /// (magic, version, the file's size, every header field and the header checksum), without
  /// mapping the file or reading its coordinates, terrain or data: what choosing among many
  /// runs needs. Opening each cube instead cost the command line about 0.2 ms per run kept,
  /// most of it faulting in the terrain section to check it.
  ///
  /// The data is not verified: open the cube (`CubeFile(path:)`) before reading values.
  public static func header(path: String) throws(CubeError) -> CubeHeader {
    let (descriptor, status) = try openFile(path)
    defer { close(descriptor) }
    let size = Int(status.st_size)
    // The longest header any cube can have (validation refuses a longer one), or the file.
    let longest = CubeLayout.fixedHeaderBytes + CubeLimits.metrics.upperBound * CubeLayout.metricEntryBytes
    let wanted = min(size, longest)
    var buffer = [UInt8](repeating: 0, count: wanted)
    var filled = 0
    while filled < wanted {
      let got = buffer.withUnsafeMutableBytes { bytes -> Int in
        guard let start = bytes.baseAddress else { return 0 }
        return pread(descriptor, start + filled, wanted - filled, off_t(filled))
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else {
        throw CubeError(
          path: path, reason: "cannot read the header: \(got < 0 ? FileSystem.errnoText() : "end of file")")
      }
      filled += got
    }
    let result = buffer.withUnsafeBytes { bytes -> Result<CubeHeader, CubeError> in
      guard let start = bytes.baseAddress else {
        return .failure(CubeError(path: path, reason: "cannot read the header"))
      }
      return Result { () throws(CubeError) in
        try validate(base: start, size: size, path: path, verify: .headerOnly, headerOnly: true).header
      }
    }
    return try result.get()
  }
}
