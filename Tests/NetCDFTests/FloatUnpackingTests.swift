import CVectorKernels
import Foundation
import Testing
import _TestSupport

@testable import NetCDF

/// Float variables are unpacked several values at a time; every value, at any position
/// (the tail of a read that is not a multiple of the stride included), must be the double
/// the CF definition gives, to the bit, at every vector kernel level this CPU runs
/// (`nwp_vector_level`; 0 is the portable Swift loop).
@Suite struct FloatUnpackingTests {
  /// The definition, written out: NaN where the raw value is NaN, below `valid_min`, above
  /// `valid_max` or equal to the fill value; `raw · scale_factor + add_offset` otherwise.
  private static func definition(
    _ raw: Float, scale: Double, offset: Double, fill: Double, range: ClosedRange<Double>
  )
    -> Double
  {
    let x = Double(raw)
    if x.isNaN || x < range.lowerBound || x > range.upperBound || x == fill { return .nan }
    return x * scale + offset
  }

  @Test(arguments: [NCFormat.netcdf4, .classic64BitOffset])
  func packedFloatsUnpackToTheDefinitionsDoublesAtEveryPosition(format: NCFormat) throws {
    let directory = SampleFiles.temporaryDirectory("floats")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/floats.nc"
    var generator = SystemRandomNumberGenerator()
    var raw: [Float] = [
      -999, .nan, .infinity, -.infinity, -0.0, 0, -500, 500, -500.00003, 500.00003, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude, 9.96921e36,
    ]
    // 4,099 values: not a multiple of four, with the specials again near the end.
    while raw.count < 4_090 { raw.append(Float.random(in: -600...600, using: &generator)) }
    raw += [-999, .nan, 500, -0.0, 1.5, -999, 7, .infinity, 3]
    let (scale, offset, fill) = (0.5, 10.25, -999.0)
    do {
      let file = try NCFile.create(path, format: format)
      defer { file.close() }
      try file.defineDimension("x", length: raw.count)
      try file.defineVariable("packed", type: .float, dimensions: ["x"])
      try file.setAttribute("scale_factor", .reals([scale]), on: "packed", type: .double)
      try file.setAttribute("add_offset", .reals([offset]), on: "packed", type: .double)
      try file.setAttribute("_FillValue", .reals([fill]), on: "packed", type: .float)
      try file.setAttribute("valid_min", .reals([-500]), on: "packed", type: .float)
      try file.setAttribute("valid_max", .reals([500]), on: "packed", type: .float)
      // No attributes: libnetcdf's default float fill is missing, everything else as read.
      try file.defineVariable("plain", type: .float, dimensions: ["x"])
      try file.endDefinitions()
      try file.write("packed", start: [0], count: [raw.count], raw)
      try file.write("plain", start: [0], count: [raw.count], raw)
    }
    let file = try NCFile.open(path)
    defer { file.close() }
    let same = { (value: Double, expected: Double) in
      expected.isNaN ? value.isNaN : value.bitPattern == expected.bitPattern
    }
    // Every start and length near the stride, so that each value is met in every lane
    // and in the scalar tail.
    for start in 0..<5 {
      for count in [0, 1, 3, 4, 5, 7, 8, raw.count - start - 1] {
        let packed = try file.readUnpacked("packed", start: [start], count: [count])
        let plain = try file.readUnpacked("plain", start: [start], count: [count])
        #expect(packed.count == count && plain.count == count)
        for index in 0..<count {
          let value = raw[start + index]
          let expected = Self.definition(value, scale: scale, offset: offset, fill: fill, range: -500...500)
          #expect(same(packed[index], expected), "packed[\(start + index)] = \(value) read as \(packed[index])")
          let plainExpected = Self.definition(
            value, scale: 1, offset: 0, fill: Double(Float(9.96921e36)), range: -.infinity...(.infinity))
          #expect(same(plain[index], plainExpected), "plain[\(start + index)] = \(value) read as \(plain[index])")
        }
      }
    }
  }

  /// The unpacking of one fill value, at each level, from every start near the vectors'
  /// eight values (so at addresses the kernels' loads do not find aligned) and for counts
  /// that leave a tail: every value is the definition's double, to the bit.
  @Test func everyKernelLevelUnpacksToTheDefinitionsDoubles() throws {
    let directory = SampleFiles.temporaryDirectory("float-levels")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/floats.nc"
    var random = TestRandom(seed: 4_099)
    var raw: [Float] = [
      -999, .nan, .infinity, -.infinity, -0.0, 0, -500, 500, -500.00003, 500.00003, .leastNonzeroMagnitude,
    ]
    while raw.count < 1_000 { raw.append(Float(random.uniform(-600...600))) }
    raw += [-999, .nan, 500, -0.0, 1.5, -999, 7, .infinity, 3]
    do {
      let file = try NCFile.create(path, format: .classic64BitOffset)
      defer { file.close() }
      try file.defineDimension("x", length: raw.count)
      try file.defineVariable("packed", type: .float, dimensions: ["x"])
      try file.setAttribute("scale_factor", .reals([0.1]), on: "packed", type: .double)
      try file.setAttribute("add_offset", .reals([-3.3]), on: "packed", type: .double)
      try file.setAttribute("_FillValue", .reals([-999]), on: "packed", type: .float)
      try file.setAttribute("valid_range", .reals([-500, 500]), on: "packed", type: .float)
      try file.endDefinitions()
      try file.write("packed", start: [0], count: [raw.count], raw)
    }
    let file = try NCFile.open(path)
    defer { file.close() }
    let packing = CFPacking(try file.variable("packed"))
    for level in Int32(0)...nwp_vector_level() {
      for start in 0..<9 {
        for count in [0, 1, 7, 8, 9, 16, 17, raw.count - start] {
          let values = raw.withUnsafeBufferPointer {
            packing.unpacked(UnsafeBufferPointer(rebasing: $0[start..<start + count]), level: level)
          }
          for (index, value) in values.enumerated() {
            let expected = Self.definition(raw[start + index], scale: 0.1, offset: -3.3, fill: -999, range: -500...500)
            #expect(
              expected.isNaN ? value.isNaN : value.bitPattern == expected.bitPattern,
              "level \(level): \(raw[start + index]) at \(start + index) read as \(value)")
          }
        }
      }
    }
  }
}
