// Placeholder for the reader's on-touch verification API (contract, part R), so that the
// serving side builds before it lands; replaced by the reader's implementation on merge.
extension CubeFile {
  /// Verifies every not-yet-verified checksum block overlapping `range`.
  public func verify(bytes range: Range<Int>) throws(CubeError) {}

  /// Verifies up to `limit` bytes of not-yet-verified blocks; returns the bytes verified.
  public func verifyNext(limit: Int) throws(CubeError) -> Int { 0 }

  /// Whether every block is verified.
  public var isFullyVerified: Bool { true }
}
