import CubeFormat
import Foundation
import GridGeometry
import PointQuery
import Testing
import _TestSupport

/// The inputs of issue 10 that trapped every reader (fields set to impossible values, the
/// checksums recomputed), each now a one-line refusal naming the file and the field, by
/// `CubeFile`, by `Cube` and by `nwpcube info`.
@Suite struct ImpossibleFieldTests {
  /// The cube, resealed after writing `bytes` at `offset`.
  private static func mutated(_ base: [UInt8], _ edits: [(Int, [UInt8])], to path: String) throws {
    var bytes = base
    for (offset, value) in edits { bytes.set(value, at: offset) }
    CubeFile.reseal(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static let window = "1900-01-01T00:00:00Z…2200-12-31T23:59:59Z"

  /// Each crashing input of the issue and the reason it is refused with.
  static let cases: [(name: String, edits: [(Int, [UInt8])], reason: String)] = [
    (
      "geometry offset 2^63", [(144, littleEndian(1 << 63, count: 8))],
      "corrupted: geometry offset 9223372036854775808 is not 576, where a cube of 3 metrics has it"
    ),
    (
      "grid of 2^32-1 × 2^32-1 cells",
      [(24, littleEndian(0xFFFF_FFFF, count: 4)), (28, littleEndian(0xFFFF_FFFF, count: 4))],
      "corrupted: width 4294967295 is not in 1…100000 cells"
    ),
    (
      "step of 2^63-1 s", [(48, littleEndian(UInt64(Int64.max), count: 8))],
      "corrupted: step length 9223372036854775807 s is not in 1 s…31 days (2678400 s)"
    ),
    (
      "run start -2^63", [(56, littleEndian(UInt64(bitPattern: .min), count: 8))],
      "corrupted: run start -9223372036854775808 is not a time in \(window)"
    ),
    (
      "first step -2^63", [(40, littleEndian(UInt64(bitPattern: .min), count: 8))],
      "corrupted: first step -9223372036854775808 is not a time in \(window)"
    ),
    (
      "last step past 2200", [(48, littleEndian(2_678_400, count: 8)), (40, littleEndian(7_289_000_000, count: 8))],
      "corrupted: last step (first step 7289000000 + 4 × 2678400 s) is not a time in \(window)"
    ),
    (
      "height 2^32-1", [(28, littleEndian(0xFFFF_FFFF, count: 4))],
      "corrupted: height 4294967295 is not in 1…100000 cells"
    ),
    (
      "steps 2^32-1", [(32, littleEndian(0xFFFF_FFFF, count: 4))],
      "corrupted: step count 4294967295 is not in 1…1000000"
    ),
    (
      // Version 2's sections keep their sizes, so the file still adds up: the first table
      // entry past cell 0 finds its payload one step's bits early.
      "shape of the right size class", [(32, littleEndian(6, count: 4))],
      "corrupted: metric 0 (temp) cell 1 payload offset 199 is not 200, where the payload before it ends"
    ),
    (
      "data offset 2^64-1", [(256 + 96 + 64, littleEndian(.max, count: 8))],
      "corrupted: metric 1 (rain) data offset 18446744073709551615 is not 1152, where a 6×4×5 cube's block 1 starts"
    ),
    (
      "data bytes 2^63", [(256 + 72, littleEndian(1 << 63, count: 8))],
      "corrupted: shape 6×4×5 with 3 metrics and a terrain section and data sections of 9223372036854775808, 350, 201 bytes does not match the file's 1912 bytes"
    ),
    (
      "scale that overflows", [(256 + 96 + 48, littleEndian(1e305.bitPattern, count: 8))],
      "corrupted: metric 1 (rain) decodes up to offset 0.0 + scale 1e+305 × 65534, not a finite number"
    ),
    (
      "scale NaN", [(256 + 48, littleEndian(Double.nan.bitPattern, count: 8))],
      "corrupted: metric 0 (temp) scale nan is not a finite positive number"
    ),
    (
      "offset infinite", [(256 + 192 + 56, littleEndian(Double.infinity.bitPattern, count: 8))],
      "corrupted: metric 2 (hum) offset inf is not a finite number"
    ),
    (
      "temporal kind 7", [(256 + 40, littleEndian(7, count: 4))],
      "corrupted: metric 0 (temp) temporal kind 7 is not 0 (instantaneous), 1 (hourly amount) or 2 (category)"
    ),
    (
      "sentinel 0", [(256 + 44, littleEndian(0, count: 2))],
      "corrupted: metric 0 (temp) missing-value sentinel 0 is not 65535"
    ),
    (
      "duplicate metric name", [(256 + 96, Array("temp\0".utf8))],
      "corrupted: metric 1 (temp) appears twice in the metric table"
    ),
    (
      "name without NUL", [(256, Array(repeating: 0x61, count: 24))],
      "corrupted: metric 0 name is not NUL-terminated UTF-8 text"
    ),
    (
      "invalid UTF-8 unit", [(256 + 24, [0xC3, 0])],
      "corrupted: metric 0 (temp) unit is not NUL-terminated UTF-8 text"
    ),
    (
      "control character in a name", [(256, Array("te\np\0".utf8))],
      "corrupted: metric 0 name 'te?p' is not 1…23 bytes of printable text"
    ),
    (
      "grid spacing NaN", [(64, littleEndian(Double.nan.bitPattern, count: 8))],
      "corrupted: grid spacing nan m is not in 0.0…21000000.0 m"
    ),
    (
      "model with a slash", [(176, Array("../x\0".utf8))],
      "corrupted: model name '../x' is not 1…31 letters, digits, _ - or . (not starting with .)"
    ),
    (
      "metric count 2^32-1", [(36, littleEndian(0xFFFF_FFFF, count: 4))],
      "corrupted: inconsistent header size (544 bytes for 4294967295 metrics, at most 256)"
    ),
  ]

  @Test(arguments: cases.indices)
  func anImpossibleFieldIsRefusedByNameNotATrap(index: Int) throws {
    let (name, edits, reason) = Self.cases[index]
    let directory = SampleFiles.temporaryDirectory("impossible")
    defer { SampleFiles.remove(directory) }
    let base = try SmallCube.write(to: "\(directory)/base.cube")
    let path = "\(directory)/bad.cube"
    try Self.mutated(base, edits, to: path)
    let error = #expect(throws: CubeError.self, "\(name)") { try CubeFile(path: path) }
    #expect(error?.path == path)
    #expect(error?.reason == reason, "\(name)")
    let queryError = #expect(throws: QueryError.self, "\(name)") { try Cube(path: path) }
    #expect(queryError?.description == "\(path): \(reason)", "\(name)")
    // Every case here is in the header, which reading the header alone refuses alike, but
    // for the one found in a section's table, which the header alone does not read.
    guard !reason.contains("payload offset") else {
      #expect(try CubeFile.header(path: path).stepCount == 6)
      return
    }
    let headerError = #expect(throws: CubeError.self, "\(name)") { try CubeFile.header(path: path) }
    #expect(headerError?.reason == reason, "header alone: \(name)")
  }

  /// `nwpcube info` on such a cube exits with status 1 and one line naming the file and the
  /// field, like any other unreadable cube.
  @Test func infoRefusesAnImpossibleCubeInOneLine() throws {
    let directory = SampleFiles.temporaryDirectory("impossible-info")
    defer { SampleFiles.remove(directory) }
    let base = try SmallCube.write(to: "\(directory)/base.cube")
    let path = "\(directory)/bad.cube"
    try Self.mutated(base, [(48, littleEndian(UInt64(Int64.max), count: 8))], to: path)
    let outcome = try CommandLineTool.run(["info", path])
    #expect(outcome.status == 1, "status \(outcome.status): \(outcome.standardError)")
    #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
    #expect(outcome.standardError.contains("\(path): corrupted: step length 9223372036854775807 s"))
    #expect(outcome.standardOutput.isEmpty)

    // The same cube at the edges of every limit reads, and info describes it.
    let edges = "\(directory)/edges.cube"
    try Self.mutated(
      base,
      [
        (40, littleEndian(UInt64(bitPattern: -2_208_988_800), count: 8)),
        (56, littleEndian(UInt64(bitPattern: -2_208_988_800), count: 8)), (48, littleEndian(2_678_400, count: 8)),
        (64, littleEndian(21_000_000.0.bitPattern, count: 8)),
        (256 + 48, littleEndian(Double.leastNonzeroMagnitude.bitPattern, count: 8)),
        (256 + 96 + 48, littleEndian(1e300.bitPattern, count: 8)),
      ], to: edges)
    let described = try CommandLineTool.run(["info", edges])
    #expect(described.status == 0, "\(described.standardError)")
    #expect(described.standardOutput.contains("run 1900010100"))
    #expect(described.standardOutput.contains("time      1900-01-01T00:00:00Z to 1900-05-05T00:00:00Z every 744 h"))
    #expect(described.standardOutput.contains("1912 bytes for 360 values (5.311 bytes per value)"))
  }

  /// The header's projection parameters are only a claim: absurd ones make `MapProjection`
  /// throw (so that `Cube` falls back to the generic locator), never trap.
  static let projectionCases: [(code: Int, parameters: [Double], reason: String)] = [
    (
      1, [1e308, 60, -8, 0, 0, 90, 0, 12_000.0],
      "TRUELAT1 1e+308 is not a latitude strictly between the equator and a pole"
    ),
    (1, [30, 60, .infinity, 0, 0, 90, 0, 12_000], "STAND_LON inf is not a longitude"),
    (1, [30, -60, -8, 0, 0, 90, 0, 12_000], "TRUELAT2 -60.0 is not in TRUELAT1 30.0's hemisphere"),
    (1, [30, 60, -8, 0, 0, 90, 0, 0], "DX 0.0 is not a positive grid spacing"),
    (1, [30, 60, -8, 0, 0, 90, 0, -12_000], "DX -12000.0 is not a positive grid spacing"),
    (1, [30, 60, -8, 0, 0, 90, 0, .nan], "DX nan is not a positive grid spacing"),
    (3, [30, 60, -8, 0, 0, 90, 0, 1e-300], "DX 1e-300 m is not in 1…21000000 m"),
    (3, [30, 60, -8, 0, 0, 90, 0, 1e300], "DX 1e+300 m is not in 1…21000000 m"),
    (3, [.nan, 60, -8, 0, 0, 90, 0, 12_000], "TRUELAT1 nan is not a latitude off the poles"),
    (2, [-.infinity, 60, -8, 0, 0, 90, 0, 12_000], "TRUELAT1 -inf is not a latitude"),
    (6, [30, 60, -8, 0, 0, 1e300, 0, 12_000], "POLE_LAT 1e+300 is not a latitude"),
    (6, [30, 60, .nan, 0, 0, 45, 0, 12_000], "STAND_LON nan is not a longitude"),
    (7, [30, 60, -8, 0, 0, 90, 0, 12_000], "MAP_PROJ 7 is not a projection with an analytic mapping (1, 2, 3 or 6)"),
    (1, [30, 60, -8], "expected 8 projection parameters, got 3"),
  ]

  @Test(arguments: projectionCases.indices)
  func absurdProjectionParametersAreRefused(index: Int) throws {
    let (code, parameters, reason) = Self.projectionCases[index]
    let grid = try CurvilinearGrid(
      width: 2, height: 2, latitudes: [38, 38, 38.1, 38.1], longitudes: [-12, -11.9, -12, -11.9])
    let error = #expect(throws: GeometryError.self) {
      try MapProjection(wrfCode: code, parameters: parameters, grid: grid)
    }
    #expect(error == .projectionRejected(reason))
  }

  /// Every parameter at every extreme (and every code a u32 field can hold near the known
  /// ones): an answer or a `GeometryError`, never a trap; an answer maps the first cell to
  /// (0, 0) when it maps it at all.
  @Test func everyExtremeProjectionParameterGivesAnAnswerOrAnError() throws {
    let grid = try CurvilinearGrid(
      width: 2, height: 2, latitudes: [38, 38, 38.1, 38.1], longitudes: [-12, -11.9, -12, -11.9])
    let extremes: [Double] = [
      .nan, .infinity, -.infinity, 0, -0.0, 1e308, -1e308, .leastNonzeroMagnitude, 90, -90, 89.999_999, 180, -360,
      360.000_001, 1, 12_000,
    ]
    let base: [Double] = [30, 60, -8, 38, -12, 90, 0, 12_000]
    var accepted = 0
    for code in [0, 1, 2, 3, 4, 6, 105, Int(UInt32.max)] {
      for index in base.indices {
        for value in extremes {
          var parameters = base
          parameters[index] = value
          guard let projection = try? MapProjection(wrfCode: code, parameters: parameters, grid: grid) else { continue }
          accepted += 1
          if let origin = projection.gridCoordinates(latitude: 38, longitude: -12) {
            #expect(abs(origin.x) < 1e-6 && abs(origin.y) < 1e-6, "code \(code), parameter \(index) = \(value)")
          }
        }
      }
    }
    #expect(accepted > 0)
  }

  /// The limits a writer checks are the reader's: a header outside them is named by
  /// `CubeLimits.problem(in:)`, a header inside them is not.
  @Test func theLimitsNameTheFirstFieldOutsideThem() {
    var header = CubeHeader(
      width: 6, height: 4, stepCount: 5, firstTime: 0, stepSeconds: 3600, runStart: 0, model: "wrf", domain: "d01",
      gridSpacing: 0, projection: CubeProjection(code: 0, parameters: []),
      metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150)])
    #expect(CubeLimits.problem(in: header) == nil)
    header.width = Int.max
    #expect(header.cells == Int.max)
    #expect(CubeLimits.problem(in: header) == "width \(Int.max) is not in 1…100000 cells")
    header.width = 100_000
    header.height = 100_000
    #expect(CubeLimits.problem(in: header) == "100000 × 100000 = 10000000000 cells is not in 1…2147483647")
    header.height = 4
    header.stepCount = Int.max
    header.stepSeconds = Int64.max
    #expect(header.lastTime == .max)
    header.stepCount = 5
    #expect(CubeLimits.problem(in: header) == "step length 9223372036854775807 s is not in 1 s…31 days (2678400 s)")
    header.stepSeconds = 60
    header.metrics = []
    #expect(CubeLimits.problem(in: header) == "metric count 0 is not in 1…256")
  }
}

