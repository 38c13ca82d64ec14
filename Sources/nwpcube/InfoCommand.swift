import ArgumentParser
import CubeFormat
import FaceKit
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

  @Flag(
    help:
      "Print one JSON object: format_version, file_bytes, cells, steps, positions (1 unless the grid moves; then step_positions too), bands, band_cells (the cells, in one band, before version 3), checksum_blocks (0 before version 3), projection_checked, locator_index_bytes, and for each metric its name, unit, precision, stored_bytes (its data: table and payloads, or 16-bit words) and bytes_per_value."
  )
  var json = false

  func run() throws {
    let file = try CubeFile(path: cube)
    if json {
      print(Self.json(file))
      return
    }
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
      "extent    latitude \(latitudes.min() ?? 0)…\(latitudes.max() ?? 0), longitude \(longitudes.min() ?? 0)…\(longitudes.max() ?? 0)\(file.isMoving ? " (position 0)" : "")"
    )
    if file.isMoving { Self.printPositions(file) }
    // A validated cube stores 2 bytes per value, so the count is below its size; the
    // products are still formed with overflow reporting, as every product of header fields is.
    let (perStep, perStepOverflow) = h.cells.multipliedReportingOverflow(by: h.metrics.count)
    let (values, overflow) = perStep.multipliedReportingOverflow(by: h.stepCount)
    let perValue =
      overflow || perStepOverflow || values <= 0 ? "?" : String(format: "%.3f", Double(file.fileBytes) / Double(values))
    print("format    version \(file.formatVersion)")
    if file.formatVersion >= 3 { Self.printVersion3(file) }
    print(
      "size      \(file.fileBytes) bytes for \(overflow || perStepOverflow ? "?" : String(values)) values (\(perValue) bytes per value)"
    )
    // As wide as the catalogue's longest name, so that the columns line up.
    let nameWidth = Metric.queryable.map(\.name.count).max() ?? 11
    // The longest kind, "category of the hour", sets the time column's width.
    let kindWidth = 20
    print(
      "metrics   \("name".padded(nameWidth)) unit     precision range                  \("time".padded(kindWidth)) bytes/value"
    )
    let stepValues = Double(h.cells) * Double(h.stepCount)
    for (index, metric) in h.metrics.enumerated() {
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
      let perValue = String(format: "%.3f", Double(file.dataBytes[index]) / stepValues)
      print(
        "          \(metric.name.padded(nameWidth)) \(metric.unit.padded(8)) \(String(metric.scale).padded(9)) \(range.padded(22)) \(kind.padded(kindWidth)) \(perValue)"
      )
    }
  }
}

extension InfoCommand {
  /// The positions of a grid that moves: how many, then for each the steps that use it,
  /// its extent and cell (0, 0)'s coordinates (where the data of cell (i, j) is at those
  /// steps: the grid keeps its shape and moves by whole cells).
  static func printPositions(_ file: CubeFile) {
    let table = file.stepPositions
    print("positions \(file.positionCount): the grid moves; cell (i, j) is at its position's coordinates at each step")
    let indexWidth = String(file.positionCount - 1).count
    for position in 0..<file.positionCount {
      let latitudes = file.latitudes(position: position)
      let longitudes = file.longitudes(position: position)
      let steps = stepRanges(table.indices.filter { table[$0] == position })
      print(
        "          \(String(position).padded(indexWidth)) steps \(steps); latitude \(latitudes.min() ?? 0)…\(latitudes.max() ?? 0), longitude \(longitudes.min() ?? 0)…\(longitudes.max() ?? 0); cell (0, 0) at \(latitudes.first ?? 0), \(longitudes.first ?? 0)"
      )
    }
  }

  /// Version 3's facts: the bands, the checksum blocks (all verified: `info` opens a cube
  /// verifying every block) and the record's geometry flags.
  static func printVersion3(_ file: CubeFile) {
    let bands = file.bandCount == 1 ? "1 band" : "\(file.bandCount) bands"
    print("bands     \(bands) of \(file.bandCells) cells")
    print("checksums \(file.checksumBlockCount) blocks of 64 KiB, \(file.verifiedBlockCount) verified")
    let checked =
      file.projectionChecked ? "the projection locates every cell (checked at ingest)" : "cells located by index"
    let index = file.locatorIndexRange.map { "a locator index of \($0.count) bytes" } ?? "no locator index"
    print("locator   \(checked); \(index)")
  }

  /// Ascending step indices as ranges: `0–3, 7, 9–10`.
  static func stepRanges(_ steps: [Int]) -> String {
    var parts: [String] = []
    var index = 0
    while index < steps.count {
      var end = index
      while end + 1 < steps.count, steps[end + 1] == steps[end] + 1 { end += 1 }
      parts.append(end == index ? "\(steps[index])" : "\(steps[index])–\(steps[end])")
      index = end + 1
    }
    return parts.joined(separator: ", ")
  }

  /// The cube as one JSON object: `{"format_version": N, "file_bytes": N, "cells": N,
  /// "steps": N, "positions": N, "bands": N, "band_cells": N, "checksum_blocks": N,
  /// "projection_checked": B, "locator_index_bytes": N, "metrics": [{"name", "unit",
  /// "precision", "stored_bytes", "bytes_per_value"}, …]}`, with `"step_positions": [N, …]` after `positions` when the
  /// grid moves. A metric's stored bytes are its share of the file: its
  /// section (table and payloads) in version 2, its 2 × cells × steps words in version 1,
  /// so that the bytes per value of any subset of metrics can be added up.
  static func json(_ file: CubeFile) -> String {
    let h = file.header
    let values = Double(h.cells) * Double(h.stepCount)
    let metrics = h.metrics.enumerated().map { index, metric in
      let bytes = file.dataBytes[index]
      return
        "{\"name\": \(JSONText.string(metric.name)), \"unit\": \(JSONText.string(metric.unit)), \"precision\": \(metric.scale), \"stored_bytes\": \(bytes), \"bytes_per_value\": \(Double(bytes) / values)}"
    }
    let moving =
      file.isMoving ? "\"step_positions\": [\(file.stepPositions.map(String.init).joined(separator: ", "))], " : ""
    let bands =
      "\"bands\": \(file.bandCount), \"band_cells\": \(file.bandCells), \"checksum_blocks\": \(file.checksumBlockCount), \"projection_checked\": \(file.projectionChecked), \"locator_index_bytes\": \(file.locatorIndexRange?.count ?? 0), "
    return
      "{\"format_version\": \(file.formatVersion), \"file_bytes\": \(file.fileBytes), \"cells\": \(h.cells), \"steps\": \(h.stepCount), \"positions\": \(file.positionCount), \(moving)\(bands)\"metrics\": [\(metrics.joined(separator: ", "))]}"
  }

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
