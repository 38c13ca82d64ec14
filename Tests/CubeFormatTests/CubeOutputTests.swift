import Foundation
import Testing
import _TestSupport

@testable import CubeFormat

/// A cube's output is written past the page cache where the file system allows it and
/// through it where not (`CubeOutput`): the file's bytes are the ones appended either way,
/// from the header's shared page to an unaligned tail.
@Suite struct CubeOutputTests {
  /// Appends `bytes` to a file in `directory` at `start` through a `CubeOutput`, in pieces
  /// of varying sizes, and returns the whole file.
  static func written(_ bytes: [UInt8], start: Int, in directory: String) throws -> [UInt8] {
    let path = directory + "/output"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    defer { try? handle.close() }
    var output = CubeOutput(descriptor: handle.fileDescriptor, start: start, largestItem: 4_096)
    var from = 0
    var piece = 1
    while from < bytes.count {
      let count = min(piece, bytes.count - from)
      bytes[from..<from + count].withUnsafeBytes { output.append($0) }
      from += count
      piece = piece * 7 % 300_001 + 1
    }
    output.flush()
    #expect(output.failure == nil)
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func theFileHoldsEveryByteAppendedPastThePageCacheOrThroughIt() throws {
    var random = TestRandom(seed: 17)
    // Three and a half write alignments: several whole writes, then a tail that is not
    // one of the device's blocks.
    let bytes = (0..<(CubeOutput.writeAlignment * 7 / 2 + 123)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    // The test's own temporary directory (a disk's file system, where direct writes are
    // usually taken) and, where there is one, a tmpfs (where they may be refused).
    var directories = [SampleFiles.temporaryDirectory("output")]
    if FileManager.default.fileExists(atPath: "/dev/shm") {
      let shm = "/dev/shm/nwpcube-output-\(UUID().uuidString)"
      if (try? FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: true)) != nil {
        directories.append(shm)
      }
    }
    defer { directories.forEach(SampleFiles.remove) }
    for directory in directories {
      // The output starting mid-page, as after a header, and at a page (of 4 KiB, the
      // usual one; on a system of larger pages both start mid-page).
      for start in [4_096 + 200, 8_192] {
        let file = try Self.written(bytes, start: start, in: directory)
        #expect(file.count == start + bytes.count, "\(directory), start \(start)")
        #expect(file.prefix(start).allSatisfy { $0 == 0 }, "\(directory), start \(start)")
        #expect(Array(file.dropFirst(start)) == bytes, "\(directory), start \(start)")
      }
    }
  }

  /// The writes are made on a thread of their own: a write the file refuses is still
  /// reported, by `flush()`, with its offset and the system's reason, and nothing after it
  /// is written.
  @Test func aRefusedWriteIsReportedByTheFlushThatWaitsForIt() throws {
    let directory = SampleFiles.temporaryDirectory("output-refused")
    defer { SampleFiles.remove(directory) }
    let path = directory + "/output"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    // Open for reading only: every write fails (EBADF), direct or not.
    let handle = try #require(FileHandle(forReadingAtPath: path))
    defer { try? handle.close() }
    var output = CubeOutput(descriptor: handle.fileDescriptor, start: 8_192, largestItem: 4_096)
    let bytes = [UInt8](repeating: 7, count: CubeOutput.writeAlignment * 3)
    bytes.withUnsafeBytes { output.append($0) }
    output.flush()
    let failure = try #require(output.failure)
    // The first write ends at the second write alignment: up to 2 MiB.
    #expect(
      failure == "cannot write \(2 * CubeOutput.writeAlignment - 8_192) bytes at offset 8192: Bad file descriptor")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
  }
}
