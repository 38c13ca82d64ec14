import Foundation
import MapTiles
import SampleRun
import Testing
import _TestSupport

@testable import HTTPService

/// A store whose cube has a damaged data block, served: start-up reads only headers and
/// records, so the server starts and serves the cube; the background verifier finds the
/// block, withdraws the cube, logs it and counts it.
@Suite struct BackgroundVerificationTests {
  /// A one-run store (96 × 72 cells, so that the data has blocks of its own) whose `temp`
  /// series of the middle cell has one byte flipped, the cube's checksums left as the
  /// writer made them; with that cell's coordinates, which a nearest-cell request reads.
  static func damagedStore(_ label: String) throws -> (store: String, cube: String, latitude: Float, longitude: Float) {
    let store = SampleFiles.temporaryDirectory(label)
    let spec = SampleRunSpec(
      westEast: 96, southNorth: 72, levels: 2, dx: 27_000, runStart: "2026-03-28_00:00:00", hours: 24, seed: 1)
    let cube = try TestStores.publish(spec, into: store)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cube)))
    let decoded = try Version3Cube(bytes)
    let metric = try #require(decoded.metrics.firstIndex { $0.name == "temp" })
    #expect(decoded.bandCount == 1)
    let section = decoded.bandIndex[metric]
    let cell = decoded.cells / 2
    let entry = bytes[(section.offset + cell * 8)..<(section.offset + cell * 8 + 8)].reversed().reduce(UInt64(0)) {
      $0 << 8 | UInt64($1)
    }
    // The entry's payload offset (its low 32 bits), one byte in.
    let offset = section.offset + Int(entry & 0xFFFF_FFFF) + 1
    // Checksum blocks start at the geometry; the damaged one must hold no coordinates,
    // which opening reads.
    let geometry = bytes[144..<152].reversed().reduce(0) { $0 << 8 | Int($1) }
    #expect((offset - geometry) / 65_536 > (geometry + 8 * decoded.cells) / 65_536 - geometry / 65_536)
    bytes[offset] ^= 0x5A
    let staged = "\(cube).staged"
    try Data(bytes).write(to: URL(fileURLWithPath: staged))
    #expect(rename(staged, cube) == 0)
    return (store, cube, decoded.latitudes[0][cell], decoded.longitudes[0][cell])
  }

  /// `damagedStore(label)` served with the background verifier off, once its cube answers
  /// `/healthz`: only a request's own read can find the damaged block. The store is removed
  /// if the server does not start; otherwise the caller removes it.
  static func servedWithoutVerifier(
    _ label: String
  ) async throws -> (server: LiveServer, store: String, latitude: Float, longitude: Float) {
    let (store, _, latitude, longitude) = try damagedStore(label)
    do {
      var settings = ServiceSettings(store: store)
      settings.verifyBytesPerSecond = 0
      let server = try await LiveServer.start(settings)
      try await server.waitUntil("the cube served") { try await server.client.get("/healthz").status == 200 }
      return (server, store, latitude, longitude)
    } catch {
      SampleFiles.remove(store)
      throw error
    }
  }

  static func metrics(_ server: LiveServer) async throws -> Set<String> {
    Set(try await server.client.get("/metrics").body.split(separator: "\n").map(String.init))
  }

  @Test func aDamagedBlockIsFoundByTheBackgroundVerifierWhichWithdrawsTheCube() async throws {
    let (store, cube, _, _) = try Self.damagedStore("verify-background")
    defer { SampleFiles.remove(store) }
    let server = try await LiveServer.start(ServiceSettings(store: store))
    // Opening read the header and record only: the cube was served at first.
    #expect(!server.log.recorded.contains { $0.message == "cube skipped" })
    try await server.waitUntil("the cube withdrawn") {
      try await Self.metrics(server).contains("nwpcube_store_damaged_cubes_total 1")
    }
    try await server.waitUntil("the cube left out") {
      try await Self.metrics(server).contains("nwpcube_cubes 0.0")
    }
    let withdrawn = server.log.recorded.filter { $0.level == .error && $0.message.hasPrefix("cube withdrawn") }
    #expect(withdrawn.count == 1)
    #expect(withdrawn.first?.metadata["cube"] == cube)
    let reason = withdrawn.first?.metadata["reason"] ?? ""
    #expect(reason.contains("block"), "\(reason)")
    let metrics = try await Self.metrics(server)
    #expect(metrics.contains("nwpcube_store_withdrawn_cubes_total 1"), "\(metrics.sorted())")
    // The health check names the problem, and the store is left without a readable cube.
    let health = try await server.client.get("/healthz")
    #expect(health.status == 503, "\(health.body)")
    #expect(health.body.contains("did not match its checksum"), "\(health.body)")
    // Not opened again while the file stays as it is.
    try await Task.sleep(for: .milliseconds(500))
    #expect(try await Self.metrics(server).contains("nwpcube_cubes 0.0"))
    #expect(try await Self.metrics(server).contains("nwpcube_store_damaged_cubes_total 1"))
    try await server.stop()
  }

  /// With the background verifier off, the request that reads the damaged block verifies
  /// it, gets 503 naming the damage (never a 200 with a number decoded from the damaged
  /// bytes), and the cube is withdrawn for every later request.
  @Test func aRequestReadingADamagedBlockGets503AndWithdrawsTheCube() async throws {
    let (server, store, latitude, longitude) = try await Self.servedWithoutVerifier("verify-request")
    defer { SampleFiles.remove(store) }
    let query =
      "/v1/forecast?latitude=\(latitude)&longitude=\(longitude)&hourly=temperature_2m&cell_selection=nearest"
      + "&start_date=2026-03-28&end_date=2026-03-28"
    let answer = try await server.client.get(query)
    #expect(answer.status == 503, "\(answer.status): \(answer.body.prefix(300))")
    #expect(answer.body.contains("damaged"), "\(answer.body.prefix(300))")
    try await server.waitUntil("the cube left out") {
      try await Self.metrics(server).contains("nwpcube_cubes 0.0")
    }
    #expect(try await server.client.get(query).status == 503)
    try await server.stop()
  }

  /// A map tile over the damaged cell is refused like a forecast there: drawn, the damaged
  /// block's values would read as missing and show as a transparent gap in a 200.
  @Test func aTileReadingADamagedBlockGets503AndWithdrawsTheCube() async throws {
    let (server, store, latitude, longitude) = try await Self.servedWithoutVerifier("verify-tile")
    defer { SampleFiles.remove(store) }
    let zoom = 7
    let pixel = WebMercator.worldPixel(latitude: Double(latitude), longitude: Double(longitude), zoom: zoom)
    let tile = "/v1/tiles/temp/2026-03-28T12:00Z/\(zoom)/\(Int(pixel.column) / 256)/\(Int(pixel.row) / 256).png"
    let answer = try await server.client.get(tile)
    #expect(answer.status == 503, "\(answer.status): \(answer.body.prefix(300))")
    #expect(answer.body.contains("damaged"), "\(answer.body.prefix(300))")
    try await server.waitUntil("the cube left out") {
      try await Self.metrics(server).contains("nwpcube_cubes 0.0")
    }
    try await server.stop()
  }
}
