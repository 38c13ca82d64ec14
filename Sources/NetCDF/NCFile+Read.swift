import CNetCDF
import Platform

extension NCFile {
  /// Reads a hyperslab as `Double`s, converting from the stored type (`nc_get_vara_double`),
  /// with no CF unpacking.
  public func readRaw(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Double] {
    try read(name, start: start, count: count, zero: 0, "nc_get_vara_double", nc_get_vara_double)
  }

  /// Reads a hyperslab as `Float`s (`nc_get_vara_float`).
  public func readFloats(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Float] {
    try read(name, start: start, count: count, zero: 0, "nc_get_vara_float", nc_get_vara_float)
  }

  /// Reads a hyperslab as `Int16`s (`nc_get_vara_short`).
  public func readShorts(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Int16] {
    try read(name, start: start, count: count, zero: 0, "nc_get_vara_short", nc_get_vara_short)
  }

  /// Reads a hyperslab as `Int32`s (`nc_get_vara_int`).
  public func readInts(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Int32] {
    try read(name, start: start, count: count, zero: 0, "nc_get_vara_int", nc_get_vara_int)
  }

  /// Reads a hyperslab as signed bytes (`nc_get_vara_schar`).
  public func readBytes(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Int8] {
    try read(name, start: start, count: count, zero: 0, "nc_get_vara_schar", nc_get_vara_schar)
  }

  /// One typed `nc_get_vara_*` call on a checked slab: the shared body of the typed reads.
  private func read<T>(
    _ name: String, start: [Int], count: [Int], zero: T, _ function: String,
    _ get: (Int32, Int32, UnsafePointer<Int>?, UnsafePointer<Int>?, UnsafeMutablePointer<T>?) -> Int32
  ) throws(NCError) -> [T] {
    let variable = try checkedSlab(name, start: start, count: count)
    var values = [T](repeating: zero, count: count.reduce(1, *))
    try NCLibrary.call(function, path: path, variable: name) {
      get(ncid, variable.id, start, count, &values)
    }
    return values
  }

  /// Reads a float variable's hyperslab as stored and widens it while unpacking: libnetcdf's
  /// conversion to double, a zero-filled `[Double]` and a second pass to unpack cost more
  /// than the read itself on WRF output, whose variables are floats.
  private func readUnpackedFloats(
    _ variable: NCVariable, start: [Int], count: [Int]
  ) throws(NCError) -> [Double] {
    let total = count.reduce(1, *)
    let floats = UnsafeMutableBufferPointer<Float>.allocate(capacity: total)
    defer { floats.deallocate() }
    if let classic = classicReads, let placement = classic.layout.describes(variable),
      let run = classic.layout.contiguousRun(of: placement, shape: variable.shape, start: start, count: count)
    {
      try readBigEndianFloats(into: floats, at: run.offset, from: classic.descriptor, variable: variable.name)
    } else {
      try NCLibrary.call("nc_get_vara_float", path: path, variable: variable.name) {
        nc_get_vara_float(ncid, variable.id, start, count, floats.baseAddress)
      }
    }
    return CFPacking(variable).unpacked(UnsafeBufferPointer(floats))
  }

