/// The length check ecCodes 2.28 lacks for complex packing (data representation templates
/// 5.2 and 5.3, `grid_complex` and `grid_complex_spatial_differencing`): it reads the
/// groups' widths, lengths and values wherever the representation section says they are,
/// and a message whose data section is shorter made it read past the message's end (the
/// grib_file fuzz target's finding).
///
/// The data section (7.2, 7.3) holds, after its 5-byte header: for 5.3, the first values
/// and the overall minimum of the differences (order + 1 values of the extra descriptors'
/// octets each); then the groups' reference values, widths and scaled lengths, each list
/// padded to whole octets; then each group's values, `width × length` bits.
enum GRIBComplexPacking {
  /// Why the field whose sections 5 and 7 are `representation` and `data` does not fit its
  /// data section; nil when it does, or when section 5 is not a complex template.
  static func shortfall(representation: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) -> String? {
    guard representation.count >= 47, data.count >= 5 else {
      return "its representation or the data section's header is too short"
    }
    let template = GRIBSimplePacking.unsigned(representation, 10, 2)
    guard template == 2 || template == 3 else { return nil }
    if template == 3 && representation.count < 49 {
      return "its representation is too short for the data section's layout"
    }
    let referenceBits = Int(representation[19])
    let groups = GRIBSimplePacking.unsigned(representation, 32, 4)
    let widthReference = Int(representation[35])
    let widthBits = Int(representation[36])
    let lengthReference = GRIBSimplePacking.unsigned(representation, 38, 4)
    let lengthIncrement = Int(representation[41])
    let lastLength = GRIBSimplePacking.unsigned(representation, 43, 4)
    let lengthBits = Int(representation[46])
    guard referenceBits <= 32, widthBits <= 32, lengthBits <= 32 else {
      return "its groups are described with more than 32 bits"
    }
    let available = data.count - 5
    var position = 0  // in octets from the section's sixth
    if template == 3 {
      let order = Int(representation[47])
      let octets = Int(representation[48])
      position += (order + 1) * octets
    }
    // Each list is at most 32 bits a group, so with the groups bounded by the section's
    // own bits no product below overflows.
    guard groups <= available * 8 else { return "\(groups) groups do not fit in the data section's \(available) bytes" }
    position += (groups * referenceBits + 7) / 8
    let widthsStart = position
    position += (groups * widthBits + 7) / 8
    let lengthsStart = position
    position += (groups * lengthBits + 7) / 8
    guard position <= available else {
      return "the descriptions of \(groups) groups need \(position) of the data section's \(available) bytes"
    }
    let payload = UnsafeRawBufferPointer(rebasing: data[5...])
    // A description of 0 bits is 0: the reader takes 1…32.
    func bits(_ bytes: UnsafeRawBufferPointer, _ bit: Int, _ width: Int) -> Int {
      width == 0 ? 0 : Int(GRIBSimplePacking.unsignedBits(bytes, at: bit, width: width))
    }
    var valueBits = 0
    for group in 0..<groups {
      let width = widthReference + bits(payload, widthsStart * 8 + group * widthBits, widthBits)
      let length =
        group == groups - 1
        ? lastLength
        : lengthReference + lengthIncrement
          * bits(payload, lengthsStart * 8 + group * lengthBits, lengthBits)
      let (groupBits, overflow) = width.multipliedReportingOverflow(by: length)
      let (total, overflowSum) = valueBits.addingReportingOverflow(groupBits)
      guard !overflow, !overflowSum, total <= (available - position) * 8 else {
        return "its groups' values need more than the data section's \(available - position) bytes left"
      }
      valueBits = total
    }
    return nil
  }
}
