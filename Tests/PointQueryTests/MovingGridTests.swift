import CubeFormat
import Foundation
import PointQuery
import Testing
import _TestSupport

/// A cube whose grid moves by whole cells between steps answers each step from that step's
/// own position: the nearest cell a brute force finds over that position's cells, values
/// interpolated in time between two positions from each one's own cells, and missing where
/// the position does not hold the point.
@Suite struct MovingGridTests {
  /// A moving cube of `positions` random shifts (up to 4 cells each way) and a random
  /// canonical step table over `steps` steps.
  static func randomCube(seed: UInt64, positions: Int, steps: Int) -> MovingGridSpec {
    var random = TestRandom(seed: seed)
    var cube = MovingGridSpec()
    cube.shifts = [(0, 0)]
    while cube.shifts.count < positions {
      let shift = (Int(random.next() % 9) - 4, Int(random.next() % 9) - 4)
      if !cube.shifts.contains(where: { $0 == shift }) { cube.shifts.append(shift) }
    }
    // Canonical: each step takes a position used before or the next new one, and every
    // position is used.
    var table = [0]
    var highest = 0
    while table.count < steps {
      let remaining = steps - table.count
      let unused = positions - 1 - highest
      if unused > 0 && (unused >= remaining || random.next() % 3 == 0) {
        highest += 1
        table.append(highest)
      } else {
        table.append(Int(random.next() % UInt64(highest + 1)))
      }
    }
    cube.stepPositions = table
    return cube
  }

  /// A random point over the area any position covers, with a margin beyond it, whose
  /// containment in every position the oracle can tell.
  static func point(_ cube: MovingGridSpec, _ random: inout TestRandom) -> (Double, Double) {
    while true {
      let latitude = random.uniform(37.6...40.2)
      let longitude = random.uniform(-10.5 ... -7.8)
      if cube.shifts.indices.allSatisfy({ cube.contains(latitude: latitude, longitude: longitude, position: $0) != nil }
      ) {
        return (latitude, longitude)
      }
    }
  }

