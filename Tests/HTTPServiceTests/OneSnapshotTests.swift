#if DEBUG
  import Forecast
  import Foundation
  import Hummingbird
  import Logging
  import PointQuery
  import ServiceLifecycle
  import Store
  import Testing
  import UTCTime
  import _TestSupport

  @testable import HTTPService

  /// One request, one snapshot, one location: a `/v1/forecast` answer takes the store's
  /// catalog once and locates its point once in each cube, whatever blocks it asks for, and
  /// a run published while a request is being answered does not reach that answer.
  ///
  /// The counts are the store's and the cubes' own (`catalogLoadsCounted`, `locatesCounted`),
  /// kept in debug builds, where the tests run.
  @Suite struct OneSnapshotTests {
    static let latitude = 39.4
    static let longitude = -8.1

    /// Two runs that both cover 2026-06-20, so that the hours, the days and the chance of
    /// rain read from both cubes.
    static func twoRuns() throws -> String {
      let store = SampleFiles.temporaryDirectory("one-snapshot")
      try TestStores.publish(TestStores.spec(start: "2026-06-19_12:00:00", hours: 72, seed: 31), into: store)
      try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 48, seed: 32), into: store)
      return store
    }

    /// The store of `twoRuns` served by `/v1/forecast` alone, its clock at 10:20 UTC on
    /// 2026-06-20.
    static func servedForecast(
      _ directory: String
    ) async throws -> (store: ForecastStore, cubes: [Cube], server: RouteServer) {
      let store = try ForecastStore(serving: directory)
      let cubes = store.catalog.cubes
      #expect(cubes.count == 2)
      let now = try #require(UTC.parseISO8601("2026-06-20T10:20:00Z"))
      let router = Router()
      ForecastRoute(store: store, limits: ServiceLimits(), clock: { now }, zoneFinder: nil).register(on: router)
      return (store, cubes, try await RouteServer.start(router))
    }

    /// `target` asked of a fresh server over `twoRuns`: its answer, how many catalogs the
    /// store loaded for it, and how many locates each cube made.
    static func counted(_ target: String) async throws -> (answer: HTTPTestResponse, loads: Int, locates: [Int]) {
      let directory = try twoRuns()
      defer { SampleFiles.remove(directory) }
      let (store, cubes, server) = try await servedForecast(directory)
      defer { server.stop() }
      let loads = store.catalogLoadsCounted
      let locates = cubes.map(\.locatesCounted)
      let answer = try await server.client.get(target)
      return (
        answer, store.catalogLoadsCounted - loads, zip(cubes.map(\.locatesCounted), locates).map { $0 - $1 }
      )
    }

    @Test func aForecastWithHourlyDailyAndCurrentLoadsOneCatalogAndLocatesOncePerCube() async throws {
      let (answer, loads, locates) = try await Self.counted(
        "/v1/forecast?latitude=\(Self.latitude)&longitude=\(Self.longitude)"
          + "&hourly=temperature_2m,precipitation,precipitation_probability,wind_speed_10m"
          + "&daily=temperature_2m_max,precipitation_sum,precipitation_probability_max,sunrise"
          + "&current=temperature_2m,weather_code&minutely_15=temperature_2m"
          + "&start_date=2026-06-20&end_date=2026-06-21&timezone=Europe/Lisbon")
      #expect(answer.status == 200, "\(answer.body)")
      let document = try #require(answer.json as? [String: Any])
      let sources = try #require(document["sources"] as? [[String: Any]])
      // Both runs answer some of it, so both cubes had to be located.
      #expect(Set(sources.compactMap { $0["run"] as? String }) == ["2026061912", "2026062000"])
      #expect(loads == 1)
      #expect(locates == [1, 1])
    }

    @Test func severalLocationsInOneRequestShareOneCatalog() async throws {
      let (answer, loads, locates) = try await Self.counted(
        "/v1/forecast?latitude=39.4,39.0,38.8&longitude=-8.1,-8.3,-8.0&hourly=temperature_2m"
          + "&daily=temperature_2m_max&start_date=2026-06-20&end_date=2026-06-20")
      #expect(answer.status == 200, "\(answer.body)")
      #expect((answer.json as? [Any])?.count == 3)
      #expect(loads == 1)
      #expect(locates == [3, 3])
    }

    /// The blocks of one answer are read one after the other from one located point. A run
    /// published and taken in by the store between them (the newer run covers every hour
    /// asked, so a fresh catalog would answer from it alone) reaches none of them.
    @Test func aRunPublishedBetweenTheBlocksOfAnAnswerReachesNoneOfThem() throws {
      let directory = SampleFiles.temporaryDirectory("one-snapshot-publish")
      defer { SampleFiles.remove(directory) }
      try TestStores.publish(TestStores.spec(start: "2026-06-19_12:00:00", hours: 72, seed: 31), into: directory)
      let store = try ForecastStore(serving: directory)
      var request = ForecastRequest(latitude: Self.latitude, longitude: Self.longitude)
      request.timeZone = try LocalTimeZone(identifier: "Europe/Lisbon")
      let point = try Forecaster(catalog: store.catalog).point(request)
      let time = try #require(UTC.parseISO8601("2026-06-20T15:00:00Z"))
      let hours = try point.nextHours(metrics: [.temp, .rain], from: time, count: 6)

      try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 48, seed: 32), into: directory)
      store.refresh()
      let fresh = try Forecaster(catalog: store.catalog).point(request)
      #expect(try fresh.nextHours(metrics: [.temp], from: time, count: 6).provenance.map(\.run) == ["2026062000"])

      let date = try LocalDate(parsing: "2026-06-20")
      let days = try point.daily(
        variables: try DailyVariable.parse(list: "temp_max,rain_sum"), from: date, days: 1)
      let current = try point.current(metrics: [.temp, .hum], at: time)
      #expect(hours.provenance.map(\.run) == ["2026061912"])
      #expect(days[0].provenance.map(\.run) == ["2026061912"])
      #expect(current.provenance?.run == "2026061912")
      // The answer is the old run's, value for value: the new run's differ (another seed).
      let oldCube = try #require(point.catalog.cubes.first)
      let location = try oldCube.locate(latitude: Self.latitude, longitude: Self.longitude, method: .nearest)
      #expect(current.value(of: .temp) == (try oldCube.value(try oldCube.metric("temp"), at: location, time: time)))
    }
  }

  /// One router served by a real Hummingbird server on a free loopback port: the routes
  /// under test and nothing else, so that the counts are theirs.
  final class RouteServer: Sendable {
    let client: HTTPTestClient
    private let group: ServiceGroup
    private let run: Task<Void, any Error>

    private init(client: HTTPTestClient, group: ServiceGroup, run: Task<Void, any Error>) {
      self.client = client
      self.group = group
      self.run = run
    }

    static func start(_ router: Router<BasicRequestContext>) async throws -> RouteServer {
      let logger = Logger(label: "nwpcube.test.route-server") { _ in SwiftLogNoOpLogHandler() }
      let (ports, listening) = AsyncStream.makeStream(of: Int.self)
      let application = Application(
        router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
          listening.yield(channel.localAddress?.port ?? 0)
          listening.finish()
        }, logger: logger)
      let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
      let run = Task {
        defer { listening.finish() }
        try await group.run()
      }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next(), port > 0 else {
        throw HTTPTestError.serverDidNotStart("\(await run.result)")
      }
      return RouteServer(client: HTTPTestClient(port: port), group: group, run: run)
    }

    /// Ends the server; the test does not wait for it.
    func stop() {
      let group = self.group
      Task { await group.triggerGracefulShutdown() }
    }
  }
#endif
