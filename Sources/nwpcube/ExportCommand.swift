import ArgumentParser
import Meteorology
import PointQuery
import UTCTime

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write one metric of a cube as raw little-endian float32, step by row by column.",
    discussion: """
      The file holds steps × south_north × west_east values in that order (west–east \
      fastest), NaN where a value is missing, with no header: in numpy, \
      numpy.fromfile(FILE, "<f4").reshape(steps, south_north, west_east). The shape and \
      time axis are printed on standard error. Each value is the one query and series give \
      at that cell with --method nearest, rounded to float32.

      A grid that moves (a vortex-following WRF nest) keeps its shape but not its place: \
      cell (i, j) is at a different place at different steps. nwpcube info lists the \
      positions, the steps that use each and where cell (0, 0) is.
      """
  )

  @Argument(help: "A .cube file.")
  var cube: String

  @Option(help: "The metric to write, as query names it (e.g. temp, wind_u, wind_vel).")
  var metric: String

  @Option(help: "The file to write; replaced only once it is complete.")
  var out: String

  func run() throws {
    let cube = try Cube(path: self.cube)
    let metric = try cube.metric(self.metric)
    guard metric.metric.origin != .timeLaggedMembers else {
      throw ExportFailure(
        "\(self.cube): cannot export \(self.metric): it averages several runs, so one cube cannot give it; export precip_neighbourhood for this run's share"
      )
    }
    guard metric.isAvailable else {
      throw ExportFailure(
        "\(self.cube): cannot export \(self.metric): \(cube.absenceReason(metric.metric))")
    }
    let (width, height, steps) = (cube.header.width, cube.header.height, cube.stepCount)
    // A verified cube's shape is within CubeLimits, but the file's size is still formed with
    // overflow checks before any offset is derived from it.
    let (cells, cellsOverflow) = width.multipliedReportingOverflow(by: height)
    let (values, valuesOverflow) = cells.multipliedReportingOverflow(by: steps)
    let (_, bytesOverflow) = values.multipliedReportingOverflow(by: 4)
    guard !cellsOverflow, !valuesOverflow, !bytesOverflow else {
      throw ExportFailure("\(self.cube): \(width) × \(height) cells × \(steps) steps is too large to export")
    }
    let file = try ExportFile(path: out, notReplacing: self.cube)
    // One row of cells at a time: each cell's series is read in one call (a point's series
    // is the cube's fast path), then transposed so that each step's part of the row is one
    // contiguous write.
    var series = [Double](repeating: .nan, count: steps)
    var row = [UInt32](repeating: 0, count: width * steps)
    for j in 0..<height {
      for i in 0..<width {
        // Every (i, j) here is on the grid; a cell the cube could not name would otherwise
        // leave zeros in the file, so it stops the export instead.
        guard let location = cube.location(i: i, j: j) else {
          throw ExportFailure("\(self.cube): cell (\(i), \(j)) is not on the cube's \(width)×\(height) grid")
        }
        try series.withUnsafeMutableBufferPointer { (buffer) throws(QueryError) in
          try cube.series(metric, at: location, steps: 0..<steps, into: buffer)
        }
        for step in 0..<steps { row[step * width + i] = Float(series[step]).bitPattern.littleEndian }
      }
      try row.withUnsafeBytes { bytes in
        for step in 0..<steps {
          let part = UnsafeRawBufferPointer(rebasing: bytes[(step * width * 4)..<((step + 1) * width * 4)])
          try file.write(part, at: (Int64(step) * Int64(height) + Int64(j)) * Int64(width) * 4)
        }
      }
    }
    try file.publish()
    let every = InfoCommand.duration(cube.stepLength)
    printError(
      "\(out): \(self.metric) (\(metric.metric.unit)) as little-endian float32, shape [\(steps), \(height), \(width)] = steps × south_north × west_east, NaN where missing; steps from \(UTC.iso8601(cube.firstTime)) every \(every)"
    )
    if cube.file.positionCount > 1 {
      printError(
        "\(out): the grid moves (\(cube.file.positionCount) positions): cell (i, j) is at a different place at different steps; nwpcube info \(self.cube) lists where"
      )
    }
  }
}
