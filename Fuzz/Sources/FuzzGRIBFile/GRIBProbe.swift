import FuzzSupport
import GRIB

/// Everything the GRIB path does with a file, on whatever bytes an input holds: open it
/// (the scan of messages and sections, every message's keys through ecCodes), then for
/// every message its grid's coordinates and its values, as ingest reads them. Every step
/// may throw; none may trap, hang or give a grid or values of the wrong size.
enum GRIBProbe {
  /// Messages of more points are opened but neither located nor decoded: the reader's own
  /// limit (50 million points, checked before allocation and tested in
  /// GRIBHostileInputTests) would let one input spend seconds filling 400 MB, and the
  /// fuzzer would spend its time there instead of on the paths that differ.
  static let largestProbed = 1 << 21

  static func probe(_ bytes: [UInt8]) {
    guard let path = FuzzScratch.write(bytes, to: "input.grib2") else { return }
    defer { FuzzScratch.remove("input.grib2") }
    guard let file = try? GRIBFile(path: path) else { return }
    var sum = 0.0
    for message in file.messages where message.numberOfDataPoints <= largestProbed {
      if let grid = try? file.grid(of: message) {
        let cells = grid.width * grid.height
        // A grid whose arrays disagree with its shape, or a latitude off the globe, is a
        // silently impossible answer: a finding, so it traps here.
        precondition(grid.latitudes.count == cells && grid.longitudes.count == cells, "coordinates of another shape")
        precondition(grid.latitudes.allSatisfy { !($0.magnitude > 90.001) }, "latitude beyond a pole")
        sum += Double(grid.latitudes.first ?? 0) + Double(grid.longitudes.last ?? 0)
      }
      if let values = try? file.values(of: message) {
        precondition(values.count == message.numberOfDataPoints, "\(values.count) values")
        sum += values.first ?? 0
      }
      sum += (try? file.double("latitudeOfFirstGridPointInDegrees", of: message)) ?? 0
    }
    blackHole(sum)
  }
}
