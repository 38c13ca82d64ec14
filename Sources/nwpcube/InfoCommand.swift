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
    print("shape     \(h.width) west-east × \(h.height) south-north × \(h.steps) steps, \(h.metrics.count) metrics")
    print(
      "time      \(UTC.iso8601(h.firstStep)) to \(UTC.iso8601(h.lastStep)) every \(h.stepSeconds / 60) min (run start \(UTC.iso8601(h.runStart)))"
    )
    print(
      "geometry  \(MapProjection.Kind(rawValue: Int(h.projection.code))?.name ?? "projection \(h.projection.code)"), DX \(h.gridSpacing) m, TRUELAT1 \(p[0]), TRUELAT2 \(p[1]), STAND_LON \(p[2])"
    )
    print(
      "extent    latitude \(latitudes.min() ?? 0)…\(latitudes.max() ?? 0), longitude \(longitudes.min() ?? 0)…\(longitudes.max() ?? 0)"
    )
    let values = h.cells * h.steps * h.metrics.count
    print(
      "size      \(file.fileBytes) bytes for \(values) values (\(String(format: "%.3f", Double(file.fileBytes) / Double(values))) bytes per value)"
    )
    print("metrics   name        unit   step     range                  time")
    for metric in h.metrics {
      let kind = metric.temporal == Metric.Temporal.hourlyAmount.rawValue ? "hourly amount" : "instant"
      let decimals = String(metric.scale).split(separator: ".").last.map { $0 == "0" ? 0 : $0.count } ?? 0
      let range =
        "\(JSONText.number(metric.range.lowerBound, decimals: decimals))…\(JSONText.number(metric.range.upperBound, decimals: decimals))"
      print(
        "          \(metric.name.padded(11)) \(metric.unit.padded(6)) \(String(metric.scale).padded(8)) \(range.padded(22)) \(kind)"
      )
    }
  }
}

extension String {
  func padded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
