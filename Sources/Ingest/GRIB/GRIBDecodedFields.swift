import GRIB
import Synchronization

/// The reads of a GRIB run's fields by band: each band decodes only its own rows of a
/// simple-packed message, and a message that must be decoded whole (complex packing, as
/// GFS, NAM and HRRR write, JPEG 2000, PNG, CCSDS) is decoded once and kept, compact
/// (`GRIBDecodedField`), for the bands after it, within the memory the run's budget
/// leaves (`allow`).
///
/// Every band reads the steps in the same order, so a field kept is read again by every
/// later band: fields are kept as they come until the room is full, and none is dropped for
/// another, which no later band would read more often. A field that finds no room is
/// decoded again by each band, as before.
final class GRIBDecodedFields: Sendable {
  private struct Key: Hashable {
    let path: String
    let message: Int
  }

  private struct State {
    var room = 0
    var fields: [Key: GRIBDecodedField] = [:]
  }

  private let state = Mutex(State())

  /// The messages `recipes` read that are decoded whole, and the most bytes one of them
  /// takes kept (`GRIBFile.compactByteCount`): what a plan reserves room for.
  static func wholeFields(in recipes: [String: [GRIBRecipe]]) -> (count: Int, bytes: Double) {
    var seen = Set<Key>()
    var largest = 0
    for case .sum(let terms) in recipes.values.joined() {
      for term in terms where !term.field.file.decodesPointRanges(term.field.message) {
        let (file, message) = (term.field.file, term.field.message)
        guard seen.insert(Key(path: file.path, message: message.number)).inserted else { continue }
        largest = Swift.max(largest, file.compactByteCount(of: message))
      }
    }
    return (seen.count, Double(largest))
  }

  /// Lets the kept fields take up to `bytes` (0, the default: keep none, as for a run
  /// written in one band, which reads each field once anyway).
  func allow(_ bytes: Int) {
    state.withLock { $0.room = Swift.max(0, bytes) }
  }

  /// `field`'s values at the points `range`, not converted; NaN where the message marks a
  /// point missing.
  func values(of field: GRIBField, points range: Range<Int>) throws(IngestError) -> [Double] {
    do {
      return try read(field.file, field.message, points: range)
    } catch {
      throw IngestError(error)
    }
  }

  private func read(_ file: GRIBFile, _ message: GRIBMessage, points range: Range<Int>) throws(GRIBError) -> [Double] {
    // A whole decode gives exactly the message's points (`GRIBFile.readValues`).
    guard range.lowerBound >= 0, range.upperBound <= message.numberOfDataPoints else {
      throw GRIBError(
        reason: "\(message.numberOfDataPoints) values for a grid whose rows need points up to \(range.upperBound)",
        path: file.path, message: message.number, key: "values")
    }
    if file.decodesPointRanges(message) { return try file.values(of: message, points: range) }
    let key = Key(path: file.path, message: message.number)
    let decoded: GRIBDecodedField
    let (kept, room) = state.withLock { ($0.fields[key], $0.room) }
    if let kept {
      decoded = kept
    } else if room < message.numberOfDataPoints * MemoryLayout<UInt16>.stride {
      // No room even for the most compact form: the range of a whole decode, not kept.
      return Array(try file.values(of: message)[range])
    } else {
      decoded = try file.decodedField(of: message)
      state.withLock { state in
        guard state.room >= decoded.byteCount, state.fields[key] == nil else { return }
        state.fields[key] = decoded
        state.room -= decoded.byteCount
      }
    }
    var values = [Double](repeating: 0, count: range.count)
    values.withUnsafeMutableBufferPointer { decoded.read(range, into: $0) }
    return values
  }
}
