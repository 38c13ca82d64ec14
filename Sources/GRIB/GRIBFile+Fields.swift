extension GRIBFile {
  /// The fields of the edition 2 message at `range`, each as the file ranges of the
  /// sections that make it a message of its own (1, the latest 2 and 3, then 4 to 7), or
  /// nil for a message with one field, which ecCodes reads as it is.
  ///
  /// One GRIB2 message may hold several fields by repeating sections 2–7, 3–7 or 4–7
  /// (NCEP packs the u and v of a wind in one message); a section stays in force until a
  /// later one of the same number replaces it, and a bitmap section may point back to the
  /// previous bitmap (indicator 254). ecCodes' tools count each field as a message; so
  /// does `GRIBFile`.
  func fieldLayouts(of range: Range<Int>, number: Int) throws(GRIBError) -> [[Range<Int>]?] {
    let bytes = self.bytes
    func fail(_ reason: String) -> GRIBError {
      GRIBError(reason: "damaged: \(reason)", path: path, message: number, key: "section")
    }
    let end = range.upperBound - 4
    var position = range.lowerBound + 16
    var current: [Int: Range<Int>] = [:]
    var bitmap: Range<Int>?
    var fields: [[Range<Int>]] = []
    while position < end {
      guard end - position >= 5 else { throw fail("a section header runs into the final \"7777\"") }
      var length = 0
      for k in 0..<4 { length = length << 8 | Int(bytes[position + k]) }
      let section = Int(bytes[position + 4])
      guard length >= 5, length <= end - position else {
        throw fail(
          "section \(section) at byte \(position - range.lowerBound) declares \(length) bytes, beyond the message")
      }
      guard (1...7).contains(section) else {
        throw fail("section number \(section) at byte \(position - range.lowerBound) is not 1 to 7")
      }
      let span = position..<(position + length)
      if section == 6, length >= 6, bytes[position + 5] == 254 {
        guard let bitmap else { throw fail("a field reuses the previous bitmap, but none came before") }
        current[6] = bitmap
      } else {
        current[section] = span
        if section == 6 { bitmap = span }
      }
      if section == 7 {
        let needed = [1, 3, 4, 5, 6]
        if let missing = needed.first(where: { current[$0] == nil }) {
          throw fail("field \(fields.count + 1) has no section \(missing)")
        }
        fields.append([1, 2, 3, 4, 5, 6, 7].compactMap { current[$0] })
      }
      position += length
    }
    guard !fields.isEmpty else { throw fail("no data section (section 7)") }
    return fields.count == 1 ? [nil] : fields
  }

  /// A message of its own for a field of a multi-field message: section 0 with the new
  /// length, the field's sections, and "7777".
  func assembled(_ layout: [Range<Int>], from start: Int) -> [UInt8] {
    let bytes = self.bytes
    let length = 16 + layout.reduce(0) { $0 + $1.count } + 4
    var message = [UInt8](bytes[start..<(start + 8)])
    message.reserveCapacity(length)
    for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: length >> shift)) }
    for span in layout { message += bytes[span] }
    message += [0x37, 0x37, 0x37, 0x37]
    return message
  }
}
