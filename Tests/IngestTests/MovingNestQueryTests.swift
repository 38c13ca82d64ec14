import Foundation
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// The generated run with a fixed d01 and a moving d02, from files to answers: at random
/// points and times, what a query answers equals a brute force over the files, the
/// nearest mass point (great circle) of that step's grid of the finest domain that holds
/// the point, and rain taken at the same place an hour earlier.
@Suite struct MovingNestQueryTests {
  /// What the files say a query at a point and step should answer (a leading edge's rain
  /// is missing: the nest's cube does not have it), or nil where the
  /// finest domain is ambiguous: a point whose nearest nest cell is on the nest's edge and
  /// within 1.5 nest cells of it may lie just inside or just outside.
  private struct Expected {
    let domain: String
    let temperature: Double
    /// nil where the nest has no earlier accumulation at the place (a move's leading edge).
    let rain: Double?
  }

  private static func expected(_ run: MovingRun, latitude: Double, longitude: Double, step: Int) -> Expected? {
    let nest = run.files
    let grid = BruteForce.Grid(latitudes: nest.latitudes[step], longitudes: nest.longitudes[step])
    let cell = grid.nearest(latitude: latitude, longitude: longitude)
    let (i, j) = (cell % nest.width, cell / nest.width)
    let onEdge = i == 0 || j == 0 || i == nest.width - 1 || j == nest.height - 1
    if !onEdge {
      let rain: Double? =
        step == 0
        ? 0
        : nest.cell(at: step - 1, samePlaceAs: cell, of: step).map {
          max(0, nest.rain[step][cell] - nest.rain[step - 1][$0])
        }
      return Expected(domain: "d02", temperature: nest.t2[step][cell] - 273.15, rain: rain)
    }
    let metres = BruteForce.distance(
      latitude: latitude, longitude: longitude, cellLatitude: nest.latitudes[step][cell],
      cellLongitude: nest.longitudes[step][cell])
    guard metres > 4_500 else { return nil }
    let parent = run.parent
    let outer = BruteForce.Grid(latitudes: parent.latitudes[step], longitudes: parent.longitudes[step])
    let parentCell = outer.nearest(latitude: latitude, longitude: longitude)
    let rain = step == 0 ? 0 : max(0, parent.rain[step][parentCell] - parent.rain[step - 1][parentCell])
    return Expected(domain: "d01", temperature: parent.t2[step][parentCell] - 273.15, rain: rain)
  }

  @Test func answersAtRandomPointsAndTimesAreTheBruteForceOfEachStepsGridWithRainByPlace() throws {
    let run = try MovingRun.shared.get()
    let catalog = RunCatalog(store: "moving", cubes: run.cubes)
    let nest = run.files
    // Over every place the nest visits, and 0.3° beyond.
    let latitudes = nest.latitudes.flatMap { $0 }
    let longitudes = nest.longitudes.flatMap { $0 }
    let latitudeRange = Double(latitudes.min() ?? 0) - 0.3...Double(latitudes.max() ?? 0) + 0.3
    let longitudeRange = Double(longitudes.min() ?? 0) - 0.3...Double(longitudes.max() ?? 0) + 0.3
    var random = TestRandom(seed: 0x4E57_2028)
    var counts: [String: Int] = [:]
    for _ in 0..<1_000 {
      let (latitude, longitude) = (random.uniform(latitudeRange), random.uniform(longitudeRange))
      let step = Int(random.next() % UInt64(nest.latitudes.count))
      guard let expected = Self.expected(run, latitude: latitude, longitude: longitude, step: step) else {
        counts["ambiguous", default: 0] += 1
        continue
      }
      let time = try #require(run.cubes.first).time(ofStep: step)
      let (cube, location) = try catalog.select(latitude: latitude, longitude: longitude, time: time, method: .nearest)
      let label = "\(latitude), \(longitude) at step \(step)"
      #expect(cube.header.domain == expected.domain, "\(label)")
      guard cube.header.domain == expected.domain else { continue }
      let temperature = try #require(try cube.value(cube.metric(.temp), at: location, time: time), "\(label)")
      #expect(abs(temperature - expected.temperature) <= (Metric.temp.step ?? 0.01) / 2 + 1e-6, "\(label)")
      let rain = try cube.value(cube.metric(.rain), at: location, time: time)
      if let wanted = expected.rain {
        let value = try #require(rain, "\(label)")
        #expect(abs(value - wanted) <= (Metric.rain.step ?? 0.1) / 2 + 1e-6, "\(label): \(value) vs \(wanted)")
        counts[expected.domain + (wanted > 0 ? " wet" : " dry"), default: 0] += 1
      } else {
        #expect(rain == nil, "\(label): leading edge has \(String(describing: rain))")
        counts["leading edge", default: 0] += 1
      }
    }
    // Both domains answered, the nest with rain, and some points lay on a leading edge
    // (with seed 0x4E57_2028: 377 nest answers, 121 of them wet, 540 parent ones, 11 on a
    // leading edge, 72 ambiguous).
    #expect(counts["d02 wet", default: 0] > 0 && counts["d01 dry", default: 0] + counts["d01 wet", default: 0] > 0)
    #expect(counts["leading edge", default: 0] > 0, "\(counts)")
    #expect(counts["ambiguous", default: 0] < 100, "\(counts)")
  }
}
