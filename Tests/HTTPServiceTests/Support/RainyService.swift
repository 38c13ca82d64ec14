import Forecast
import HTTPService
import PointQuery
import Store
import Warnings
import _TestSupport

/// A server over `RainyStore`, whose heavy-rain hours are known, publishing warnings for
/// rain above 10 mm/h within 24 hours; its clock is `RainyStore.now`.
enum RainyService {
  static let sender = "nwpcube@alerts.test"

  static let rulesText = """
    # one rule, with text that needs escaping in XML
    [heavy-rain]
    title = Heavy rain & floods <local>
    metric = rain
    above = 10 mm/h
    validity_hours = 24
    severity = Severe
    urgency = Immediate
    certainty = Possible
    description = Over 10 mm of rain in an hour: "take care" & stay 'safe'.
    instruction = Keep off flooded roads.
    """

  static var settings: ServiceSettings {
    var settings = ServiceSettings(store: RainyStore.store, clock: { RainyStore.now })
    settings.alerts = try? WarningRules(text: rulesText, path: "rainy.alerts")
    settings.alertsSender = sender
    return settings
  }

  private static let shared = Task { try await LiveServer.start(settings) }

  static func server() async throws -> LiveServer { try await shared.value }

  static let forecaster: Forecaster? = (try? ForecastStore(path: RainyStore.store)).map {
    Forecaster(catalog: $0.catalog)
  }

  /// The centre of the cube's cell (i, j).
  static func centre(_ i: Int, _ j: Int) throws -> (latitude: Double, longitude: Double) {
    guard let cube = forecaster?.catalog.cubes.first else { throw HTTPTestError.serverDidNotStart("no rainy store") }
    let grid = cube.locator.grid
    return (Double(grid.latitudes[j * grid.width + i]), Double(grid.longitudes[j * grid.width + i]))
  }
}
