extension GRIBFile {
  /// The value ecCodes is told to put at missing points before a decode: no packing a
  /// model writes reaches Float's largest finite magnitude, so it marks missing points
  /// only, and becomes NaN.
  static let missingMarker = Double(Float.greatestFiniteMagnitude)

  /// Decodes `message`'s values into `values`, which must hold exactly its
  /// `numberOfDataPoints`, in the message's own order (`GRIBGrid`'s cell order); points
  /// the bitmap marks missing become NaN.
  ///
  /// The count is checked against `GRIBLimits`, the grid's `Ni` × `Nj` and what ecCodes
  /// will decode before ecCodes writes anything.
  public func readValues(of message: GRIBMessage, into values: UnsafeMutableBufferPointer<Double>) throws(GRIBError) {
    try withHandle(message) { handle throws(GRIBError) in
      let count = try checkedCount(message, handle: handle)
      guard values.count == count else {
        throw GRIBError(
          reason: "a buffer of \(values.count) values cannot take the message's \(count) points", path: path,
          message: message.number, key: "values")
      }
      if try handle.isDefined("missingValue") { try handle.set("missingValue", Self.missingMarker) }
      try handle.doubles("values", into: values)
    }
    GRIBDecodeCount.record(path: path, message: message.number, whole: 1)
    releasePages(of: message)
    for k in values.indices where values[k] == Self.missingMarker { values[k] = .nan }
  }

  /// Decodes `message`'s values into `values` as `readValues(of:into:)` for doubles does,
  /// rounded to Float (ecCodes decodes in double precision).
  public func readValues(of message: GRIBMessage, into values: UnsafeMutableBufferPointer<Float>) throws(GRIBError) {
    let count = try withHandle(message) { handle throws(GRIBError) in try checkedCount(message, handle: handle) }
    guard values.count == count else {
      throw GRIBError(
        reason: "a buffer of \(values.count) values cannot take the message's \(count) points", path: path,
        message: message.number, key: "values")
    }
    var decoded = [Double](repeating: 0, count: count)
    try decoded.withUnsafeMutableBufferPointer { buffer throws(GRIBError) in
      try readValues(of: message, into: buffer)
    }
    for k in 0..<count { values[k] = Float(decoded[k]) }
  }

  /// `message`'s values as a new array of its `numberOfDataPoints` doubles, NaN where missing.
  public func values(of message: GRIBMessage) throws(GRIBError) -> [Double] {
    let count = try withHandle(message) { handle throws(GRIBError) in try checkedCount(message, handle: handle) }
    var values = [Double](repeating: 0, count: count)
    try values.withUnsafeMutableBufferPointer { buffer throws(GRIBError) in
      try readValues(of: message, into: buffer)
    }
    return values
  }

  /// The number of values a decode of `message` gives, once it is within `GRIBLimits`,
  /// agrees with the grid's rows and columns, and is what ecCodes will decode.
  private func checkedCount(_ message: GRIBMessage, handle: GRIBHandle) throws(GRIBError) -> Int {
    let points = try checkedPoints(message)
    // Simple packing reads numberOfValues × bitsPerValue bits from the data section without
    // checking its length (ecCodes 2.28): a 212-byte message declaring 281,101 values of 16
    // bits made it read past the message's end (the grib_file fuzz target's finding).
    let packing = message.edition == 2 ? try handle.string("packingType") : ""
    if packing == "grid_complex" || packing == "grid_complex_spatial_differencing" || packing == "grid_jpeg" {
      guard let sections = sections(of: message), let representation = sections[5], let data = sections[7] else {
        throw GRIBError(
          reason: "its sections do not lie within the message", path: path, message: message.number, key: "packingType")
      }
      // The same check for complex packing, whose groups ecCodes 2.28 reads unchecked too,
      // and JPEG 2000's, whose image OpenJPEG allocates as the codestream declares it.
      let problem =
        packing == "grid_jpeg"
        ? GRIBJPEG2000.problem(representation: representation, data: data)
        : GRIBComplexPacking.shortfall(representation: representation, data: data)
      if let problem { throw GRIBError(reason: problem, path: path, message: message.number, key: "packingType") }
    }
    if packing == "grid_simple" {
      let (bits, count, length) = (
        try handle.long("bitsPerValue"), try handle.long("numberOfValues"), try handle.long("section7Length")
      )
      let (product, overflow) = count.multipliedReportingOverflow(by: bits)
      guard bits >= 0, count >= 0, !overflow, (product + 7) / 8 <= length - 5 else {
        throw GRIBError(
          reason: "\(count) values of \(bits) bits do not fit in the data section's \(length - 5) bytes", path: path,
          message: message.number, key: "bitsPerValue")
      }
    }
    let decoded = try handle.size("values")
    guard decoded == points else {
      throw GRIBError(
        reason: "ecCodes would decode \(decoded) values for \(points) data points", path: path,
        message: message.number, key: "values")
    }
    return points
  }

  /// The message's `numberOfDataPoints`, once it is within `GRIBLimits` and agrees with
  /// the grid's rows and columns: what its keys alone can show.
  func checkedPoints(_ message: GRIBMessage) throws(GRIBError) -> Int {
    let points = message.numberOfDataPoints
    guard GRIBLimits.points.contains(points) else {
      throw GRIBError(
        reason: "\(points) points is not in \(GRIBLimits.points.lowerBound)…\(GRIBLimits.points.upperBound)",
        path: path, message: message.number, key: "numberOfDataPoints")
    }
    if let ni = message.ni, let nj = message.nj {
      if let problem = GRIBLimits.problem(width: ni, height: nj) {
        throw GRIBError(reason: problem, path: path, message: message.number, key: "Ni/Nj")
      }
      guard ni * nj == points else {
        throw GRIBError(
          reason: "the grid's Ni × Nj = \(ni) × \(nj) = \(ni * nj) disagrees with its \(points) data points",
          path: path, message: message.number, key: "numberOfDataPoints")
      }
    }
    return points
  }
}
