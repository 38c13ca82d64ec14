import ArgumentParser
import CubeFormat
import ForecastOutput
import Foundation
import GridGeometry
import Meteorology
import UTCTime

struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Describe a cube: shape, time axis, metrics, geometry and size."
  )

  @Argument(help: "A .cube file.")
  var cube: String

  func run() throws {
    let file = try CubeFile(path: cube)
    let h = file.header
    let latitudes = file.latitudes
    let longitudes = file.longitudes
    let p = h.projection.parameters
    print("cube      \(cube)")
    print("identity  model \(h.model), domain \(h.domain), run \(UTC.runIdentifier(h.runStart))")
    print("shape     \(h.width) west-east × \(h.height) south-north × \(h.stepCount) steps, \(h.metrics.count) metrics")
    print(
      "time      \(UTC.iso8601(h.firstTime)) to \(UTC.iso8601(h.lastTime)) every \(Self.duration(h.stepSeconds)) (run start \(UTC.iso8601(h.runStart)))"
    )
    print(
      "geometry  \(MapProjection.Kind(rawValue: Int(h.projection.code))?.name ?? "projection \(h.projection.code)"), DX \(h.gridSpacing) m, TRUELAT1 \(p[0]), TRUELAT2 \(p[1]), STAND_LON \(p[2])"
    )
    print(
      "extent    latitude \(latitudes.min() ?? 0)…\(latitudes.max() ?? 0), longitude \(longitudes.min() ?? 0)…\(longitudes.max() ?? 0)"
    )
    // A validated cube stores 2 bytes per value, so the count is below its size; the
    // products are still formed with overflow reporting, as every product of header fields is.
    let (perStep, perStepOverflow) = h.cells.multipliedReportingOverflow(by: h.metrics.count)
    let (values, overflow) = perStep.multipliedReportingOverflow(by: h.stepCount)
    let perValue =
      overflow || perStepOverflow || values <= 0 ? "?" : String(format: "%.3f", Double(file.fileBytes) / Double(values))
    print(
      "size      \(file.fileBytes) bytes for \(overflow || perStepOverflow ? "?" : String(values)) values (\(perValue) bytes per value)"
    )
    // As wide as the catalogue's longest name, so that the columns line up.
    let nameWidth = Metric.queryable.map(\.name.count).max() ?? 11
    print("metrics   \("name".padded(nameWidth)) unit     step     range                  time")
    for metric in h.metrics {
      let kind =
        switch Metric.Temporal(rawValue: metric.temporal) {
        case .instant: "instant"
        case .hourlyAmount: "hourly amount"
        case .category: "category of the hour"
        case nil: "kind \(metric.temporal)"
        }
      let decimals = Self.decimals(for: metric.scale)
      let range =
        "\(JSONText.number(metric.range.lowerBound, decimals: decimals))…\(JSONText.number(metric.range.upperBound, decimals: decimals))"
      print(
        "          \(metric.name.padded(nameWidth)) \(metric.unit.padded(8)) \(String(metric.scale).padded(8)) \(range.padded(22)) \(kind)"
      )
    }
  }
}

extension InfoCommand {
  /// A step length as people say it: `1 h`, `15 min`, `30 s`.
  static func duration(_ seconds: Int64) -> String {
    if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
    if seconds % 60 == 0 { return "\(seconds / 60) min" }
    return "\(seconds) s"
  }

  /// The fewest decimals (at most 9) that show every value quantized by `scale` exactly:
  /// 2 for 0.01 and 0.02, 0 for 1 or 10. Worked out numerically rather than from the
  /// number's text, which may be in exponent form (`1e-05`).
  static func decimals(for scale: Double) -> Int {
    var factor = 1.0
    for decimals in 0..<9 {
      let scaled = scale * factor
      if abs(scaled - scaled.rounded()) <= 1e-9 * max(1, abs(scaled)) { return decimals }
      factor *= 10
    }
    return 9
  }
}

extension String {
  func padded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