  @Test func nearestValuesComeFromTheNearestCellOfEachStepsOwnPosition() throws {
    let directory = SampleFiles.temporaryDirectory("moving-nearest")
    defer { SampleFiles.remove(directory) }
    let spec = Self.randomCube(seed: 28, positions: 4, steps: 9)
    let cube = try Cube(path: try spec.write(into: directory))
    #expect(cube.isMoving && cube.positionCount == 4)
    #expect((0..<9).map(cube.position(ofStep:)) == spec.stepPositions)
    let oracles = spec.shifts.indices.map { position in
      let (latitudes, longitudes) = spec.coordinates(position: position)
      return BruteForce.Grid(latitudes: latitudes, longitudes: longitudes)
    }
    let (temp, rain) = (try cube.metric("temp"), try cube.metric("rain"))
    var random = TestRandom(seed: 7)
    var (answered, missing, outside) = (0, 0, 0)
    for _ in 0..<1000 {
      let (latitude, longitude) = Self.point(spec, &random)
      let inside = spec.shifts.indices.map {
        spec.contains(latitude: latitude, longitude: longitude, position: $0) == true
      }
      // A time on a step, or between two (a third of the time), anywhere in the run.
      let step = Int(random.next() % 8)
      let remainder: Int64 = random.next() % 3 == 0 ? Int64(random.next() % 3599) + 1 : 0
      let time = cube.time(ofStep: step) + remainder
      guard inside.contains(true) else {
        #expect(throws: QueryError.self) { try cube.locate(latitude: latitude, longitude: longitude, method: .nearest) }
        outside += 1
        continue
      }
      let location = try cube.locate(latitude: latitude, longitude: longitude, method: .nearest)
      // The nearest cell of a step's position, checked by the brute force; nil outside it.
      func cell(_ step: Int) throws -> Int? {
        let position = spec.stepPositions[step]
        #expect(cube.contains(location, step: step) == inside[position])
        guard inside[position] else {
          #expect(cube.location(location, atStep: step) == nil)
          return nil
        }
        let here = try #require(cube.location(location, atStep: step))
        let index = here.j * spec.width + here.i
        #expect(oracles[position].isNearest(index, latitude: latitude, longitude: longitude), "step \(step)")
        return index
      }
      func place(_ step: Int, _ index: Int) -> (Double, Double) {
        let (latitudes, longitudes) = spec.coordinates(position: spec.stepPositions[step])
        return (Double(latitudes[index]), Double(longitudes[index]))
      }
      // Temperature: the instant, linear in time between the two steps' own cells.
      let expectedTemp: Double?
      if remainder == 0 {
        expectedTemp = try cell(step).map { place(step, $0) }.map {
          MovingGridSpec.temperature(latitude: $0.0, longitude: $0.1, step: step)
        }
      } else if let before = try cell(step), let after = try cell(step + 1) {
        let a = place(step, before)
        let b = place(step + 1, after)
        let (t0, t1) = (
          MovingGridSpec.temperature(latitude: a.0, longitude: a.1, step: step),
          MovingGridSpec.temperature(latitude: b.0, longitude: b.1, step: step + 1)
        )
        expectedTemp = t0 + (t1 - t0) * Double(remainder) / 3600
      } else {
        expectedTemp = nil
      }
      let gotTemp = try cube.value(temp, at: location, time: time)
      #expect((gotTemp == nil) == (expectedTemp == nil), "\(latitude), \(longitude) at step \(step) + \(remainder) s")
      if let gotTemp, let expectedTemp {
        #expect(abs(gotTemp - expectedTemp) <= 0.026, "\(latitude), \(longitude) at step \(step) + \(remainder) s")
      }
      // The one-call path agrees with locate-then-read.
      #expect(try cube.value(temp, latitude: latitude, longitude: longitude, time: time, method: .nearest) == gotTemp)
      // Rain: the hour ending at the next step (or this one, on a step), at that step's cell.
      let rainStep = remainder == 0 ? step : step + 1
      let expectedRain = try cell(rainStep).map { place(rainStep, $0) }.map {
        MovingGridSpec.rain(latitude: $0.0, longitude: $0.1, step: rainStep)
      }
      let gotRain = try cube.value(rain, at: location, time: time)
      #expect((gotRain == nil) == (expectedRain == nil))
      if let gotRain, let expectedRain { #expect(abs(gotRain - expectedRain) <= 0.051) }
      gotTemp == nil ? (missing += 1) : (answered += 1)
    }
    // The draw reaches every case: answered, missing at the step, and outside every position.
    #expect(answered > 300 && missing > 30 && outside > 30, "\(answered) \(missing) \(outside)")
  }

  @Test func bilinearValuesInterpolateEachStepsOwnPositionNeverTheIndices() throws {
    let directory = SampleFiles.temporaryDirectory("moving-bilinear")
    defer { SampleFiles.remove(directory) }
    let spec = Self.randomCube(seed: 29, positions: 3, steps: 7)
    let cube = try Cube(path: try spec.write(into: directory))
    let temp = try cube.metric("temp")
    var random = TestRandom(seed: 8)
    var checked = 0
    for _ in 0..<1000 {
      let (latitude, longitude) = Self.point(spec, &random)
      let step = Int(random.next() % 6)
      let remainder: Int64 = random.next() % 2 == 0 ? Int64(random.next() % 3599) + 1 : 0
      let time = cube.time(ofStep: step) + remainder
      // Inside the hull of mass points (with a margin) in the positions read: there a
      // bilinear value of a field linear in place is the field at the point itself.
      func hull(_ step: Int) -> Bool? {
        let position = spec.stepPositions[step]
        let (x, y) = spec.gridPosition(latitude: latitude, longitude: longitude, position: position)
        if x >= 0.05, x <= Double(spec.width) - 1.05, y >= 0.05, y <= Double(spec.height) - 1.05 { return true }
        return spec.contains(latitude: latitude, longitude: longitude, position: position) == false ? false : nil
      }
      let steps = remainder == 0 ? [step] : [step, step + 1]
      let hulls = steps.map(hull)
      guard let location = try? cube.locate(latitude: latitude, longitude: longitude, method: .bilinear) else {
        #expect(!hulls.contains(true))
        continue
      }
      let value = try cube.value(temp, at: location, time: time)
      if hulls.allSatisfy({ $0 == true }) {
        let expected =
          steps.count == 1
          ? MovingGridSpec.temperature(latitude: latitude, longitude: longitude, step: step)
          : MovingGridSpec.temperature(latitude: latitude, longitude: longitude, step: step)
            + 0.5 * Double(remainder) / 3600
        let got = try #require(value, "\(latitude), \(longitude) at step \(step) + \(remainder) s")
        #expect(abs(got - expected) <= 0.05, "\(latitude), \(longitude) at step \(step) + \(remainder) s")
        checked += 1
      } else if hulls.contains(false) {
        #expect(value == nil)
      }
    }
    #expect(checked > 300, "\(checked)")
  }

  @Test func seriesWordsAndCoveredStepsFollowEachStepsPosition() throws {
    let directory = SampleFiles.temporaryDirectory("moving-series")
    defer { SampleFiles.remove(directory) }
    let spec = Self.randomCube(seed: 30, positions: 5, steps: 12)
    let cube = try Cube(path: try spec.write(into: directory))
    let temp = try cube.metric("temp")
    var random = TestRandom(seed: 9)
    var crossing = 0
    for _ in 0..<300 {
      let (latitude, longitude) = Self.point(spec, &random)
      guard let location = try? cube.locate(latitude: latitude, longitude: longitude, method: .nearest) else {
        continue
      }
      let inside = (0..<12).map {
        spec.contains(latitude: latitude, longitude: longitude, position: spec.stepPositions[$0]) == true
      }
      // The stretches, computed from the oracle's per-step containment.
      var stretches: [Range<Int>] = []
      for step in 0..<12 where inside[step] {
        if let last = stretches.last, last.upperBound == step {
          stretches[stretches.count - 1] = last.lowerBound..<(step + 1)
        } else {
          stretches.append(step..<(step + 1))
        }
      }
      #expect(cube.coveredSteps(location) == stretches)
      if stretches.count > 1 || stretches.first != 0..<12 { crossing += 1 }
      // A series equals the values step by step, nil where the step's position lacks the point.
      let series = try cube.series(temp, at: location, steps: 0..<12)
      let values = try (0..<12).map { try cube.value(temp, at: location, time: cube.time(ofStep: $0)) }
      #expect(series == values)
      #expect(zip(series, inside).allSatisfy { ($0 != nil) == $1 })
      // Undecoded words say the same.
      let decoding = try #require(try cube.wordDecoding(temp, at: location))
      var words = [UInt16](repeating: 0, count: 12)
      try words.withUnsafeMutableBufferPointer { try cube.words(temp, at: location, steps: 0..<12, into: $0) }
      #expect(words.map { $0 == WordDecoding.missing ? nil : decoding.value($0) } == series)
      cube.prefetchSeries(temp, at: location, steps: 0..<12)
    }
    #expect(crossing > 30, "\(crossing)")
  }

  @Test func terrainAndCellSelectionUseEachStepsPosition() throws {
    let directory = SampleFiles.temporaryDirectory("moving-terrain")
    defer { SampleFiles.remove(directory) }
    var spec = MovingGridSpec()
    spec.shifts = [(0, 0), (3, 2)]
    spec.stepPositions = [0, 0, 1, 1]
    let cube = try Cube(path: try spec.write(into: directory))
    // A point both positions hold, at a different cell index in each.
    let location = try cube.locate(latitude: 38.8, longitude: -9.3, method: .nearest)
    for step in 0..<4 {
      let here = try #require(cube.location(location, atStep: step))
      let (latitudes, longitudes) = spec.coordinates(position: spec.stepPositions[step])
      let index = here.j * spec.width + here.i
      let height = try #require(try cube.terrainHeight(at: location, step: step))
      let expected = MovingGridSpec.height(latitude: Double(latitudes[index]), longitude: Double(longitudes[index]))
      #expect(abs(height - expected) < 0.01)
    }
    #expect(cube.location(location, atStep: 0)?.i != cube.location(location, atStep: 2)?.i)
    // A cell named by index is that cell in every position, wherever it lies.
    let indexed = try #require(cube.location(i: 3, j: 4))
    for step in 0..<4 {
      let here = try #require(cube.location(indexed, atStep: step))
      let (latitudes, _) = spec.coordinates(position: spec.stepPositions[step])
      #expect(here.i == 3 && here.j == 4 && here.latitude == Double(latitudes[4 * spec.width + 3]))
      let value = try cube.value(cube.metric("temp"), at: indexed, time: cube.time(ofStep: step))
      let expected = MovingGridSpec.temperature(
        latitude: here.latitude, longitude: here.longitude, step: step)
      #expect(abs((value ?? .nan) - expected) <= 0.026)
    }
    // Selecting land near a point just west of the coast (−9.5): each position picks a land
    // cell of its own.
    let sea = try cube.locate(latitude: 38.8, longitude: -9.52, method: .nearest)
    let land = try cube.selecting(.land, latitude: 38.8, longitude: -9.52, from: sea)
    for step in [0, 2] {
      let here = try #require(cube.location(land, atStep: step))
      let (_, longitudes) = spec.coordinates(position: spec.stepPositions[step])
      #expect(longitudes[here.j * spec.width + here.i] > -9.5, "step \(step)")
    }
  }

  @Test func aCubeWhoseGridDoesNotMoveHasOnePositionThatHoldsEveryStep() throws {
    let directory = SampleFiles.temporaryDirectory("moving-fixed")
    defer { SampleFiles.remove(directory) }
    var spec = MovingGridSpec()
    spec.stepPositions = [0, 0, 0]
    let cube = try Cube(path: try spec.write(into: directory))
    #expect(!cube.isMoving && cube.positionCount == 1)
    #expect(cube.locator(position: 0) === cube.locator)
    let location = try cube.locate(latitude: 38.5, longitude: -9.0, method: .nearest)
    #expect(cube.coveredSteps(location) == [0..<3])
    #expect(cube.location(location, atStep: 1) == location)
  }
}
