import Foundation
import Testing
import _TestSupport

@testable import CubeFormat

/// A version 2 cube whose cell table is written to in place after it was opened and verified
/// (an operator's `dd conv=notrunc` or `cp` over a served cube, with no lease to stop it):
/// the shared mapping sees the new bytes, and no entry may send a read outside its section.
/// A damaged entry reads as missing; every other cell still reads what the file holds,
/// decoded independently from its bytes (`RawCube`).
@Suite struct DamagedInPlaceTests {
  /// Writes `bytes` at `offset` of the file at `path` in place, through a descriptor of its
  /// own, as `dd conv=notrunc` does.
  static func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
    let descriptor = open(path, O_WRONLY)
    try #require(descriptor >= 0, "cannot open \(path) for writing")
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
    try #require(written == bytes.count)
  }

  /// Every word of every metric, cell and step, read through both of `CubeFile`'s paths
  /// (one word, and a series into a buffer), which must agree.
  static func allWords(_ file: CubeFile) -> [[[UInt16]]] {
    (0..<SmallCube.names.count).map { metric in
      (0..<(SmallCube.width * SmallCube.height)).map { cell in
        var series = [UInt16](repeating: 0, count: SmallCube.stepCount)
        series.withUnsafeMutableBufferPointer { buffer in
          guard let start = buffer.baseAddress else { return }
          file.words(metric: metric, cell: cell, steps: 0..<SmallCube.stepCount, into: start)
        }
        let single = (0..<SmallCube.stepCount).map { file.word(metric: metric, cell: cell, step: $0) }
        #expect(single == series, "metric \(metric) cell \(cell)")
        return series
      }
    }
  }

  @Test func aCellTableOverwrittenWithFFBytesAfterOpeningReadsAsMissing() throws {
    let directory = SampleFiles.temporaryDirectory("damaged-table")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/small.cube"
    let raw = RawCube(try SmallCube.write(to: path))
    let file = try CubeFile(path: path)
    #expect(raw.version == 2)
    let cells = SmallCube.width * SmallCube.height
    let expected = (0..<SmallCube.names.count).map { metric in
      (0..<cells).map { cell in (0..<SmallCube.stepCount).map { raw.word(metric, cell: cell, step: $0) } }
    }
    #expect(Self.allWords(file) == expected)

    // The rain metric's whole table, as the battery's `dd` did.
    try Self.overwrite(path, at: raw.dataOffset(1), with: Array(repeating: 0xFF, count: cells * 8))
    let words = Self.allWords(file)
    #expect(words[0] == expected[0])
    #expect(words[1].allSatisfy { $0 == Array(repeating: CubeMetric.missing, count: SmallCube.stepCount) })
    #expect(words[2] == expected[2])
  }

  @Test func anEntryThatPointsPastItsPayloadsOrIsWiderThanSixteenBitsReadsAsMissing() throws {
    let directory = SampleFiles.temporaryDirectory("damaged-entry")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/small.cube"
    let raw = RawCube(try SmallCube.write(to: path))
    let (metric, cell) = (0, 5)
    let end = raw.dataBytes(metric) - 8  // where payloads end: the 8 bytes of padding follow
    func entry(offset: Int, reference: Int, width: Int) -> [UInt8] {
      littleEndian(UInt64(offset) | UInt64(reference) << 32 | UInt64(width) << 48, count: 8)
    }
    let sixteen = (SmallCube.stepCount * 16 + 7) / 8
    let cases: [(label: String, entry: [UInt8], damaged: Bool)] = [
      ("offset at the section's end", entry(offset: raw.dataBytes(metric), reference: 0, width: 1), true),
      ("largest offset", entry(offset: 0xFFFF_FFFF, reference: 0, width: 16), true),
      ("16-bit payload one byte past the end", entry(offset: end - sixteen + 1, reference: 0, width: 16), true),
      ("width 17", entry(offset: raw.cellEntry(metric, cell: cell).offset, reference: 0, width: 17), true),
      ("width 255", entry(offset: raw.cellEntry(metric, cell: cell).offset, reference: 0, width: 255), true),
      // In bounds, though not this cell's: other words, but no read outside the section.
      ("16-bit payload ending at the end", entry(offset: end - sixteen, reference: 0, width: 16), false),
    ]
    for (label, bytes, damaged) in cases {
      _ = try SmallCube.write(to: path)
      let file = try CubeFile(path: path)
      try Self.overwrite(path, at: raw.dataOffset(metric) + 8 * cell, with: bytes)
      let words = Self.allWords(file)
      if damaged {
        #expect(words[metric][cell] == Array(repeating: CubeMetric.missing, count: SmallCube.stepCount), "\(label)")
      } else {
        // What the entry as written decodes to, from the file's bytes as they now are.
        let now = RawCube([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(
          words[metric][cell] == (0..<SmallCube.stepCount).map { now.word(metric, cell: cell, step: $0) }, "\(label)")
      }
      // The cells around it are untouched.
      for other in [cell - 1, cell + 1] {
        #expect(
          words[metric][other] == (0..<SmallCube.stepCount).map { raw.word(metric, cell: other, step: $0) },
          "\(label): cell \(other)")
      }
    }
  }
}
