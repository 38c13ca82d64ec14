import ArgumentParser
import Forecast
import Meteorology
import NwpcubeFace
import PointQuery

struct ForecastCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forecast",
    abstract: "Print a point's forecast for whole local days: hourly values and daily summaries.",
    discussion: """
      Days are local days in --timezone (default UTC), counted from --start-date (default: \
      today there); a day has 23 or 25 hours when the clocks change. Each hour comes from the \
      newest run covering it. Daily variables: <metric>_median, _min, _max or _sum (temp_max, \
      rain_sum, wind_vel_max), a bare metric name (its usual statistics), wind_dir_dominant \
      (direction of the day's mean wind vector), sunrise and sunset. JSON follows \
      Open-Meteo's layout, plus the runs, domains and cells the values came from; CSV rows \
      begin with their local time.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case json, csv
  }

  static let defaultHourly = "temp,hum,rain,cloud,wind_vel,wind_dir,atm_press"
  static let defaultDaily = "temp_max,temp_min,rain_sum,wind_vel_max,wind_dir_dominant,sunrise,sunset"

  @OptionGroup var location: LocationOptions

  @Option(help: "Hourly metrics, comma-separated (\"\" for none; default \(Self.defaultHourly)).")
  var hourly: String?

  @Option(help: "Daily variables, comma-separated (\"\" for none; default \(Self.defaultDaily)).")
  var daily: String?

  @Option(help: "First local day, yyyy-MM-dd (default: today in --timezone).")
  var startDate: String?

  @Option(help: "Number of days, \(Forecaster.dayLimit.lowerBound)…\(Forecaster.dayLimit.upperBound).")
  var days: Int = 7

  @Option(help: "IANA time zone of the local days, e.g. Europe/Lisbon.")
  var timezone: String = "UTC"

  @Option(help: "Unit preset: si, us, uk or canada.")
  var units: String = "si"

  @Option(help: "json or csv.")
  var format: Format = .json

  @Option(
    help:
      "The point's elevation in metres: temperature, dew point and apparent temperature are corrected from the model's terrain height by 0.0065 K/m (nan: no correction)."
  )
  var elevation: Double?

  @Option(help: "nearest, land or sea: the nearest cell, or a land or sea cell next to it (nearest method only).")
  var cellSelection: CellSelection = .nearest

  func validate() throws {
    if let elevation, elevation.isInfinite {
      throw ValidationError("--elevation \(elevation) is not a height; give metres (e.g. 120) or nan")
    }
    guard Forecaster.dayLimit.contains(days) else {
      throw ValidationError(
        "--days \(days) is out of range; allowed: \(Forecaster.dayLimit.lowerBound)…\(Forecaster.dayLimit.upperBound)")
    }
  }

  func run() throws {
    let zone = try option("--timezone") { () throws(LocalTimeError) in try LocalTimeZone(identifier: timezone) }
    let start = try option("--start-date") { () throws(LocalTimeError) in
      try startDate.map { text throws(LocalTimeError) in try LocalDate(parsing: text) } ?? zone.today()
    }
    let unitSystem = try option("--units") { () throws(UnitError) in try UnitSystem(preset: units) }
    let hourlyList = hourly ?? Self.defaultHourly
    let hourlyMetrics = try option("--hourly") { () throws(ForecastError) in
      hourlyList.isEmpty ? [] : try Forecaster.metrics(hourlyList.split(separator: ",").map(String.init))
    }
    let dailyList = daily ?? Self.defaultDaily
    let dailyVariables = try option("--daily") { () throws(ForecastError) in
      dailyList.isEmpty ? [] : try DailyVariable.parse(list: dailyList)
    }
    let request = ForecastRequest(
      latitude: location.lat, longitude: location.lon, method: location.method, domain: location.domain,
      timeZone: zone, units: unitSystem, cellSelection: cellSelection,
      elevation: elevation.flatMap { $0.isNaN ? nil : $0 })
    let query = ForecastQuery(
      request: request, hourly: hourlyMetrics, daily: dailyVariables, start: start, days: days)
    // Only the cubes that can answer the hours of the local days asked are opened and
    // verified.
    let document = try location.answer(
      from: zone.start(of: start), to: zone.start(of: start.adding(days: days)), probability: true
    ) { store in try query.answer(Forecaster(catalog: store.catalog)) }
    print(format == .json ? document.json() : document.csv())
  }

  /// Runs a parse of option `name`, turning its error into a usage error that names it.
  private func option<Value, Failure: Error>(_ name: String, _ parse: () throws(Failure) -> Value) throws -> Value {
    do {
      return try parse()
    } catch {
      throw ValidationError("\(name): \(error)")
    }
  }
}

extension CellSelection: ExpressibleByArgument {}
