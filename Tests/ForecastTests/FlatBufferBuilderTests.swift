import Foundation
import Testing
import _TestSupport

@testable import OpenMeteoFace

/// nwpcube's FlatBuffers encoder makes the same bytes as the Python `flatbuffers` package
/// for the same calls, on messages shaped like Open-Meteo's `WeatherApiResponse`: every
/// block, an empty block, float values with NaN, int64 values with the missing sentinel,
/// strings, shared vtables, defaults left out, and several messages in one stream.
@Suite(.enabled(if: PythonReference.isAvailable, Comment(rawValue: PythonReference.unavailableReason)))
struct FlatBufferBuilderTests {
  /// One builder call, as both sides make it.
  enum Call {
    case string(String)
    case floats([Float])
    case int64s([Int64])
    case offsets([Int])
    case start(Int)
    case u8(Int, UInt8)
    case i16(Int, Int16)
    case i32(Int, Int32)
    case i64(Int, Int64)
    case f32(Int, Float)
    case offset(Int, Int)
    case end
    case finish(Int)

    var json: [Any] {
      switch self {
      case .string(let text): ["string", text]
      case .floats(let values): ["floats", values.map(\.bitPattern)]
      case .int64s(let values): ["int64s", values]
      case .offsets(let refs): ["offsets", refs]
      case .start(let count): ["start", count]
      case .u8(let slot, let value): ["scalar", "u8", slot, value]
      case .i16(let slot, let value): ["scalar", "i16", slot, value]
      case .i32(let slot, let value): ["scalar", "i32", slot, value]
      case .i64(let slot, let value): ["scalar", "i64", slot, value]
      case .f32(let slot, let value): ["scalar", "f32", slot, value.bitPattern]
      case .offset(let slot, let ref): ["offset", slot, ref]
      case .end: ["end"]
      case .finish(let ref): ["finish", ref]
      }
    }
  }

  /// The calls made on nwpcube's builder, one message after another in one builder.
  static func swiftBytes(_ messages: [[Call]]) -> [UInt8] {
    var builder = FlatBufferBuilder(capacity: 16)
    var out: [UInt8] = []
    for calls in messages {
      builder.clear()
      var refs: [FlatBufferBuilder.Offset] = []
      for call in calls {
        switch call {
        case .string(let text): refs.append(builder.string(text))
        case .floats(let values): refs.append(builder.vector(values))
        case .int64s(let values): refs.append(builder.vector(values))
        case .offsets(let indices): refs.append(builder.vector(indices.map { refs[$0] }))
        case .start(let count): builder.startTable(fieldCount: count)
        case .u8(let slot, let value): builder.add(value, slot: slot)
        case .i16(let slot, let value): builder.add(value, slot: slot)
        case .i32(let slot, let value): builder.add(value, slot: slot)
        case .i64(let slot, let value): builder.add(value, slot: slot)
        case .f32(let slot, let value): builder.add(value, slot: slot)
        case .offset(let slot, let ref): builder.add(refs[ref], slot: slot)
        case .end: refs.append(builder.endTable())
        case .finish(let ref): out.append(contentsOf: builder.finishSizePrefixed(root: refs[ref]))
        }
      }
    }
    return out
  }

  /// The same calls made by the Python package.
  static func pythonBytes(_ messages: [[Call]]) throws -> [UInt8] {
    let input = try JSONSerialization.data(withJSONObject: messages.map { $0.map(\.json) })
    let hex = String(decoding: try PythonReference.run(mode: "build", input: input), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
      index = next
    }
    return bytes
  }

  /// A variable: values (or int64 values, or a single value), then its scalars, in the
  /// order the Open-Meteo writer adds them: the calls and the ref of its table.
  static func variable(
    _ refs: inout Int, variable: UInt8, unit: UInt8, altitude: Int16 = 0, aggregation: UInt8 = 0,
    floats: [Float]? = nil, int64s: [Int64]? = nil, value: Float = 0
  ) -> (calls: [Call], table: Int) {
    var calls: [Call] = []
    var valuesRef: Int?
    var int64Ref: Int?
    if let floats {
      calls.append(.floats(floats))
      valuesRef = refs
      refs += 1
    }
    if let int64s {
      calls.append(.int64s(int64s))
      int64Ref = refs
      refs += 1
    }
    calls.append(.start(13))
    if let valuesRef { calls.append(.offset(3, valuesRef)) }
    if let int64Ref { calls.append(.offset(4, int64Ref)) }
    calls += [.f32(2, value), .i16(5, altitude), .u8(0, variable), .u8(1, unit), .u8(6, aggregation), .end]
    refs += 1
    return (calls, refs - 1)
  }

