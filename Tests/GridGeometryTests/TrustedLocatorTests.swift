import Foundation
import GridGeometry
import NetCDF
import Testing
import _TestSupport

/// The locators a cube's record vouches for, built without looking at the cells: they must
/// answer as the checked locators do, brute force being the judge, and their stored index
/// must never be trusted beyond what it can say.
@Suite struct TrustedLocatorTests {
  /// The index a checked build records, decoded as a reader decodes it.
  private func roundTrip(_ locator: GridLocator) throws -> LocatorIndex {
    let bytes = try #require(LocatorIndex(locator)?.encoded)
    #expect(bytes.count == LocatorIndex.encodedBytes)
    return try bytes.withUnsafeBytes { raw in
      try LocatorIndex(decoding: raw, width: locator.grid.width, height: locator.grid.height)
    }
  }

  @Test(arguments: analyticCases)
  func anAnalyticLocatorFromItsIndexEqualsBruteForce(_ analyticCase: AnalyticCase) throws {
    let (grid, projection) = try analyticCase.make()
    let checked = try GridLocator(grid: grid, projection: projection)
    guard checked.kind == .analytic else { return }
    let index = try roundTrip(checked)
    #expect(index.kind == .analytic)
    #expect(index.margin == checked.analytic?.margin)
    let trusted = try #require(GridLocator(grid: grid, index: index, projection: projection))
    let analytic = try #require(trusted.analytic)
    // Nothing was built per cell.
    #expect(analytic.buildWork == 0)
    checkAgainstBruteForce(analytic, seed: UInt64(analyticCase.name.utf8.count) + 7, nearBoundaries: 2_000)
  }

  /// Bit 0 alone (no index): the largest margin, so more comparisons on the sphere, the
  /// same answers.
  @Test(arguments: analyticCases)
  func anAnalyticLocatorOnTheRecordsWordEqualsBruteForce(_ analyticCase: AnalyticCase) throws {
    let (grid, projection) = try analyticCase.make()
    let trusted = GridLocator(grid: grid, trusting: projection)
    let analytic = try #require(trusted.analytic)
    #expect(analytic.margin == AnalyticLocator.largestMargin)
    checkAgainstBruteForce(analytic, seed: UInt64(analyticCase.name.utf8.count) + 11, nearBoundaries: 2_000)
  }

