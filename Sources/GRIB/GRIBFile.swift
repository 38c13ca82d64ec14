import CEcCodes
import Platform

/// An open GRIB file: its messages found and described, their values decoded on request.
///
/// The file is memory-mapped read-only and scanned once when it opens: every `GRIB`
/// indicator starts a message whose length its indicator section declares and which must
/// end with `7777` inside the file (bytes between messages are skipped, as ecCodes skips
/// them). A GRIB2 message holding several fields counts as one message per field, as
/// ecCodes' tools count them (`fieldLayouts`). Each message's keys are read through ecCodes
/// (`GRIBMessage`); its values only when asked (`readValues`).
///
/// A final class that owns the mapping, unmapped when released; the mapping and the
/// message list never change after the open, and every ecCodes call goes through
/// `GRIBLibrary`'s lock, so a file may be read from several threads: hence `@unchecked`.
public final class GRIBFile: @unchecked Sendable {
  /// The path the file was opened with; every error names it.
  public let path: String
  /// The file's messages, in file order.
  public private(set) var messages: [GRIBMessage] = []

  private let base: UnsafeRawPointer?
  private let size: Int

  /// Opens `path`, maps it and scans its messages. Throws when the file cannot be read,
  /// holds no GRIB message, or holds a message that is truncated, damaged or that ecCodes
  /// cannot read: the error names the file, the message number and the key.
  public init(path: String) throws(GRIBError) {
    self.path = path
    let descriptor: Int32
    do {
      descriptor = try Posix.open(path, [.readOnly, .closeOnExec])
    } catch {
      throw GRIBError(reason: "cannot open: \(error.text)", path: path)
    }
    defer { Posix.close(descriptor) }
    do {
      size = try Int(Posix.fstat(descriptor).size)
    } catch {
      throw GRIBError(reason: "cannot stat: \(error.text)", path: path)
    }
    guard size > 0 else {
      base = nil
      throw GRIBError(reason: "not a GRIB file: it is empty", path: path)
    }
    do {
      base = try UnsafeRawPointer(Posix.mmap(descriptor, bytes: size, shared: false))
    } catch {
      base = nil
      throw GRIBError(reason: "cannot map: \(error.text)", path: path)
    }
    messages = try scan()
  }

  deinit {
    if let base { Posix.munmap(UnsafeMutableRawPointer(mutating: base), bytes: size) }
  }

