import CubeFormat
import Foundation
import PointQuery
import _TestSupport

/// Opens one mutated cube through `CubeFile` and `Cube` and checks what comes back against
/// the cube's bytes: a refusal must be one line naming the file; an acceptance must hold
/// only fields within the documented limits, and every value read or looked up must be the
/// stored word decoded by the (mutated) header's own scale and offset.
struct CubeOracle {
  let path: String
  let raw: RawCube
  private(set) var failures: [String] = []

  init(path: String, bytes: [UInt8]) {
    self.path = path
    raw = RawCube(bytes)
  }

  private mutating func fail(_ text: String) { failures.append(text) }

  /// A refusal: one line, naming the file.
  mutating func checkRefusal(_ message: String, by reader: String) {
    if message.contains("\n") || !message.contains(path) || message.count > 400 {
      fail("\(reader) refused with a message that is not one line naming the file: \(message)")
    }
  }

  /// A cube `CubeFile` accepted: its fields are the bytes' and within the limits, and every
  /// word reads back as stored.
  mutating func checkAccepted(_ file: CubeFile) {
    if let violation = raw.limitViolation() {
      fail("CubeFile accepted a cube outside the limits: \(violation)")
      return
    }
    let header = file.header
    if (header.width, header.height, header.stepCount, header.metrics.count)
      != (raw.width, raw.height, raw.stepCount, raw.metricCount)
      || (header.firstTime, header.stepSeconds, header.runStart) != (raw.firstTime, raw.stepSeconds, raw.runStart)
      || header.lastTime != raw.lastTime
    {
      fail("CubeFile's header \(header) differs from the bytes")
    }
    for (index, metric) in header.metrics.enumerated()
    where metric.name != raw.name(index) || metric.scale.bitPattern != raw.scale(index).bitPattern
      || metric.offset.bitPattern != raw.offset(index).bitPattern || metric.temporal != raw.temporal(index)
    {
      fail("CubeFile's metric \(index) \(metric) differs from the bytes")
    }
    if file.latitudes != raw.latitudes || file.longitudes != raw.longitudes {
      fail("CubeFile's coordinates differ from the bytes")
    }
    // Terrain: present exactly when the flag says, as stored, and within its limits.
    let terrain = file.terrain
    if let raw = raw.terrain {
      // Version 3 checks terrain when it is read, not at open: a height or mask byte outside
      // the limits reads as unknown.
      let lenient = self.raw.version == 3
      let heights = raw.heights.map { lenient && !(-1_000...9_000).contains($0) ? Float.nan : $0 }
      let masks = raw.masks.map { lenient && $0 > 1 ? 255 : $0 }
      if terrain?.heights.map(\.bitPattern) != heights.map(\.bitPattern) || terrain?.landMask != masks {
        fail("CubeFile's terrain differs from the bytes")
      }
      if !lenient,
        raw.heights.contains(where: { !$0.isNaN && !(-1_000...9_000).contains($0) })
          || raw.masks.contains(where: { $0 > 1 && $0 != 255 })
      {
        fail("CubeFile accepted terrain outside the limits")
      }
    } else if terrain != nil {
      fail("CubeFile read a terrain section the bytes do not announce")
    }
    checkPositions(file)
    for metric in 0..<raw.metricCount {
      for cell in 0..<raw.cells {
        for step in 0..<raw.stepCount
        where file.word(metric: metric, cell: cell, step: step) != raw.word(metric, cell: cell, step: step) {
          fail("CubeFile's word of metric \(metric) at cell \(cell), step \(step) differs from the bytes")
          return
        }
      }
    }
  }

  /// The positions `CubeFile` read: the count, the table and every position's coordinates
  /// and terrain as the bytes hold them.
  private mutating func checkPositions(_ file: CubeFile) {
    guard file.positionCount == raw.positionCount, file.stepPositions == raw.stepPositions else {
      fail("CubeFile's \(file.positionCount) positions or step table differ from the bytes")
      return
    }
    for position in 0..<raw.positionCount {
      let stored = raw.position(position)
      let terrain = file.terrain(position: position)
      if file.latitudes(position: position) != stored.latitudes
        || file.longitudes(position: position) != stored.longitudes
        || terrain?.heights.map(\.bitPattern) != stored.heights?.map(\.bitPattern) || terrain?.landMask != stored.masks
      {
        fail("CubeFile's position \(position) differs from the bytes")
      }
    }
  }

