import Foundation
import GRIB
import Testing
import _TestSupport

/// Reads of a range of a message's points, which ingest makes band by band: a
/// simple-packed field's range decoded from its bits alone, and any other field decoded
/// once and kept compact, each equal, bit for bit, to ecCodes' decode of the whole message.
@Suite struct GRIBPointRangeTests {
  /// Whether two decoded values are the same: equal bits, or both missing.
  static func same(_ a: Double, _ b: Double) -> Bool {
    a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern
  }

  /// The ranges a test reads of `points` points: the whole, the first and last points,
  /// a point alone, and ranges starting and ending mid-byte of the packed bits.
  static func ranges(_ points: Int) -> [Range<Int>] {
    var ranges: [Range<Int>] = [0..<points, 0..<1, (points - 1)..<points, (points / 2)..<(points / 2 + 1)]
    var random = TestRandom(seed: UInt64(points))
    for _ in 0..<12 {
      let a = Int(random.next() % UInt64(points))
      ranges.append(a..<Swift.min(points, a + 1 + Int(random.next() % 3000)))
    }
    return ranges
  }

  /// Checks every range of every message of `file` that `decodesPointRanges` against
  /// ecCodes' whole decode; returns how many messages were decoded by ranges.
  @discardableResult
  static func checkRanges(of file: GRIBFile, name: String) throws -> Int {
    var checked = 0
    for message in file.messages where file.decodesPointRanges(message) {
      let whole = try file.values(of: message)
      for range in ranges(message.numberOfDataPoints) {
        let part = try file.values(of: message, points: range)
        let wrong = part.indices.filter { !same(part[$0], whole[range.lowerBound + $0]) }
        #expect(
          wrong.isEmpty,
          "\(name) message \(message.number) points \(range): \(wrong.count) differ, the first at \(wrong.first.map { range.lowerBound + $0 } ?? -1)"
        )
      }
      checked += 1
    }
    return checked
  }

  /// Every simple-packed edition 2 field among the samples (a regular, a Gaussian and a
  /// tiny grid, constant fields of 0 bits, 8, 13, 14 and 16 bits per value): every range
  /// equals ecCodes' whole decode, bit for bit.
  @Test func simplePackedSamplesDecodeByRangesAsEcCodesDecodesThemWhole() throws {
    let directory = SampleFiles.grid("grib")
    var checked = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
      guard let file = try? GRIBFile(path: "\(directory)/\(name)") else { continue }
      checked += try Self.checkRanges(of: file, name: name)
    }
    // alternate-scanning, scanning_mode, regular_ll_msl, regular_gg_ml, two of ngm.grb's
    // fields, no-radius-shapeOfEarth-7, and the two templates.
    #expect(checked >= 8)
  }

  /// Simple packing of every width from 1 to 32 bits, with and without a bitmap leaving
  /// points out, on a grid whose rows do not end on a byte: every range equals ecCodes'
  /// whole decode, and the missing points are exactly the ones written missing.
  @Test(arguments: [1, 2, 3, 7, 8, 11, 12, 16, 17, 23, 24, 25, 31, 32])
  func generatedSimplePackingOfAnyWidthDecodesByRanges(bits: Int) throws {
    let directory = SampleFiles.temporaryDirectory("grib-ranges-\(bits)")
    defer { SampleFiles.remove(directory) }
    let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (36, 6), width: 37, height: 23)
    let points = grid.width * grid.height
    var random = TestRandom(seed: UInt64(bits))
    let values = (0..<points).map { _ in random.uniform(-40...60) }
    let gappy = values.indices.map { $0 % 7 == 3 || ($0 / 37) % 5 == 2 ? .nan : values[$0] }
    let path = "\(directory)/fields.grib2"
    try GRIBWriter.write(
      [values, gappy].map { field throws(GRIBWriterError) in
        try GRIBWriter.message(
          .temperature(reference: 1_782_000_000, hours: 0, values: field).packed(.simple(bits: bits)), on: grid)
      }, to: path)
    let file = try GRIBFile(path: path)
    #expect(file.messages.allSatisfy { file.decodesPointRanges($0) })
    #expect(file.messages[1].bitmapPresent)
    #expect(try Self.checkRanges(of: file, name: "\(bits) bits") == 2)
    let decoded = try file.values(of: file.messages[1], points: 0..<points)
    #expect(decoded.indices.filter { decoded[$0].isNaN } == gappy.indices.filter { gappy[$0].isNaN })
  }

  /// A field decoded whole once and kept compact reads back every range as ecCodes decodes
  /// the message: every field of the NAM sample (complex packing with spatial
  /// differencing, both fields of its two-field message), GFS's, the 1-degree complex
  /// samples and edition 1 fields. Complex-packed fields are kept as integers, in at most
  /// a quarter of their doubles' bytes.
  @Test func fieldsDecodedOnceReadBackEveryRangeAsDecoded() throws {
    let names = [
      "nam.t00z.awp21100.tm00.grib2", "gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2", "dspr.temp.msg1.grib2",
      "ngm.grb", "fields_with_missing_values.grib",
    ]
    var compact = 0
    for name in names {
      let file = try GRIBFile(path: ECCodesTools.sample(name))
      for message in file.messages {
        let whole = try file.values(of: message)
        let kept = try file.decodedField(of: message)
        #expect(kept.count == whole.count)
        if message.edition == 2 && kept.byteCount * 4 <= whole.count * 8 { compact += 1 }
        for range in Self.ranges(message.numberOfDataPoints) {
          var part = [Double](repeating: 7, count: range.count)
          part.withUnsafeMutableBufferPointer { kept.read(range, into: $0) }
          let wrong = part.indices.filter { !Self.same(part[$0], whole[range.lowerBound + $0]) }
          #expect(wrong.isEmpty, "\(name) message \(message.number) points \(range): \(wrong.count) differ")
        }
      }
    }
    // NAM's 181, GFS's 3 and the 1-degree sample's 1, all complex-packed, and ngm.grb's 5
    // simple-packed fields.
    #expect(compact == 190)
  }

  /// A range beyond the message's points, or a buffer of another size, is refused with the
  /// range, the buffer and the message's points named, before anything is decoded.
  @Test func aRangeOutsideTheMessageIsRefused() throws {
    let path = ECCodesTools.sample("regular_ll_msl.grib")
    let file = try GRIBFile(path: path)
    let message = file.messages[0]
    let error = #expect(throws: GRIBError.self) { try file.values(of: message, points: 65_000..<65_161) }
    #expect(
      error?.description
        == "\(path): message 1: values: points 65000..<65161 into a buffer of 161 values are not a range of the message's 65160 points"
    )
  }

  /// A simple-packed message whose data section is too short for its values is not read
  /// past its end: a range read refuses it as a whole decode does, naming the key.
  @Test func aSimplePackedMessageShorterThanItsValuesIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("grib-ranges-short")
    defer { SampleFiles.remove(directory) }
    let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (36, 6), width: 37, height: 23)
    let values = (0..<(37 * 23)).map { Double($0) * 0.25 }
    var bytes = try GRIBWriter.message(
      .temperature(reference: 1_782_000_000, hours: 0, values: values).packed(.simple(bits: 16)), on: grid)
    // Section 7 is last: cut its values to 100 bytes and fix its and the message's lengths.
    let section7 = bytes.count - 4 - (37 * 23 * 2 + 5)
    #expect(bytes[section7 + 4] == 7)
    bytes = Array(bytes[..<(section7 + 105)]) + Array("7777".utf8)
    for (k, byte) in withUnsafeBytes(of: UInt32(105).bigEndian, Array.init).enumerated() { bytes[section7 + k] = byte }
    for (k, byte) in withUnsafeBytes(of: UInt64(bytes.count).bigEndian, Array.init).enumerated() { bytes[8 + k] = byte }
    let path = "\(directory)/short.grib2"
    try GRIBWriter.write([bytes], to: path)
    let file = try GRIBFile(path: path)
    #expect(!file.decodesPointRanges(file.messages[0]))
    let error = #expect(throws: GRIBError.self) { try file.values(of: file.messages[0], points: 0..<10) }
    #expect(
      error?.description
        == "\(path): message 1: bitsPerValue: 851 values of 16 bits do not fit in the data section's 100 bytes")
  }
}

extension GRIBTestField {
  /// The same field packed as `packing` says.
  func packed(_ packing: Packing) -> GRIBTestField {
    var field = self
    field.packing = packing
    return field
  }
}
