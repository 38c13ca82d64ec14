import Foundation
import Platform

/// What an ingest process has used: its peak resident memory (`getrusage`'s maxrss) and the
/// bytes it caused to be written to disk (`/proc/self/io`'s `write_bytes`, and
/// `cancelled_write_bytes`: bytes it dirtied whose write-back was cancelled, a file
/// truncated or removed before it reached the disk).
///
/// `nwpcube ingest` prints `line` after its summary, so that a script (the scale
/// benchmark) can compare the written bytes with the cube's size.
public struct IngestUsage: Sendable, Equatable {
  /// Peak resident set, bytes.
  public let peakResidentBytes: Int
  /// `write_bytes`, nil where `/proc/self/io` cannot be read.
  public let writtenBytes: Int?
  /// `cancelled_write_bytes`, nil where `/proc/self/io` cannot be read.
  public let cancelledBytes: Int?

  /// This process's usage so far.
  public static func current() -> IngestUsage {
    let peak = Posix.peakResidentBytes ?? 0
    let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)).map(Self.fields(of:)) ?? [:]
    return IngestUsage(
      peakResidentBytes: peak, writtenBytes: io["write_bytes"], cancelledBytes: io["cancelled_write_bytes"])
  }

  /// The `name: value` lines of a `/proc/<pid>/io` text.
  static func fields(of text: String) -> [String: Int] {
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) {
        fields[String(parts[0])] = value
      }
    }
    return fields
  }

  /// One line, exact byte counts in parentheses: `ingest used at most 412.3 MiB
  /// (432324608 bytes resident), wrote 1.2 GiB (1299000000 bytes) to disk, cancelled
  /// 0 bytes (0 bytes)`; without `/proc/self/io`, the memory and a note instead.
  public var line: String {
    let memory =
      "ingest used at most \(IngestCost.text(Double(peakResidentBytes))) (\(peakResidentBytes) bytes resident)"
    guard let writtenBytes, let cancelledBytes else {
      return "\(memory); bytes written to disk are not known here (no /proc/self/io)"
    }
    return
      "\(memory), wrote \(IngestCost.text(Double(writtenBytes))) (\(writtenBytes) bytes) to disk, cancelled \(IngestCost.text(Double(cancelledBytes))) (\(cancelledBytes) bytes)"
  }
}
