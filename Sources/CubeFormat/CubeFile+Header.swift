import Platform

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
    defer { Posix.close(descriptor) }
    let size = Int(status.size)
    // The fixed part first, then as much of the metric table as it declares, up to the
    // longest header any cube can have (validation refuses a longer one, and checks the
    // declared size before reading by it): about 2 KB for a usual cube rather than 25 KB.
    var buffer = [UInt8](repeating: 0, count: CubeLayout.fixedHeaderBytes)
    try read(descriptor, into: &buffer, from: 0, path: path)
    let declared = buffer.withUnsafeBytes { $0.baseAddress?.le(CubeLayout.headerBytesOffset, as: UInt32.self) ?? 0 }
    let longest =
      CubeLayout.fixedHeaderBytes + CubeLimits.metrics.upperBound * CubeLayout.metricEntryBytes
      + CubeLayout.Version3.recordBytes
    let wanted = min(size, Int(min(declared, UInt32(longest))))
    if wanted > buffer.count {
      let fixed = buffer.count
      buffer += [UInt8](repeating: 0, count: wanted - fixed)
      try read(descriptor, into: &buffer, from: fixed, path: path)
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

  /// Fills `buffer` from `offset` on with the file's bytes at the same offsets.
  private static func read(
    _ descriptor: Int32, into buffer: inout [UInt8], from offset: Int, path: String
  )
    throws(CubeError)
  {
    var filled = offset
    while filled < buffer.count {
      let got: Int
      do {
        got = try buffer.withUnsafeMutableBytes { bytes in
          Result { () throws(Errno) in
            try Posix.pread(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]), at: filled)
          }
        }.get()
      } catch {
        throw CubeError(path: path, reason: "cannot read the header: \(error.text)")
      }
      guard got > 0 else { throw CubeError(path: path, reason: "cannot read the header: end of file") }
      filled += got
    }
  }
}
