import Foundation
import Meteorology
import PointQuery
import Testing
import _TestSupport

@testable import Store

/// Runs of one domain share their grid, so a cube opened beside another of the same grid
/// takes that cube's locator instead of building its own; a cube of any other grid, even
/// of the same shape, builds its own.
@Suite struct GridSharingTests {
  /// Two runs of one grid, one of the same shape on another grid spacing (so every
  /// coordinate differs), and one of another shape, each in its own store.
  static func makeCubes() throws -> (directory: String, first: String, second: String, spaced: String, shaped: String) {
    let directory = SampleFiles.temporaryDirectory("grid-sharing")
    let first = try TestStores.publish(
      TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1), into: "\(directory)/a")
    let second = try TestStores.publish(
      TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2), into: "\(directory)/a")
    var spacedSpec = TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 3)
    spacedSpec.dx = 26_000
    let spaced = try TestStores.publish(spacedSpec, into: "\(directory)/b")
    var shapedSpec = TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 4)
    shapedSpec.westEast = 23
    let shaped = try TestStores.publish(shapedSpec, into: "\(directory)/c")
    return (directory, first, second, spaced, shaped)
  }

  @Test func aCubeOfTheSameGridTakesTheLocatorAndLocatesAsItsOwnWould() throws {
    let cubes = try Self.makeCubes()
    defer { SampleFiles.remove(cubes.directory) }
    let first = try Cube(path: cubes.first)
    let second = try Cube(path: cubes.second, sharingGridWith: [first])
    #expect(second.locator === first.locator)
    // The shared locator finds, for points all over and around the grid, what the cube's
    // own locator finds.
    let own = try Cube(path: cubes.second)
    #expect(own.locator !== first.locator)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let latitude = Double.random(in: 35...44, using: &generator)
      let longitude = Double.random(in: -14 ... -2, using: &generator)
      for method in [InterpolationMethod.nearest, .bilinear] {
        let shared = try? second.locate(latitude: latitude, longitude: longitude, method: method)
        let built = try? own.locate(latitude: latitude, longitude: longitude, method: method)
        #expect(
          shared.map { [$0.i, $0.j] } == built.map { [$0.i, $0.j] }, "\(latitude), \(longitude) \(method)")
      }
    }
  }

  @Test func aCubeOfAnotherGridBuildsItsOwnLocatorEvenAtTheSameShape() throws {
    let cubes = try Self.makeCubes()
    defer { SampleFiles.remove(cubes.directory) }
    let first = try Cube(path: cubes.first)
    let spaced = try Cube(path: cubes.spaced, sharingGridWith: [first])
    #expect(spaced.header.width == first.header.width && spaced.header.height == first.header.height)
    #expect(spaced.locator !== first.locator)
    #expect(spaced.locator.grid.latitudes != first.locator.grid.latitudes)
    let shaped = try Cube(path: cubes.shaped, sharingGridWith: [first, spaced])
    #expect(shaped.locator !== first.locator && shaped.locator !== spaced.locator)
    #expect(shaped.header.width == 23)
    // The grid of the first is found among others, wherever it is in the list.
    let again = try Cube(path: cubes.second, sharingGridWith: [shaped, spaced, first])
    #expect(again.locator === first.locator)
  }

  @Test func aStoreBuildsOneLocatorPerGrid() throws {
    let cubes = try Self.makeCubes()
    defer { SampleFiles.remove(cubes.directory) }
    let store = try ForecastStore(path: "\(cubes.directory)/a")
    #expect(store.cubes.count == 2)
    #expect(Set(store.cubes.map { ObjectIdentifier($0.locator) }).count == 1)
    // A run published later, found by a refresh, takes the locator of the runs open.
    try TestStores.publish(
      TestStores.spec(start: "2026-06-20_12:00:00", hours: 6, seed: 5), into: "\(cubes.directory)/a")
    store.refresh()
    #expect(store.cubes.count == 3)
    #expect(Set(store.cubes.map { ObjectIdentifier($0.locator) }).count == 1)
  }

  @Test func aCubeOpenedForSomeBlocksAnswersOnlyTheMetricsReadFromThem() throws {
    let cubes = try Self.makeCubes()
    defer { SampleFiles.remove(cubes.directory) }
    let whole = try Cube(path: cubes.first)
    let partial = try Cube(path: cubes.first, checksums: .blocks([Metric.temp.name]))
    let location = try whole.locate(latitude: 39.4, longitude: -8.1, method: .nearest)
    let time = whole.firstTime + 3600
    #expect(
      try partial.value(
        partial.metric(.temp), at: partial.locate(latitude: 39.4, longitude: -8.1, method: .nearest), time: time)
        == whole.value(whole.metric(.temp), at: location, time: time))
    #expect(!partial.metric(.rain).isAvailable)
    #expect(whole.metric(.rain).isAvailable)
    // Only temp, and whether the sun is up (computed, from no block).
    #expect(Set(partial.availableMetrics.map(\.metric)) == [.temp, .isDay])
  }
}