  /// The file's bytes (empty only for a file that failed to open).
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : size) }

  /// Finds every message, splits it into its fields, and reads each field's keys.
  private func scan() throws(GRIBError) -> [GRIBMessage] {
    var found: [GRIBMessage] = []
    var offset = 0
    while let start = indicator(from: offset) {
      let count = try messageLength(at: start, number: found.count + 1)
      let range = start..<(start + count)
      let layouts = bytes[start + 7] == 2 ? try fieldLayouts(of: range, number: found.count + 1) : [nil]
      for layout in layouts {
        let number = found.count + 1
        let message = try withHandle(number: number, range: range, layout: layout) { handle throws(GRIBError) in
          try GRIBMessage(handle, byteOffset: start, byteCount: count, layout: layout)
        }
        found.append(message)
      }
      offset = start + count
    }
    guard !found.isEmpty else {
      throw GRIBError(reason: "not a GRIB file: no message (no \"GRIB\" indicator) in its \(size) bytes", path: path)
    }
    return found
  }

  /// The offset of the next `GRIB` indicator at or after `offset`: the four letters
  /// followed, at the indicator's eighth byte, by edition 1 or 2. The letters alone also
  /// occur in text (a NetCDF file's history naming its GRIB source), which is skipped.
  private func indicator(from offset: Int) -> Int? {
    guard let base, offset <= size - 8 else { return nil }
    var start = offset
    // memchr finds each candidate "G"; a whole non-GRIB file costs one pass.
    while start <= size - 8, let hit = memchr(base + start, 0x47, size - 7 - start) {
      let at = UnsafeRawPointer(hit) - base
      if memcmp(hit, "GRIB", 4) == 0, (1...2).contains(bytes[at + 7]) { return at }
      start = at + 1
    }
    return nil
  }

  /// The length the message at `start` declares, checked to lie inside the file and to end
  /// with `7777`.
  private func messageLength(at start: Int, number: Int) throws(GRIBError) -> Int {
    let bytes = self.bytes
    let remaining = size - start
    func fail(_ reason: String, key: String? = nil) -> GRIBError {
      GRIBError(
        code: key == nil ? Int32(GRIB_PREMATURE_END_OF_FILE) : 0, reason: reason, path: path, message: number, key: key)
    }
    guard remaining >= 8 else { throw fail("truncated: the file ends \(remaining) bytes after the message's start") }
    let edition = Int(bytes[start + 7])
    var length = 0
    switch edition {
    case 2:
      guard remaining >= 16 else { throw fail("truncated: the file ends inside the indicator section") }
      for k in 8..<16 {
        // A length beyond the file is refused below; stop before it could overflow.
        guard length < 1 << 55 else { break }
        length = length << 8 | Int(bytes[start + k])
      }
    case 1:
      length = Int(bytes[start + 4]) << 16 | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6])
      guard length & 0x80_0000 == 0 else {
        throw fail("edition 1 messages of 8 MB and more (ECMWF's large GRIB 1) are not supported", key: "totalLength")
      }
    default:
      throw fail("edition \(edition) is not GRIB edition 1 or 2", key: "edition")
    }
    guard length >= 12 else {
      throw fail("declares a length of \(length) bytes, too short for a message", key: "totalLength")
    }
    guard length <= remaining else {
      throw fail("truncated: declares \(length) bytes but the file ends \(remaining) bytes after its start")
    }
    if edition == 1 { try checkEdition1Sections(start: start, length: length, number: number) }
    let end = start + length
    guard bytes[end - 4] == 0x37, bytes[end - 3] == 0x37, bytes[end - 2] == 0x37, bytes[end - 1] == 0x37 else {
      throw fail("damaged or truncated: its \(length) bytes do not end with \"7777\"")
    }
    return length
  }

  /// Checks that an edition 1 message's sections (1, the optional 2 and 3 its flags
  /// announce, and 4), each with a 3-byte length, fit inside the message: ecCodes trusts
  /// them, and asserts on some that do not fit.
  private func checkEdition1Sections(start: Int, length: Int, number: Int) throws(GRIBError) {
    let bytes = self.bytes
    func fail(_ reason: String) -> GRIBError {
      GRIBError(reason: "damaged: \(reason)", path: path, message: number, key: "section")
    }
    let end = start + length - 4
    var position = start + 8
    guard end - position >= 28 else { throw fail("section 1 does not fit in \(length) bytes") }
    let flags = bytes[position + 7]
    let sections = [1] + (flags & 0x80 != 0 ? [2] : []) + (flags & 0x40 != 0 ? [3] : []) + [4]
    for section in sections {
      guard end - position >= 3 else { throw fail("section \(section) starts past the message's end") }
      let sectionLength = Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
      guard sectionLength >= (section == 1 ? 28 : 4), sectionLength <= end - position else {
        throw fail("section \(section) declares \(sectionLength) bytes, beyond the message")
      }
      position += sectionLength
    }
  }

  /// Runs `body` with an ecCodes handle on the message at `range` (or on its field that
  /// `layout` assembles), whose bytes stay alive meanwhile.
  private func withHandle<R>(
    number: Int, range: Range<Int>, layout: [Range<Int>]?, _ body: (GRIBHandle) throws(GRIBError) -> R
  ) throws(GRIBError) -> R {
    guard let layout else {
      let handle = try GRIBHandle(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]), path: path, message: number)
      return try body(handle)
    }
    let message = assembled(layout, from: range.lowerBound)
    // Array's withUnsafeBytes throws untyped errors: carry the typed one out as a Result.
    return try message.withUnsafeBytes { buffer in
      Result { () throws(GRIBError) -> R in
        let handle = try GRIBHandle(bytes: buffer, path: path, message: number)
        return try body(handle)
      }
    }.get()
  }

  /// Drops the process's mapping of `message`'s pages (`MADV_DONTNEED`) once it is
  /// decoded, so that a run's resident memory does not grow with the bytes of its files:
  /// each decoded message would otherwise stay counted in the process's resident set until
  /// the file closes. The mapping is private and never written, so a later read of those
  /// pages (another message sharing a page, read on another thread) faults them in again
  /// from the page cache with the same bytes.
  func releasePages(of message: GRIBMessage) {
    releasePages(inside: message.byteOffset..<(message.byteOffset + message.byteCount))
  }

  /// Drops the mapping's whole pages inside the file's `bytes` as `releasePages(of:)`
  /// does, once they are decoded: the pages of one range of a message's points.
  func releasePages(inside bytes: Range<Int>) {
    guard let base, bytes.lowerBound >= 0, bytes.upperBound <= size else { return }
    let page = Posix.pageSize
    // Whole pages inside the range only: its neighbours' pages stay mapped.
    let start = (bytes.lowerBound + page - 1) / page * page
    let end = bytes.upperBound / page * page
    guard start < end else { return }
    Posix.discardPages(UnsafeMutableRawPointer(mutating: base + start), bytes: end - start)
  }

  /// Runs `body` with a fresh handle on `message`, one of this file's.
  func withHandle<R>(_ message: GRIBMessage, _ body: (GRIBHandle) throws(GRIBError) -> R) throws(GRIBError) -> R {
    guard message.number >= 1, message.number <= messages.count, messages[message.number - 1] == message else {
      throw GRIBError(reason: "is not a message of this file", path: path, message: message.number)
    }
    return try withHandle(
      number: message.number, range: message.byteOffset..<(message.byteOffset + message.byteCount),
      layout: message.layout, body)
  }
}
