import Forecast
import Foundation
import Testing

/// Components of a wind blowing from `direction` (degrees clockwise from north) at
/// `speed`: a wind from the north blows towards the south, so v is negative.
private func components(from direction: Double, speed: Double) -> (u: Double?, v: Double?) {
  let radians = direction * .pi / 180
  return (-speed * sin(radians), -speed * cos(radians))
}

private func dailyWind(_ hours: [(direction: Double, speed: Double)]) -> DailyWind {
  let winds = hours.map { components(from: $0.direction, speed: $0.speed) }
  return DailyWind(u: winds.map(\.u), v: winds.map(\.v))
}

/// The angle between two directions, 0…180°, so that 359.9° and 0.1° are 0.2° apart.
private func angularDistance(_ a: Double, _ b: Double) -> Double {
  let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
  return min(difference, 360 - difference)
}

@Suite struct DailyWindTests {
  @Test func theVectorMeanOf350And10IsNorth() throws {
    let wind = dailyWind([(350, 5), (10, 5)])
    let direction = try #require(wind.direction)
    #expect(angularDistance(direction, 0) <= 0.5)
    #expect(direction >= 0 && direction < 360)
    // Averaging the angles would say 180°, a southerly.
    #expect(angularDistance(direction, 180) > 179)
  }

  @Test func directionsWrapAt360() throws {
    for hours in [[(355.0, 4.0), (5, 4)], [(0, 3), (360, 3)], [(359, 2), (359, 2), (3, 2)]] {
      let direction = try #require(dailyWind(hours).direction)
      #expect(direction >= 0 && direction < 360)
      #expect(angularDistance(direction, hours.count == 3 ? 359 + 4.0 / 3 : 0) <= 0.01)
    }
  }

  @Test func meanSpeedAveragesSpeedsAndTheResultantShowsTheTurning() throws {
    // From the east and from the south at 3 m/s: the mean vector points from the
    // south-east (135°) with length 3 · cos 45°.
    let wind = dailyWind([(90, 3), (180, 3)])
    #expect(angularDistance(try #require(wind.direction), 135) < 1e-9)
    #expect(abs(try #require(wind.meanSpeed) - 3) < 1e-12)
    #expect(abs(try #require(wind.resultantSpeed) - 3 * sqrt(0.5)) < 1e-12)
  }

  @Test func theMeanIsWeightedBySpeed() throws {
    // 10 m/s from the north and 1 m/s from the east: mean (u, v) = (−0.5, −5), which
    // blows from atan(0.5 / 5) = 5.71° east of north.
    let wind = dailyWind([(0, 10), (90, 1)])
    #expect(angularDistance(try #require(wind.direction), atan(0.1) * 180 / .pi) < 1e-9)
    #expect(abs(try #require(wind.meanSpeed) - 5.5) < 1e-12)
  }

  @Test func cancellingOrCalmWindsHaveNoDirection() {
    let opposed = dailyWind([(90, 4), (270, 4)])
    #expect(opposed.direction == nil && opposed.meanSpeed == 4)
    let calm = DailyWind(u: [0, 0, 0], v: [0, 0, 0])
    #expect(calm.direction == nil && calm.meanSpeed == 0 && calm.known == 3)
  }

  @Test func hoursMissingEitherComponentAreLeftOut() throws {
    let wind = DailyWind(u: [nil, 0, -2, 1], v: [-3, -3, nil, .nan])
    // Only the second hour is whole: a 3 m/s northerly.
    #expect(wind.hours == 4 && wind.known == 1)
    #expect(angularDistance(try #require(wind.direction), 0) < 1e-9 && wind.meanSpeed == 3)
    let none = DailyWind(u: [nil], v: [nil])
    #expect(none.direction == nil && none.meanSpeed == nil && none.resultantSpeed == nil && none.known == 0)
  }

  @Test func buffersWithNaNForMissingGiveTheSameAnswer() {
    let u: [Double?] = [1, nil, -2, 0.5]
    let v: [Double?] = [2, 1, nil, -0.5]
    let fromBuffers = u.map { $0 ?? .nan }.withUnsafeBufferPointer { east in
      v.map { $0 ?? .nan }.withUnsafeBufferPointer { north in DailyWind(u: east, v: north) }
    }
    #expect(fromBuffers == DailyWind(u: u, v: v))
    #expect(fromBuffers.known == 2)
  }
}