  /// A block of variables with its time range.
  static func block(
    _ refs: inout Int, _ variables: [(calls: [Call], table: Int)], time: Int64, end: Int64, interval: Int32
  ) -> [Call] {
    var calls = variables.flatMap(\.calls)
    calls.append(.offsets(variables.map(\.table)))
    let list = refs
    refs += 1
    calls += [.start(4), .i64(0, time), .i64(1, end), .offset(3, list), .i32(2, interval), .end]
    refs += 1
    return calls
  }

  /// A whole response: every block, a zone name, and optionally an empty hourly block.
  static func response(locationID: Int64, zone: String?, emptyHourly: Bool) -> [Call] {
    var refs = 0
    var calls: [Call] = []
    let current = [
      variable(&refs, variable: 47, unit: 1, altitude: 2, value: 21.4),
      variable(&refs, variable: 56, unit: 40, value: 3),
      variable(&refs, variable: 24, unit: 32, value: 0),
    ]
    calls += block(&refs, current, time: 1_782_036_000, end: 1_782_036_900, interval: 900)
    let currentRef = refs - 1
    let daily = [
      variable(&refs, variable: 47, unit: 1, altitude: 2, aggregation: 2, floats: [24.5, .nan, 19.25]),
      variable(&refs, variable: 40, unit: 37, int64s: [1_782_020_000, Int64.max, 1_782_106_500]),
    ]
    calls += block(&refs, daily, time: 1_782_000_000, end: 1_782_259_200, interval: 86_400)
    let dailyRef = refs - 1
    let hourlyVariables =
      emptyHourly
      ? [variable(&refs, variable: 47, unit: 1, altitude: 2, floats: [])]
      : [
        variable(&refs, variable: 47, unit: 1, altitude: 2, floats: [17.5, 18.25, -0.5, .nan]),
        variable(&refs, variable: 59, unit: 24, altitude: 10, floats: [12, 14.5, 9, 3.25]),
        variable(&refs, variable: 0, unit: 0, floats: [1, 2, 3, 4]),
      ]
    calls += block(&refs, hourlyVariables, time: 1_782_000_000, end: 1_782_014_400, interval: 3_600)
    let hourlyRef = refs - 1
    calls += block(&refs, [], time: 1_782_000_000, end: 1_782_000_000, interval: 900)
    let minutelyRef = refs - 1
    var zoneRefs: [Int] = []
    if let zone {
      calls += [.string(zone), .string("WEST")]
      zoneRefs = [refs, refs + 1]
      refs += 2
    }
    calls += [.start(15), .i64(4, locationID), .f32(0, 38.1294), .f32(1, -8.9341), .f32(2, .nan), .f32(3, 0.75)]
    calls.append(.i32(6, zone == nil ? 0 : 3_600))
    if zoneRefs.count == 2 { calls += [.offset(7, zoneRefs[0]), .offset(8, zoneRefs[1])] }
    calls += [.offset(9, currentRef), .offset(10, dailyRef), .offset(11, hourlyRef), .offset(12, minutelyRef)]
    calls += [.u8(5, 0), .end]
    calls.append(.finish(refs))
    return calls
  }

  @Test func messagesAreByteForByteThoseOfThePythonPackage() throws {
    let messages = [
      Self.response(locationID: 0, zone: "Europe/Lisbon", emptyHourly: false),
      Self.response(locationID: 1, zone: nil, emptyHourly: true),
      Self.response(locationID: 7, zone: "Atlantic/Azores", emptyHourly: false),
    ]
    let ours = Self.swiftBytes(messages)
    let theirs = try Self.pythonBytes(messages)
    #expect(ours.count == theirs.count)
    let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(firstDifference == nil, "first differing byte at \(firstDifference ?? -1) of \(ours.count)")
  }

  @Test func aTableOfDefaultsAndAnEmptyStringMatchToo() throws {
    let messages: [[Call]] = [
      [.string(""), .start(3), .offset(2, 0), .u8(0, 0), .i64(1, 0), .end, .finish(1)],
      [.start(2), .end, .finish(0)],
    ]
    #expect(Self.swiftBytes(messages) == (try Self.pythonBytes(messages)))
  }
}
