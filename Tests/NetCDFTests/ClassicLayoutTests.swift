import CNetCDF
import Foundation
import Platform
import Testing
import _TestSupport

@testable import NetCDF

/// A classic-format file's contiguous float runs are read with `pread` from the layout its
/// header gives (`ClassicLayout`), past libnetcdf: every read must give libnetcdf's values,
/// to the bit, in each classic format, for fixed and record variables, and a slab that is
/// not one run is left to libnetcdf. Values the header places past the end of the file are
/// refused as a truncation, however they would be read (libnetcdf reads zeros, or what its
/// buffer last held).
@Suite struct ClassicLayoutTests {
  /// Every float variable of `path` read both ways (`ClassicReadComparison`): no read may
  /// differ.
  static func expectSameReads(of path: String, label: String) throws {
    let differences = try ClassicReadComparison.differences(of: path)
    #expect(differences.isEmpty, "\(label): \(differences.prefix(5).joined(separator: "; "))")
  }

  @Test func theClassicSamplesReadAsLibnetcdfReadsThem() throws {
    // The model samples, and classic files written by other tools (scipy's own writer
    // among them), with attributes of every kind, char and scalar variables and fills.
    let samples = [
      "mm5/mm5_d2_terrain.nc", "wrf/wrf_d01_allvars_lambert.cdf2.nc", "classic/xarray_bears.nc",
      "classic/xarray_example_1.nc", "classic/scipy_example_2.nc", "classic/scipy_example_3_maskedvals.nc",
    ]
    for sample in samples {
      let path = SampleFiles.grid(sample)
      let file = try NCFile.open(path)
      #expect(file.classicReads != nil, "\(sample) is classic")
      file.close()
      try Self.expectSameReads(of: path, label: sample)
    }
    let netcdf4 = try NCFile.open(SampleFiles.grid("cf/gfs_1deg_subset.nc"))
    #expect(netcdf4.classicReads == nil, "NetCDF-4 has no classic layout")
    netcdf4.close()
  }

  @Test(arguments: [NCFormat.classic, .classic64BitOffset, .cdf5])
  func everyClassicFormatReadsAsLibnetcdfReadsIt(format: NCFormat) throws {
    let directory = SampleFiles.temporaryDirectory("classic-layout")
    defer { SampleFiles.remove(directory) }
    for loneRecord in [false, true] {
      let path = "\(directory)/fixture.nc"
      try ClassicReadComparison.writeFixture(path, format: format, loneRecord: loneRecord)
      let file = try NCFile.open(path)
      let layout = try #require(file.classicReads?.layout, "\(format) is classic")
      file.close()
      // The lone short record variable's records are 3 shorts, unpadded; with the floats
      // beside it, each record holds 3 shorts padded to 8 bytes, then 35 and 105 floats.
      #expect(layout.recordBytes == (loneRecord ? 6 : 8 + 4 * 35 + 4 * 105), "\(format)")
      try Self.expectSameReads(of: path, label: "\(format), lone record \(loneRecord)")
    }
  }

