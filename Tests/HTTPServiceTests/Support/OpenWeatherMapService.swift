import Forecast
import Foundation
import HTTPService
import PointQuery
import Store
import UTCTime
import _TestSupport

/// A store whose run covers five days and more (130 hourly steps from 2026-06-20 00 UTC, a
/// small grid over Portugal), and a server over it with the bundled gazetteer whose clock
/// is inside the run: OpenWeatherMap's 40 entries are all covered.
enum OpenWeatherMapService {
  static let runStart: Int64 = UTC.seconds(year: 2026, month: 6, day: 20, hour: 0, minute: 0) ?? 0
  static let runHours = 130

  static let store: String = {
    let directory = SampleFiles.temporaryDirectory("owm")
    _ = try? TestStores.publish(
      TestStores.spec(start: "2026-06-20_00:00:00", hours: runHours, seed: 13), into: "\(directory)/store")
    return "\(directory)/store"
  }()

  /// The server's now: 10:07 UTC on the run's first day, so the forecast starts at 12 UTC.
  static let now: Int64 = runStart + 10 * 3_600 + 7 * 60

  private static let shared = Task {
    try await LiveServer.start(ServiceSettings(store: store, clock: { now }, places: SampleService.places))
  }

  static func server() async throws -> LiveServer { try await shared.value }

  /// The library over the same store, for the values the server's must agree with.
  static let forecaster: Forecaster? = (try? ForecastStore(path: store)).map { Forecaster(catalog: $0.catalog) }

  /// Lisbon, as GeoNames places it.
  static let lisbonID = 2_267_057
  static let latitude = 38.71667
  static let longitude = -9.13333
}
