import ArgumentParser
import Forecast
import Foundation
import Meteogram
import PointQuery

struct MeteogramCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "meteogram",
    abstract: "Draw a point's meteogram for the next days as SVG (or PNG through rsvg-convert).",
    discussion: """
      The picture /v1/meteogram.svg serves: temperature and feels-like, precipitation with \
      its probability, wind with gusts and direction, cloud layers, condition icons and \
      day/night shading against local time in --timezone, with the run and domain in the \
      caption (docs/meteogram.md). --out ending in .png writes PNG through rsvg-convert \
      (Debian's librsvg2-bin).
      """
  )

  @OptionGroup var location: LocationOptions

  @Option(help: "Local days to draw, \(MeteogramQuery.dayLimit.lowerBound)…\(MeteogramQuery.dayLimit.upperBound).")
  var days: Int = MeteogramQuery.defaultDays

  @Option(help: "First local day, yyyy-MM-dd (default: today in --timezone).")
  var startDate: String?

  @Option(help: "IANA time zone of the time axis, e.g. Europe/Lisbon.")
  var timezone: String = "UTC"

  @Option(help: "metric (°C, mm, km/h) or imperial (°F, inch, mph).")
  var units: String = MeteogramUnits.metric.rawValue

  @Option(help: "land (default), sea or nearest: a land or sea cell next to the point, or the nearest cell.")
  var cellSelection: CellSelection = MeteogramQuery.defaultCellSelection

  @Option(help: "The file to write: FILE.svg, or FILE.png for PNG.")
  var out: String

  func validate() throws {
    guard MeteogramQuery.dayLimit.contains(days) else {
      throw ValidationError(
        "--days \(days) is out of range; allowed: \(MeteogramQuery.dayLimit.lowerBound)…\(MeteogramQuery.dayLimit.upperBound)"
      )
    }
    guard MeteogramUnits(rawValue: units) != nil else {
      throw ValidationError("--units '\(units)' is not allowed; give metric or imperial")
    }
    guard timezone.lowercased() != "auto" else {
      throw ValidationError("--timezone auto needs the server's gazetteer; give an IANA name such as Europe/Lisbon")
    }
  }

  func run() throws {
    let zone: LocalTimeZone
    do {
      zone = try LocalTimeZone(identifier: timezone)
    } catch {
      throw ValidationError("--timezone: \(error)")
    }
    let start: LocalDate
    do {
      start = try startDate.map { text throws(LocalTimeError) in try LocalDate(parsing: text) } ?? zone.today()
    } catch {
      throw ValidationError("--start-date: \(error)")
    }
    let request = ForecastRequest(
      latitude: location.lat, longitude: location.lon, method: location.method, domain: location.domain,
      timeZone: zone, units: (MeteogramUnits(rawValue: units) ?? .metric).system, cellSelection: cellSelection)
    let query = MeteogramQuery(request: request, start: start, days: days)
    let chart = try location.answer(
      from: zone.start(of: start), to: zone.start(of: start.adding(days: days)), probability: true
    ) { store in try query.chart(Forecaster(catalog: store.catalog)) }
    let svg = chart.svg()
    let bytes = out.lowercased().hasSuffix(".png") ? Data(try SVGRasterizer().png(svg)) : Data(svg.utf8)
    do {
      try bytes.write(to: URL(fileURLWithPath: out))
    } catch {
      throw ValidationError("--out \(out): cannot write: \(error.localizedDescription)")
    }
  }
}