/// A cube whose times lie before 1970 (negative Unix seconds) is within the limits; asking
/// it for the steps between the widest bounds a caller can give once overflowed while
/// subtracting the first step.
@Test func stepsBetweenAnyBoundsOnACubeBefore1970() throws {
  let directory = SampleFiles.temporaryDirectory("early-cube")
  defer { SampleFiles.remove(directory) }
  let path = "\(directory)/early.cube"
  var bytes = try SmallCube.write(to: path)
  let first: Int64 = -2_208_988_800  // 1900-01-01T00:00:00Z, the earliest a cube may hold
  bytes.set(littleEndian(UInt64(bitPattern: first), count: 8), at: 40)
  bytes.set(littleEndian(UInt64(bitPattern: first), count: 8), at: 56)
  CubeFile.reseal(&bytes)
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  let cube = try Cube(path: path)
  #expect(cube.firstTime == first)
  #expect(try cube.stepIndices(from: .min, to: .max) == 0..<SmallCube.stepCount)
  #expect(try cube.stepIndices(from: .min, to: first + 3600) == 0..<2)
  #expect(try cube.stepIndices(from: first + 1, to: .max) == 1..<SmallCube.stepCount)
  #expect(throws: QueryError.self) { try cube.stepIndices(from: cube.lastTime + 1, to: .max) }
  #expect(throws: QueryError.self) { try cube.stepIndices(from: .min, to: first - 1) }
}