  /// A cube `Cube` accepted: lookups at the coordinates of `cells` and at `extraPoints`, by
  /// both methods, at every step, between steps, over the whole time axis and outside it.
  ///
  /// A grid whose width and height the mutation changed (same number of cells) holds its
  /// coordinates in a scrambled order: its lookups must still be clean, and a nearest
  /// cell found must be the nearest, but a cell's own coordinates may fall outside the
  /// scrambled mesh and a bilinear value there is not that cell's.
  mutating func checkLookups(_ cube: Cube, cells: [Int], extraPoints: [(Double, Double)]) {
    let (latitudes, longitudes) = (raw.latitudes, raw.longitudes)
    let brute = BruteForce.Grid(latitudes: latitudes, longitudes: longitudes)
    let intact = raw.width == SmallCube.width && raw.height == SmallCube.height
    let cells = cells.filter { $0 < raw.cells }
    let cellPoints = cells.map { (Double(latitudes[$0]), Double(longitudes[$0])) }
    let slots = SmallCube.names.map { name in (0..<raw.metricCount).first { raw.name($0) == name } }
    for (pointIndex, (latitude, longitude)) in (cellPoints + extraPoints).enumerated() {
      let ownCell = intact && pointIndex < cells.count
      for method in InterpolationMethod.allCases {
        let location: PointLocation
        do {
          location = try cube.locate(latitude: latitude, longitude: longitude, method: method)
        } catch {
          checkRefusal("\(path): \(error.description)", by: "locate")
          if ownCell, method == .nearest {
            fail("no nearest cell for cell \(cells[pointIndex])'s own coordinates: \(error.description)")
          }
          continue
        }
        guard (0..<raw.width).contains(location.i), (0..<raw.height).contains(location.j) else {
          fail("\(method) location (\(location.i), \(location.j)) is off the \(raw.width)×\(raw.height) grid")
          continue
        }
        let cell = location.j * raw.width + location.i
        if method == .nearest, !brute.isNearest(cell, latitude: latitude, longitude: longitude) {
          fail("nearest cell \(cell) for \(latitude), \(longitude) is not the nearest")
        }
        for (name, slot) in zip(SmallCube.names, slots) {
          guard let metric = try? cube.metric(name) else {
            fail("metric \(name) does not resolve")
            continue
          }
          checkValues(cube, metric, slot: slot, at: location, cell: cell, ownCell: ownCell)
        }
      }
    }
  }

  private mutating func checkValues(
    _ cube: Cube, _ metric: QueryMetric, slot: Int?, at location: PointLocation, cell: Int, ownCell: Bool
  ) {
    let nearest = location.method == .nearest
    let raw = self.raw
    let expected = { (step: Int) -> Double? in slot.flatMap { raw.value($0, cell: cell, step: step) } }
    for step in 0..<raw.stepCount {
      let time = raw.firstTime + Int64(step) * raw.stepSeconds
      let value: Double?
      do {
        value = try cube.value(metric, at: location, time: time)
      } catch {
        fail("value of \(metric.metric.name) at step \(step) failed: \(error.description)")
        continue
      }
      if let value, !value.isFinite { fail("value \(value) of \(metric.metric.name) is not finite") }
      if nearest, value != expected(step) {
        fail(
          "\(metric.metric.name) at cell \(cell), step \(step) is \(String(describing: value)), stored \(String(describing: expected(step)))"
        )
      }
      // At a cell's own coordinates a bilinear value is that cell's, up to rounding.
      if !nearest, ownCell, let value, let stored = expected(step),
        abs(value - stored) > 1e-6 * (abs(stored) + raw.scale(slot ?? 0) * 65534)
      {
        fail("bilinear \(metric.metric.name) at cell \(cell)'s coordinates, step \(step): \(value), stored \(stored)")
      }
      guard nearest, step + 1 < raw.stepCount, raw.stepSeconds >= 2, let slot else { continue }
      // Between steps: an hourly amount or a category is the next step's, an instantaneous
      // value lies between its neighbours.
      let between = try? cube.value(metric, at: location, time: time + raw.stepSeconds / 2)
      let next = expected(step + 1)
      if raw.temporal(slot) != 0 {
        if between != next { fail("hourly amount between steps \(step) and \(step + 1) is not the later one") }
      } else if let a = expected(step), let b = next {
        guard let between, between >= min(a, b) - 1e-9, between <= max(a, b) + 1e-9 else {
          fail(
            "\(metric.metric.name) between steps \(step) and \(step + 1) is \(String(describing: between)), not in \(a)…\(b)"
          )
          continue
        }
      } else if between != nil {
        fail("\(metric.metric.name) between a missing step and another is not missing")
      }
    }
    checkSeries(cube, metric, at: location, expected: nearest ? expected : nil)
  }

  private mutating func checkSeries(
    _ cube: Cube, _ metric: QueryMetric, at location: PointLocation, expected: ((Int) -> Double?)?
  ) {
    do {
      let range = try cube.stepIndices(from: raw.firstTime, to: raw.lastTime)
      guard range == 0..<raw.stepCount else {
        fail("the whole time axis is steps \(range), not 0..<\(raw.stepCount)")
        return
      }
      let series = try cube.series(metric, at: location, steps: range)
      if let expected, series != range.map(expected) {
        fail("series of \(metric.metric.name) \(series) differs from the stored words")
      }
      _ = try cube.value(metric, at: location, time: raw.lastTime + 1)
      fail("a time after the last step gave a value")
    } catch {
      if case .timeOutsideRun = error {
        checkRefusal("\(path): \(error.description)", by: "value")
      } else {
        fail("series or time check failed: \(error.description)")
      }
    }
  }
}
