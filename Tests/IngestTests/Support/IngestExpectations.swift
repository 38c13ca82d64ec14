import Foundation
import Ingest
import Meteorology
import NetCDF
import SampleRun
import Testing
import _TestSupport

/// Expects ingest of `paths` into `store` to fail with one line that starts with `prefix`
/// and contains every one of `parts` (and passes `check`), and to publish no cube.
func expectIngestRefused(
  _ paths: [String], store: String, startsWith prefix: String = "", contains parts: [String] = [],
  check: (String) -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
) {
  let error = #expect(throws: IngestError.self, sourceLocation: sourceLocation) {
    try Ingestor.run(paths, options: .init(store: store, precision: Metric.versionOneSteps))
  }
  let text = error?.description ?? ""
  #expect(text.hasPrefix(prefix), "\(text)", sourceLocation: sourceLocation)
  for part in parts { #expect(text.contains(part), "'\(part)' not in: \(text)", sourceLocation: sourceLocation) }
  check(text)
  #expect(!text.contains("\n"), sourceLocation: sourceLocation)
  let stored = FileManager.default.enumerator(atPath: store)?.allObjects.compactMap { $0 as? String } ?? []
  #expect(!stored.contains { $0.hasSuffix(".cube") }, "published: \(stored)", sourceLocation: sourceLocation)
}

/// A small CF file: hourly `t2m` (K) at `hours` since `2026-06-20 00:00:00` on 1-D
/// `lat`/`lon` axes, or on 2-D `lat`/`lon(y, x)` arrays when `grid` is given, with a scalar
/// `forecast_reference_time` in the same units when `referenceHour` is given.
func writeSmallCF(
  _ path: String, lats: [Double] = [44, 43, 42, 41, 40], lons: [Double] = [350, 351, 352, 353, 354, 355],
  grid: (width: Int, height: Int, lat: [Double], lon: [Double])? = nil, hours: [Double] = [0, 1],
  referenceHour: Double? = nil
) throws {
  let units = "hours since 2026-06-20 00:00:00"
  let file = try NCFile.create(path, format: .netcdf4)
  defer { file.close() }
  try file.defineDimension("time", length: nil)
  let (height, width) = grid.map { ($0.height, $0.width) } ?? (lats.count, lons.count)
  let axes = grid == nil ? ["lat", "lon"] : ["y", "x"]
  try file.defineDimension(axes[0], length: height)
  try file.defineDimension(axes[1], length: width)
  try file.defineVariable("time", type: .double, dimensions: ["time"])
  try file.setAttribute("units", .text(units), on: "time")
  try file.defineVariable("lat", type: .float, dimensions: grid == nil ? ["lat"] : axes)
  try file.setAttribute("units", .text("degrees_north"), on: "lat")
  try file.defineVariable("lon", type: .float, dimensions: grid == nil ? ["lon"] : axes)
  try file.setAttribute("units", .text("degrees_east"), on: "lon")
  try file.defineVariable("t2m", type: .float, dimensions: ["time"] + axes)
  try file.setAttribute("units", .text("K"), on: "t2m")
  if referenceHour != nil {
    try file.defineVariable("forecast_reference_time", type: .double, dimensions: [])
    try file.setAttribute("units", .text(units), on: "forecast_reference_time")
  }
  try file.endDefinitions()
  if let grid {
    try file.write("lat", start: [0, 0], count: [height, width], grid.lat)
    try file.write("lon", start: [0, 0], count: [height, width], grid.lon)
  } else {
    try file.write("lat", start: [0], count: [height], lats)
    try file.write("lon", start: [0], count: [width], lons)
  }
  try file.write("time", start: [0], count: [hours.count], hours)
  try file.write(
    "t2m", start: [0, 0, 0], count: [hours.count, height, width],
    (0..<(hours.count * width * height)).map { 280 + Double($0 % 7) })
  if let referenceHour {
    try file.write("forecast_reference_time", start: [], count: [], [referenceHour])
  }
}

/// The 135 × 80 sample run in one file of `hours` + 1 steps, its XLAT/XLONG per step
/// changed by `spoil(step, latitude?, values)`.
func spoiltRun(
  hours: Int, in directory: String, _ spoil: @escaping @Sendable (Int, Bool, inout [Double]) -> Void
) throws -> String {
  var spec = SampleRunSpec.portugal9km
  spec.hours = hours
  try SampleRunGenerator.writeSingleFile(spec, to: "\(directory)/run.nc")
  let spoilt = "\(directory)/wrfout_d01_spoilt.nc"
  try WRFFixture.copy(
    "\(directory)/run.nc", to: spoilt,
    transform: { name, values in
      guard name == "XLAT" || name == "XLONG" else { return values }
      let cells = 135 * 80
      return (0..<(values.count / cells)).flatMap { step in
        var grid = Array(values[(step * cells)..<((step + 1) * cells)])
        spoil(step, name == "XLAT", &grid)
        return grid
      }
    })
  return spoilt
}