/// The writer applies the reader's limits first, so that it never writes a cube readers
/// refuse, and says which field is wrong.
@Test func theWriterRefusesAHeaderOutsideTheLimits() throws {
  let directory = SampleFiles.temporaryDirectory("writer-limits")
  defer { SampleFiles.remove(directory) }
  let destination = "\(directory)/wrf/d01/2026062000.cube"
  let metric = CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150)
  for (header, reason) in [
    (
      CubeHeader(
        width: 2, height: 2, stepCount: 3, firstTime: 1_750_003_200, stepSeconds: 0, runStart: 1_750_003_200,
        model: "wrf", domain: "d01", gridSpacing: 9000, projection: CubeProjection(code: 0, parameters: []),
        metrics: [metric]),
      "cannot write: step length 0 s is not in 1 s…31 days (2678400 s)"
    ),
    (
      CubeHeader(
        width: 2, height: 2, stepCount: 3, firstTime: 1_750_003_200, stepSeconds: 3600, runStart: 1_750_003_200,
        model: "wrf", domain: "d01", gridSpacing: .nan, projection: CubeProjection(code: 0, parameters: []),
        metrics: [metric]),
      "cannot write: grid spacing nan m is not in 0.0…21000000.0 m"
    ),
  ] {
    let error = #expect(throws: CubeError.self) {
      _ = try CubeWriter(header: header, latitudes: [0, 0, 1, 1], longitudes: [0, 1, 0, 1], destination: destination)
    }
    #expect(error?.description == "\(destination): \(reason)")
  }
  let wrongGeometry = CubeHeader(
    width: 2, height: 2, stepCount: 3, firstTime: 1_750_003_200, stepSeconds: 3600, runStart: 1_750_003_200,
    model: "wrf", domain: "d01", gridSpacing: 9000, projection: CubeProjection(code: 0, parameters: []),
    metrics: [metric])
  let error = #expect(throws: CubeError.self) {
    _ = try CubeWriter(header: wrongGeometry, latitudes: [0, 0, 1], longitudes: [0, 1, 0], destination: destination)
  }
  #expect(error?.description == "\(destination): cannot write: 3 latitudes and 3 longitudes for 4 cells")
}
