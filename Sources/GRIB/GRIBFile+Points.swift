extension GRIBFile {
  /// Whether `readValues(of:points:into:)` decodes only the points asked for (simple
  /// packing, the edition 2 fields ECMWF, DWD and most UPP output write), rather than the
  /// whole message.
  public func decodesPointRanges(_ message: GRIBMessage) -> Bool {
    simplePacking(of: message) != nil
  }

  /// Decodes the points `range` of `message` (in the message's order) into `values`, which
  /// must hold exactly `range.count`, NaN where the bitmap leaves a point out: the values a
  /// whole decode gives there, bit for bit.
  ///
  /// A simple-packed field (`decodesPointRanges`) is decoded from its bits for those points
  /// alone; any other is decoded whole by ecCodes and the range copied out.
  public func readValues(
    of message: GRIBMessage, points range: Range<Int>, into values: UnsafeMutableBufferPointer<Double>
  ) throws(GRIBError) {
    let points = try checkedPoints(message)
    guard range.lowerBound >= 0, range.upperBound <= points, values.count == range.count else {
      throw GRIBError(
        reason:
          "points \(range.lowerBound)..<\(range.upperBound) into a buffer of \(values.count) values are not a range of the message's \(points) points",
        path: path, message: message.number, key: "values")
    }
    guard let packing = simplePacking(of: message) else {
      var whole = [Double](repeating: 0, count: points)
      try whole.withUnsafeMutableBufferPointer { buffer throws(GRIBError) in try readValues(of: message, into: buffer) }
      for k in 0..<range.count { values[k] = whole[range.lowerBound + k] }
      return
    }
    GRIBDecodeCount.record(path: path, message: message.number, points: range.count)
    packing.decode(range, into: values)
    // As a whole decode: a coded value equal to the marker of missing points is missing.
    for k in values.indices where values[k] == Self.missingMarker { values[k] = .nan }
    if let span = packing.bytes(of: range), let start = span.baseAddress, let base = bytes.baseAddress {
      releasePages(inside: (start - base)..<(start - base + span.count))
    }
  }

  /// `message`'s values at the points `range`, as `readValues(of:points:into:)` decodes them.
  public func values(of message: GRIBMessage, points range: Range<Int>) throws(GRIBError) -> [Double] {
    var values = [Double](repeating: 0, count: range.count)
    try values.withUnsafeMutableBufferPointer { buffer throws(GRIBError) in
      try readValues(of: message, points: range, into: buffer)
    }
    return values
  }

  /// The simple packing of an edition 2 `message` as `GRIBSimplePacking` reads it, nil when
  /// it is packed otherwise or its sections cannot be found.
  func simplePacking(of message: GRIBMessage) -> GRIBSimplePacking? {
    guard message.edition == 2, let sections = sections(of: message) else { return nil }
    return GRIBSimplePacking(sections: sections, points: message.numberOfDataPoints)
  }

  /// The sections of an edition 2 `message` (its field's, for a field of a multi-field
  /// message) by number, over the file's bytes; nil when they do not fit in the message.
  func sections(of message: GRIBMessage) -> [Int: UnsafeRawBufferPointer]? {
    let bytes = self.bytes
    var found: [Int: UnsafeRawBufferPointer] = [:]
    if let layout = message.layout {
      for span in layout {
        guard span.lowerBound >= 0, span.count >= 5, span.upperBound <= bytes.count else { return nil }
        found[Int(bytes[span.lowerBound + 4])] = UnsafeRawBufferPointer(rebasing: bytes[span])
      }
      return found
    }
    let end = message.byteOffset + message.byteCount - 4
    guard message.byteOffset >= 0, end <= bytes.count else { return nil }
    var position = message.byteOffset + 16
    while position < end {
      guard end - position >= 5 else { return nil }
      var length = 0
      for k in 0..<4 { length = length << 8 | Int(bytes[position + k]) }
      guard length >= 5, length <= end - position else { return nil }
      found[Int(bytes[position + 4])] = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
      position += length
    }
    return found
  }
}