  /// Bilinear positions too: the trusted locator projects a quad's corners as it needs
  /// them, the checked one reads them from its tables; both must agree to rounding.
  @Test(arguments: analyticCases)
  func trustedPositionsEqualTheCheckedLocators(_ analyticCase: AnalyticCase) throws {
    let (grid, projection) = try analyticCase.make()
    guard let checked = try? AnalyticLocator(grid: grid, projection: projection) else { return }
    let trusted = AnalyticLocator(trusting: projection, grid: grid, margin: checked.margin)
    // Before its tables are made (what the command line uses), and after (what a server
    // uses once its refresh has made them).
    let prepared = AnalyticLocator(trusting: projection, grid: grid, margin: checked.margin)
    prepared.prepareTables()
    prepared.prepareTables()
    var random = TestRandom(seed: 29)
    for _ in 0..<2_000 {
      let point = GridSampling.point(
        x: random.uniform(-0.45...(Double(grid.width) - 0.55)), y: random.uniform(-0.45...(Double(grid.height) - 0.55)),
        width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      let expected = try #require(checked.position(latitude: point.latitude, longitude: point.longitude))
      for locator in [trusted, prepared] {
        let got = try #require(locator.position(latitude: point.latitude, longitude: point.longitude))
        #expect(got.i == expected.i && got.j == expected.j)
        #expect(abs(got.x - expected.x) < 1e-9 && abs(got.y - expected.y) < 1e-9, "\(got) vs \(expected)")
      }
    }
    checkAgainstBruteForce(prepared, seed: 31, count: 2_000, nearBoundaries: 1_000)
    for cell in stride(from: 0, to: grid.count, by: 97) {
      let node = try #require(
        trusted.position(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
      #expect(abs(node.x - Double(cell % grid.width)) < 1e-9 && abs(node.y - Double(cell / grid.width)) < 1e-9)
    }
    checkOutside(trusted)
  }

  /// A lattice from its index looks only at its axes, and answers as the checked one.
  @Test func aLatticeFromItsIndexEqualsBruteForce() throws {
    let file = try NCFile.open(SampleFiles.grid("cf/gfs_1deg_subset.nc"))
    defer { file.close() }
    let latitudes = try file.readFloats("lat", start: [0], count: [46])
    let longitudes = try file.readFloats("lon", start: [0], count: [101])
    let grid = try CurvilinearGrid(
      width: 101, height: 46, latitudes: latitudes.flatMap { latitude in longitudes.map { _ in latitude } },
      longitudes: latitudes.flatMap { _ in longitudes })
    let checked = try GridLocator(grid: grid, projection: nil)
    let index = try roundTrip(checked)
    #expect(index.kind == .lattice)
    let trusted = try #require(GridLocator(grid: grid, index: index, projection: nil))
    let regular = try #require(trusted.regular)
    #expect(regular.buildWork == 4 * (101 + 46))
    checkAgainstBruteForce(regular, seed: 41, nearBoundaries: 2_000)
    checkOutside(regular)
  }

  /// A grid that gets the generic locator has no index (yet): its reader builds it.
  @Test func aCurvilinearGridHasNoIndex() throws {
    let (grid, projection) = try #require(analyticCases.first).make()
    // Without its projection, a Lambert grid gets the generic locator.
    #expect(try GridLocator(grid: grid, projection: nil).kind == .curvilinear)
    #expect(LocatorIndex.encode(grid: grid, projection: nil) == nil)
    #expect(LocatorIndex.encode(grid: grid, projection: projection)?.count == LocatorIndex.encodedBytes)
  }
}

/// Decoding a stored index: each field is checked against the header and what a build can
/// produce, with a message naming it, and no bytes whatever make it read beyond them.
@Suite struct LocatorIndexDecodingTests {
  private let valid: [UInt8] = {
    var bytes = Array("NWPLOCIX".utf8)
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    append(UInt32(1))
    append(UInt32(2))
    append(UInt64(135))
    append(UInt64(80))
    append((0.25).bitPattern)
    return bytes + [UInt8](repeating: 0, count: 24)
  }()

  private func decode(_ bytes: [UInt8], width: Int = 135, height: Int = 80) -> Result<LocatorIndex, GeometryError> {
    bytes.withUnsafeBytes { raw in
      Result { () throws(GeometryError) in try LocatorIndex(decoding: raw, width: width, height: height) }
    }
  }

  private func reason(_ bytes: [UInt8], width: Int = 135, height: Int = 80) -> String? {
    if case .failure(let error) = decode(bytes, width: width, height: height) { return error.description }
    return nil
  }

  /// Written independently of the encoder, byte by byte as docs/cube-format.md gives them.
  @Test func theDocumentedLayoutDecodes() throws {
    let index = try decode(valid).get()
    #expect(index.kind == .analytic && index.width == 135 && index.height == 80 && index.margin == 0.25)
    #expect(index.encoded == valid)
  }

  @Test func eachWrongFieldIsNamed() {
    func with(_ offset: Int, _ value: some FixedWidthInteger) -> [UInt8] {
      var bytes = valid
      withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) }
      return bytes
    }
    #expect(reason(Array(valid.prefix(63)))?.contains("63 bytes, expected 64") == true)
    #expect(reason(with(0, UInt8(ascii: "X")))?.contains("no NWPLOCIX magic") == true)
    #expect(reason(with(8, UInt32(2)))?.contains("encoding version 2") == true)
    #expect(reason(with(12, UInt32(9)))?.contains("kind 9") == true)
    #expect(reason(valid, width: 136)?.contains("made for a 135×80 grid, the cube's is 136×80") == true)
    #expect(reason(with(32, Double.nan.bitPattern))?.contains("margin nan") == true)
    #expect(reason(with(32, (0.5).bitPattern))?.contains("margin 0.5") == true)
    #expect(reason(with(12, UInt32(1)))?.contains("a lattice's margin is 0.25") == true)
    #expect(reason(valid)?.hasPrefix("invalid grid: locator index") != false)
  }

  /// Random damage to every byte, and random lengths: decoding either refuses or gives an
  /// index within its limits, and never traps.
  @Test func damagedBytesAreRefusedOrWithinLimits() {
    var random = TestRandom(seed: 64)
    for round in 0..<20_000 {
      var bytes = valid
      for _ in 0..<(1 + Int(random.next() % 4)) {
        bytes[Int(random.next() % 64)] = UInt8(truncatingIfNeeded: random.next())
      }
      if round % 10 == 0 { bytes = Array(bytes.prefix(Int(random.next() % 80))) }
      guard case .success(let index) = decode(bytes) else { continue }
      #expect(index.width == 135 && index.height == 80)
      #expect(index.margin >= 0 && index.margin < AnalyticLocator.largestMargin)
    }
  }
}
