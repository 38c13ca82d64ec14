import Forecast
import Foundation
import HTTPService
import Ingest
import Places
import PointQuery
import SampleRun
import Store
import UTCTime
import Warnings
import _TestSupport

/// The Portugal sample run (72 hourly steps from 2026-06-20 00 UTC), generated and ingested
/// once per test process, and one server over it shared by the suites that only read.
enum SampleService {
  /// The store holding the sample run's cube.
  static let store: String = {
    let directory = SampleFiles.temporaryDirectory("http")
    let files = (try? SampleRunGenerator.write(.portugal9km, to: "\(directory)/run")) ?? []
    _ = try? Ingestor.run(files, options: .init(store: "\(directory)/store"))
    // The wrfout files are 190 MB; only the 17 MB cube is needed from here on.
    SampleFiles.remove("\(directory)/run")
    return "\(directory)/store"
  }()

  /// The server's "now": inside the run, so that `/v1/forecast`'s today and current
  /// conditions have data.
  static let now: Int64 = UTC.seconds(year: 2026, month: 6, day: 21, hour: 10, minute: 7) ?? 0

  /// The bundled gazetteer of Portugal and Spain, read once.
  static let places: Gazetteer? = try? Gazetteer(contentsOf: SampleFiles.grid("places/cities1000_PT_ES.txt"))

  /// The shipped example alerts file, read once.
  static let alerts: WarningRules? = try? WarningRules(path: "\(SampleFiles.packageRoot)/docs/alerts.example")

  /// The settings of a server over the sample store, with the bundled gazetteer and the
  /// example alerts file.
  static var settings: ServiceSettings {
    var settings = ServiceSettings(store: store, clock: { now }, places: places)
    settings.alerts = alerts
    return settings
  }

  private static let shared = Task { try await LiveServer.start(settings) }

  /// The shared server, started on first use and left running until the process ends.
  static func server() async throws -> LiveServer { try await shared.value }

  /// The library over the same store, for the answers the server's must agree with. Opened
  /// once: verifying a cube's checksums takes a while in a debug build.
  static let forecaster: Forecaster? = (try? ForecastStore(path: store)).map { Forecaster(catalog: $0.catalog) }

  /// The documentation's example point, its longitude's sign corrected (DESIGN §8).
  static let latitude = 38.1294
  static let longitude = -8.9341
}