  /// A file cut short after it was opened: a read of values past its end says so, naming
  /// the file and the variable, rather than returning what was not there: the contiguous
  /// run read with `pread`, and the half rows libnetcdf would read from a stale buffer.
  @Test func aFileCutShortUnderAReadIsReportedNamingTheVariable() throws {
    let directory = SampleFiles.temporaryDirectory("classic-truncated")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/fixture.nc"
    try ClassicReadComparison.writeFixture(path, format: .classic64BitOffset, loneRecord: false)
    let file = try NCFile.open(path)
    defer { file.close() }
    let placement = try #require(file.classicReads?.layout.placements["after"])
    let descriptor = try Posix.open(path, .readWrite)
    try Posix.ftruncate(descriptor, to: placement.begin + 10)
    Posix.close(descriptor)
    for (count, end) in [([3, 7], 84), ([2, 3], 40)] {
      let error = #expect(throws: NCError.self) { try file.readUnpacked("after", start: [0, 0], count: count) }
      #expect(
        error?.description
          == "\(path): after: the file ends at byte \(placement.begin + 10), before values its header places up to byte \(placement.begin + end): truncated?"
      )
      #expect(error?.code == NC_ETRUNC)
    }
    // What lies within the file still reads.
    #expect(try file.readUnpacked("after", start: [0, 0], count: [1, 2]).count == 2)
  }

  /// A read after the file was closed is refused as libnetcdf refuses it, naming the file
  /// and the variable, rather than read from the classic descriptor still held.
  @Test func aReadAfterCloseIsRefusedNamingTheVariable() throws {
    let directory = SampleFiles.temporaryDirectory("classic-closed")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/fixture.nc"
    try ClassicReadComparison.writeFixture(path, format: .classic64BitOffset, loneRecord: false)
    let file = try NCFile.open(path)
    #expect(file.classicReads != nil)
    file.close()
    let error = #expect(throws: NCError.self) { try file.readUnpacked("after", start: [0, 0], count: [3, 7]) }
    #expect(error?.description == "\(path): after: the file is closed")
    #expect(error?.code == NC_EBADID)
  }

  /// A CDF-5 header (big-endian, 64-bit counts and offsets) of `records` record variables of
  /// doubles over dimensions `(time, rows, columns)`.
  static func cdf5Header(records: Int, rows: UInt64, columns: UInt64) -> [UInt8] {
    var bytes: [UInt8] = Array("CDF".utf8) + [5]
    func u32(_ value: UInt32) { bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    func u64(_ value: UInt64) { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    func name(_ text: String) {
      u64(UInt64(text.utf8.count))
      bytes += Array(text.utf8) + [UInt8](repeating: 0, count: (4 - text.utf8.count % 4) % 4)
    }
    u64(1)  // records written
    u32(0x0A)
    u64(3)
    for (dimension, length) in [("time", UInt64(0)), ("y", rows), ("x", columns)] {
      name(dimension)
      u64(length)
    }
    u32(0)  // no global attributes
    u64(0)
    u32(0x0B)
    u64(UInt64(records))
    for index in 0..<records {
      name("v\(index)")
      u64(3)
      for id in [UInt64(0), 1, 2] { u64(id) }
      u32(0)  // no attributes
      u64(0)
      u32(6)  // double
      u64(0)  // vsize
      u64(4096)  // begin
    }
    return bytes
  }

  /// Lengths and offsets whose arithmetic overflows (a hostile header can declare any)
  /// leave a read no run of the file and place its values past any file's end, so that it
  /// is refused: never a trap.
  @Test func lengthsAndOffsetsThatOverflowLeaveNoRunAndNoEnd() throws {
    let directory = SampleFiles.temporaryDirectory("classic-overflow")
    defer { SampleFiles.remove(directory) }
    // Each record variable's record is 2^61 bytes, within what one variable may declare:
    // three fit an offset, and the fourth's sum saturates.
    let shape = [2, 1 << 30, 1 << 28]
    let row = (start: [1, 0, 0], count: [1, 1, 1 << 28])  // the second record's first row
    for (records, recordBytes) in [(3, 3 * (1 << 61)), (4, Int.max)] {
      let path = "\(directory)/huge-\(records).nc"
      try Data(Self.cdf5Header(records: records, rows: 1 << 30, columns: 1 << 28)).write(to: URL(fileURLWithPath: path))
      let descriptor = try Posix.open(path, .readOnly)
      defer { Posix.close(descriptor) }
      let layout = try #require(try ClassicLayout.read(descriptor: descriptor))
      #expect(layout.recordBytes == recordBytes, "\(records) record variables")
      let placement = try #require(layout.placements["v0"])
      let run = layout.contiguousRun(of: placement, shape: shape, start: row.start, count: row.count)
      let end = layout.end(of: placement, shape: shape, start: row.start, count: row.count)
      #expect(run?.offset == (records == 3 ? 4096 + recordBytes : nil))
      #expect(end == (records == 3 ? 4096 + recordBytes + (1 << 31) : nil))
    }
    // A run whose offset, or record offset, passes what an `Int` holds.
    let far = ClassicLayout.Placement(begin: Int.max - 100, isRecord: false, type: 5, shape: [64])
    let layout = ClassicLayout(placements: ["far": far], recordBytes: Int.max / 2)
    #expect(layout.contiguousRun(of: far, shape: [64], start: [0], count: [64]) == nil)
    #expect(layout.contiguousRun(of: far, shape: [64], start: [0], count: [16]) != nil)
    #expect(layout.end(of: far, shape: [64], start: [0], count: [64]) == nil)
    #expect(layout.end(of: far, shape: [64], start: [8], count: [8]) == Int.max - 100 + 64)
    #expect(layout.end(of: far, shape: [64], start: [8], count: [0]) == 0)  // no byte touched
    let record = ClassicLayout.Placement(begin: 0, isRecord: true, type: 5, shape: [0, 4])
    #expect(layout.contiguousRun(of: record, shape: [9, 4], start: [1, 0], count: [1, 4]) != nil)
    #expect(layout.contiguousRun(of: record, shape: [9, 4], start: [3, 0], count: [1, 4]) == nil)
  }

  /// A CDF-2 (or, with `version` 5, CDF-5) header written field by field, so that any
  /// field can be made malformed: a record dimension and a fixed one, a global `char`
  /// attribute, and one float record variable over both, followed by its `records` records.
  struct HandHeader {
    var version: UInt8 = 2
    var declaredRecords: UInt64?
    var dimensionTag: UInt32 = 0x0A
    var dimensionCount: UInt64 = 2
    var dimensions: [(name: String, length: UInt64)] = [("time", 0), ("x", 4)]
    var firstNameLength: UInt64?
    var attributeType: UInt32 = 2
    var attributeValues: UInt64 = 5
    var rank: UInt64 = 2
    var ids: [UInt64] = [0, 1]
    var variableType: UInt32 = 5
    var records = 3

    func bytes() -> [UInt8] {
      var bytes: [UInt8] = Array("CDF".utf8) + [version]
      func big(_ value: UInt64, bytes width: Int) {
        bytes += (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
      }
      func u32(_ value: UInt32) { big(UInt64(value), bytes: 4) }
      // Counts and lengths are 64 bits in CDF-5, 32 before (a wider value is cut).
      func count(_ value: UInt64) { big(value, bytes: version == 5 ? 8 : 4) }
      func name(_ text: String, length: UInt64? = nil) {
        count(length ?? UInt64(text.utf8.count))
        bytes += Array(text.utf8) + [UInt8](repeating: 0, count: (4 - text.utf8.count % 4) % 4)
      }
      count(declaredRecords ?? UInt64(records))
      u32(dimensionTag)
      count(dimensionCount)
      for (index, dimension) in dimensions.enumerated() {
        name(dimension.name, length: index == 0 ? firstNameLength : nil)
        count(dimension.length)
      }
      u32(0x0C)
      count(1)
      name("title")
      u32(attributeType)
      count(attributeValues)
      bytes += Array("model".utf8) + [0, 0, 0]
      u32(0x0B)
      count(1)
      name("t2")
      count(rank)
      for id in ids { count(id) }
      u32(0)  // no attributes
      count(0)
      u32(variableType)
      count(16)  // vsize: one record of 4 floats
      big(UInt64(bytes.count + 8), bytes: 8)  // begin, just after itself
      for value in 0..<(4 * records) { u32(Float(value).bitPattern) }
      return bytes
    }
  }

  /// libnetcdf 4.9 trusts a classic header's counts and lengths (fuzzing found it copying a
  /// long name past the caller's buffer, a memcpy of a negative size, and gigabytes
  /// allocated for a small file): such a header is refused before libnetcdf reads it,
  /// naming its fault. The header as written opens and reads; each change is refused, in a
  /// child capped at 256 MiB more address space than it starts with and two minutes of CPU,
  /// since a header the check let through would make libnetcdf allocate what it declares.
  @Test(.timeLimit(.minutes(2)))
  func aMalformedHeaderIsRefusedNamingItsFaultBeforeLibnetcdfReadsIt() async throws {
    let directory = SampleFiles.temporaryDirectory("classic-malformed")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/header.nc"
    for version: UInt8 in [2, 5] {
      try Data(HandHeader(version: version).bytes()).write(to: URL(fileURLWithPath: path))
      let valid = try NCFile.open(path)
      #expect(valid.classicReads != nil)
      #expect(try valid.readUnpacked("t2", start: [2, 0], count: [1, 4]) == [8, 9, 10, 11])
      valid.close()
    }
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      ResourceCaps.cap(megabytes: 256, cpuSeconds: 120)
      let directory = SampleFiles.temporaryDirectory("classic-malformed-capped")
      for (index, malformed) in ClassicLayoutTests.malformedHeaders.enumerated() {
        var header = HandHeader()
        malformed.change(&header)
        let damaged = "\(directory)/malformed-\(index).nc"
        let expected = "\(damaged): a malformed classic NetCDF header: \(malformed.fault)"
        do {
          try Data(header.bytes()).write(to: URL(fileURLWithPath: damaged))
          try NCFile.open(damaged).close()
          FileHandle.standardError.write(Data("opened \(damaged); expected: \(expected)\n".utf8))
        } catch let error as NCError where error.code == NC_ENOTNC && error.description.hasPrefix(expected) {
        } catch {
          FileHandle.standardError.write(Data("\(error); expected: \(expected)\n".utf8))
        }
      }
      SampleFiles.remove(directory)
      exit(0)  // a crash or a limit reached is the failure here; a wrong refusal, its account
    }
    // The child's own account of each header it did not refuse as expected.
    let account = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(!account.contains("expected:"), "\(account.prefix(4_000))")
    // Cut within the header; and cut within the attribute's padding, after its 5 values.
    let bytes = HandHeader().bytes()
    let values = try #require(bytes.indices.first { Array(bytes[$0..<$0 + 5]) == Array("model".utf8) })
    for (length, fault) in [
      (40, "the file ends within its header"),
      (values + 5, "attribute title of the file takes 8 bytes, more than the 5 left in the file"),
    ] {
      let cut = "\(directory)/cut-\(length).nc"
      try Data(bytes.prefix(length)).write(to: URL(fileURLWithPath: cut))
      let error = #expect(throws: NCError.self) { try NCFile.open(cut) }
      #expect(error?.description.contains(fault) == true, "\(error?.description ?? "")")
    }
  }

  /// The malformed headers: each a change to the valid `HandHeader`, and the start of the
  /// fault its refusal names.
  static var malformedHeaders: [(change: (inout HandHeader) -> Void, fault: String)] {
    [
      ({ $0.firstNameLength = .max }, "dimension 0's name is 4294967295 bytes long, not 1 to 256"),
      ({ $0.dimensions[1].name = String(repeating: "x", count: 300) }, "dimension 1's name is 300 bytes long"),
      ({ $0.firstNameLength = 0 }, "dimension 0's name is 0 bytes long"),
      ({ $0.dimensionCount = 1 << 30 }, "1073741824 dimensions declared, more than the"),
      ({ $0.attributeValues = 1 << 30 }, "attribute title of the file declares 1073741824 values"),
      ({ $0.attributeType = 7 }, "attribute title of the file has type 7, which CDF-2 does not define"),
      ({ $0.variableType = 12 }, "t2 has type 12, which CDF-2 does not define"),
      ({ $0.rank = 1 << 28 }, "268435456 dimensions of t2 declared"),
      ({ $0.ids = [0, 2] }, "t2's dimension 1 is 2, but the file has 2"),
      ({ $0.ids = [1, 0] }, "t2 has the record dimension other than first"),
      ({ $0.dimensions[1].length = 0 }, "x is a second record dimension"),
      ({ $0.version = 3 }, "CDF version 3 is not 1, 2 or 5"),
      ({ $0.dimensionTag = 0x0B }, "the dimensions list's tag is 11, not 10 or 0"),
      ({ $0.dimensionTag = 0 }, "an absent dimensions list declares 2 elements"),
      (
        {
          ($0.dimensionCount, $0.rank, $0.ids) = (3, 3, [0, 1, 2])
          $0.dimensions = [("time", 0), ("x", UInt64(UInt32.max)), ("y", UInt64(UInt32.max))]
        }, "t2's dimensions declare more than 2^63 bytes"
      ),
      // CDF-5's 64-bit counts: past `Int`, libnetcdf would hand them on as negative lengths.
      ({ ($0.version, $0.declaredRecords) = (5, 1 << 63) }, "the record count is 9223372036854775808, 2^63 or more"),
      (
        { ($0.version, $0.dimensions[1].length) = (5, .max) },
        "dimension x's length is 18446744073709551615, 2^63 or more"
      ),
    ]
  }

  /// Headers damaged a byte at a time (bounded: a fixed seed and count): whenever
  /// libnetcdf still opens the file, every float read through the layout gives what
  /// libnetcdf gives, or both fail; a header this parser does not follow leaves the file
  /// to libnetcdf. Never a crash, a hang or a different number.
  @Test func aDamagedHeaderIsReadAsLibnetcdfReadsItOrLeftToLibnetcdf() throws {
    let directory = SampleFiles.temporaryDirectory("classic-damaged")
    defer { SampleFiles.remove(directory) }
    let original = "\(directory)/fixture.nc"
    try ClassicReadComparison.writeFixture(original, format: .classic64BitOffset, loneRecord: false)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: original)))
    let layout = try #require(try NCFile.open(original).classicReads?.layout)
    let headerEnd = layout.placements.values.map(\.begin).min() ?? 0
    var random = TestRandom(seed: 77)
    var followed = 0
    for round in 0..<300 {
      var damaged = bytes
      let at = Int(random.next() % UInt64(headerEnd))
      damaged[at] ^= UInt8(1 << (random.next() % 8))
      let path = "\(directory)/damaged-\(round).nc"
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      guard let file = try? NCFile.open(path) else { continue }
      if file.classicReads != nil { followed += 1 }
      file.close()
      try Self.expectSameReads(of: path, label: "byte \(at) damaged")
    }
    // About a third of the damaged headers are still read both ways (97 of 300 with this
    // seed): the comparison above ran on them.
    #expect(followed > 50)
  }
}
