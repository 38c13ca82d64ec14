import CubeFormat
import Meteorology
import PointQuery

/// Everything a reader does with a cube, on whatever is at a path: open it as a query
/// does (every checksum) and as the store inventory does (the header's only), build the
/// locator, and when it opens, read words, locate points and read values and series as the
/// CLI and the server would. Every step may throw; none may trap or hang.
///
/// The locator and the lookups run on the cube opened without data checksums, so that a
/// mutated data block (checksums not recomputed) still reaches them.
public enum CubeProbe {
  public static func probe(_ path: String) {
    blackHole((try? CubeFile(path: path))?.fileBytes)
    if let file = try? CubeFile(path: path, verifyChecksums: false) {
      readWords(file)
      verifyBlocks(file)
    }
    if let cube = try? Cube(path: path, verifyChecksums: false) {
      lookUp(cube)
    }
  }

  /// Version 3's verification as a server runs it: the locator index's bytes, then the
  /// background verifier to the end, then a range past the file's end.
  static func verifyBlocks(_ file: CubeFile) {
    var sum = file.checksumBlockCount &+ file.verifiedBlockCount
    if let range = file.locatorIndexRange {
      sum &+= (try? file.withVerifiedBytes(range) { $0.reduce(0) { $0 &+ Int($1) } }) ?? 0
    }
    // At most a few thousand blocks fit in an input; the bound only keeps a bug from hanging.
    for _ in 0..<100_000 {
      guard let bytes = try? file.verifyNext(limit: 1 << 17), bytes > 0 else { break }
      sum &+= bytes
    }
    try? file.verify(bytes: 0..<(file.fileBytes &+ 1 << 20))
    blackHole((sum, file.isFullyVerified, file.isDamaged, file.damage?.reason.count))
  }

  /// The corners of every metric's block, as `info` and series reads touch them, and the
  /// first and last cell of every band (of the first 64).
  static func readWords(_ file: CubeFile) {
    let header = file.header
    var sum = 0
    let bandCells = (0..<min(file.bandCount, 64)).flatMap { band in
      [band * file.bandCells, min((band + 1) * file.bandCells, header.cells) - 1]
    }
    for metric in header.metrics.indices {
      for cell in Set([0, header.cells - 1] + bandCells) where cell >= 0 {
        for step in [0, header.stepCount - 1] where step >= 0 {
          sum &+= Int(file.word(metric: metric, cell: cell, step: step))
        }
      }
    }
    sum &+= file.latitudes.count &+ file.longitudes.count
    // Every step's position, and each position's coordinates and terrain at its corners,
    // as a query locating a point at each step reads them.
    for step in [0, header.stepCount - 1] where step >= 0 { sum &+= file.position(ofStep: step) }
    sum &+= file.stepPositions.reduce(0, &+)
    for position in 0..<file.positionCount {
      sum &+= file.latitudes(position: position).count &+ file.longitudes(position: position).count
      sum &+= file.terrain(position: position)?.landMask.count ?? 0
      for cell in [0, header.cells - 1] where cell >= 0 {
        sum &+= file.isLand(cell: cell, position: position) == true ? 1 : 0
        sum &+= Int(file.terrainHeight(cell: cell, position: position) ?? 0)
      }
    }
    // The terrain section, and its corners as a query reads them.
    sum &+= file.terrain?.heights.count ?? 0
    for cell in [0, header.cells - 1] where cell >= 0 {
      sum &+= file.isLand(cell: cell) == true ? 1 : 0
      sum &+= Int(file.terrainHeight(cell: cell) ?? 0)
    }
    blackHole(sum)
  }

  /// Points at the grid's corners, centre and off its edges, at the run's first, middle and
  /// last times and outside them, with every metric and both methods.
  static func lookUp(_ cube: Cube) {
    let latitudes = cube.file.latitudes
    let longitudes = cube.file.longitudes
    guard !latitudes.isEmpty, latitudes.count == longitudes.count else { return }
    let cells = [0, latitudes.count / 2, latitudes.count - 1]
    var points = cells.map { (Double(latitudes[$0]), Double(longitudes[$0])) }
    points += [(0, 0), (89.999, -179.999), (-90, 180), (Double(latitudes[0]) + 0.01, Double(longitudes[0]) - 0.01)]
    let first = cube.firstTime
    let times = [first, first &+ cube.stepLength / 2, cube.lastTime, .min]
    let metrics = Metric.queryable.map { cube.metric($0) }
    var sum = 0.0
    for (latitude, longitude) in points {
      for method in InterpolationMethod.allCases {
        for time in [first, .max] {
          sum +=
            (try? cube.value(metrics[0], latitude: latitude, longitude: longitude, time: time, method: method))
            .flatMap { $0 } ?? 0
        }
        guard let nearest = try? cube.locate(latitude: latitude, longitude: longitude, method: method) else {
          continue
        }
        // Land/sea selection moves the cell through the terrain section's mask.
        guard let location = try? cube.selecting(.land, latitude: latitude, longitude: longitude, from: nearest)
        else { continue }
        sum += (try? cube.terrainHeight(at: location)) ?? 0
        for metric in metrics {
          for time in times {
            sum += (try? cube.value(metric, at: location, time: time)).flatMap { $0 } ?? 0
          }
          if let range = try? cube.stepIndices(from: first, to: cube.lastTime) {
            sum += ((try? cube.series(metric, at: location, steps: range)) ?? []).compactMap { $0 }.reduce(0, +)
          }
        }
      }
    }
    blackHole(sum)
  }
}

/// Keeps a computed value alive so that the optimiser cannot drop the reads behind it.
@inline(never)
public func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