  /// Reads `floats.count` big-endian floats at file offset `offset` of `descriptor` (this
  /// classic file's own descriptor: `ClassicLayout`) into `floats`, with `pread` and no lock.
  private func readBigEndianFloats(
    into floats: UnsafeMutableBufferPointer<Float>, at offset: Int, from descriptor: Int32, variable: String
  ) throws(NCError) {
    guard isOpen.load(ordering: .acquiring) else {
      throw NCError(code: NC_EBADID, reason: "the file is closed", path: path, variable: variable)
    }
    let bytes = UnsafeMutableRawBufferPointer(floats)
    var done = 0
    while done < bytes.count {
      let read: Int
      do {
        read = try Posix.pread(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
      } catch {
        throw NCError(
          code: NC_EIO, reason: "cannot read \(bytes.count - done) bytes at offset \(offset + done): \(error.text)",
          path: path, variable: variable)
      }
      // Cut after the check of `checkedSlab`, while being read.
      guard read > 0 else { throw truncation(at: offset + done, valuesEnd: offset + bytes.count, variable: variable) }
      done += read
    }
    guard let base = bytes.baseAddress else { return }
    let words = base.assumingMemoryBound(to: UInt32.self)
    for index in 0..<floats.count { words[index] = UInt32(bigEndian: words[index]) }
  }

  /// Reads a `char` variable's hyperslab as one string per row of its last dimension
  /// (`nc_get_vara_text`), e.g. WRF's `Times(Time, DateStrLen)`.
  public func readStrings(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [String] {
    let variable = try checkedSlab(name, start: start, count: count)
    guard variable.type == .char, let width = count.last, width > 0 else {
      throw NCError(
        code: NC_EBADTYPE, reason: "expected a char variable, found \(variable.type)", path: path,
        variable: name)
    }
    var bytes = [CChar](repeating: 0, count: count.reduce(1, *))
    try NCLibrary.call("nc_get_vara_text", path: path, variable: name) {
      nc_get_vara_text(ncid, variable.id, start, count, &bytes)
    }
    return stride(from: 0, to: bytes.count, by: width).map { offset in
      let row = bytes[offset..<offset + width].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      return String(decoding: row, as: UTF8.self).trimmingSpaces()
    }
  }

  /// Reads a hyperslab with CF packing applied: values equal to `_FillValue` or
  /// `missing_value` (or outside `valid_min`/`valid_max`/`valid_range`, or equal to the
  /// type's default fill when no `_FillValue` is given) become NaN; the rest become
  /// `raw · scale_factor + add_offset`.
  public func readUnpacked(_ name: String, start: [Int], count: [Int]) throws(NCError) -> [Double] {
    let variable = try checkedSlab(name, start: start, count: count)
    if variable.type == .float { return try readUnpackedFloats(variable, start: start, count: count) }
    var values = try readRaw(name, start: start, count: count)
    CFPacking(variable).unpack(&values)
    return values
  }

  /// Reads the whole variable with CF packing applied.
  public func readUnpacked(_ name: String) throws(NCError) -> [Double] {
    let variable = try variable(name)
    return try readUnpacked(
      name, start: Array(repeating: 0, count: variable.shape.count), count: variable.shape)
  }

  /// Checks the slab against the variable's shape so that a bad request gets a message
  /// that says which index is wrong instead of libnetcdf's generic "Index exceeds".
  private func checkedSlab(_ name: String, start: [Int], count: [Int]) throws(NCError) -> NCVariable {
    let variable = try variable(name)
    guard start.count == variable.shape.count, count.count == variable.shape.count else {
      throw NCError(
        code: NC_EINVALCOORDS,
        reason: "expected \(variable.shape.count) indices \(variable.dimensions), got \(start.count)",
        path: path, variable: name)
    }
    for (axis, length) in variable.shape.enumerated()
    where start[axis] < 0 || count[axis] < 0 || count[axis] > length - start[axis] {
      let (end, overflow) = start[axis].addingReportingOverflow(count[axis])
      throw NCError(
        code: NC_EEDGE,
        reason:
          "slab \(start[axis])..<\(overflow ? "\(start[axis]) + \(count[axis])" : "\(end)") exceeds dimension \(variable.dimensions[axis]) of length \(length)",
        path: path, variable: name)
    }
    // A file may declare dimensions whose product no array can have: refused here, as an
    // error naming the variable, rather than trapping on the overflow below.
    guard let total = count.checkedProduct, total <= Int.max / 16 else {
      throw NCError(
        code: NC_EEDGE, reason: "slab \(count) holds more values than memory can address", path: path, variable: name)
    }
    try checkWithinFile(variable, start: start, count: count)
    return variable
  }

  /// Refuses a read of a classic file whose values the header places past the file's end.
  /// libnetcdf 4.9 reads such values from whatever its buffer last held (fuzzing found the
  /// same slab read as zeros on one handle and as another variable's numbers on another):
  /// a silently impossible number, where a cut file deserves an error naming it.
  private func checkWithinFile(_ variable: NCVariable, start: [Int], count: [Int]) throws(NCError) {
    guard let classic = classicReads, let placement = classic.layout.describes(variable) else { return }
    let fileBytes: Int
    do {
      fileBytes = Int(try Posix.fstat(classic.descriptor).size)
    } catch {
      throw NCError(
        code: NC_EIO, reason: "cannot find the file's size: \(error.text)", path: path, variable: variable.name)
    }
    let end = classic.layout.end(of: placement, shape: variable.shape, start: start, count: count)
    guard let end, end <= fileBytes else { throw truncation(at: fileBytes, valuesEnd: end, variable: variable.name) }
  }

  /// The error for values the header places past the file's end (`valuesEnd`, nil when
  /// past what an `Int` holds).
  private func truncation(at fileEnd: Int, valuesEnd: Int?, variable: String) -> NCError {
    let place = valuesEnd.map { "up to byte \($0)" } ?? "past any file's end"
    return NCError(
      code: NC_ETRUNC, reason: "the file ends at byte \(fileEnd), before values its header places \(place): truncated?",
      path: path, variable: variable)
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var scalars = Substring(self)
    while scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }
}
