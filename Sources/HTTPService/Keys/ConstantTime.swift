/// Comparison of secrets whose time does not depend on where they differ.
///
/// An early exit at the first differing byte would let a client find a key byte by byte
/// from response times. Here every byte of the stored key is read and compared whatever
/// the candidate holds; only the lengths, which are not secret, can change the time.
enum ConstantTime {
  /// Whether `candidate` equals `secret`, reading every byte of `secret` and the same
  /// positions of `candidate` (zero where it is shorter).
  static func equal<Candidate: RandomAccessCollection<UInt8>>(
    _ candidate: Candidate, _ secret: [UInt8]
  ) -> Bool where Candidate.Index == Int {
    var difference = UInt(bitPattern: candidate.count ^ secret.count)
    let start = candidate.startIndex
    for index in secret.indices {
      let offered = index < candidate.count ? candidate[start + index] : 0
      difference |= UInt(offered ^ secret[index])
    }
    return difference == 0
  }
}
