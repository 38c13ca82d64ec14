import Foundation
import Places
import Testing
import _TestSupport

/// The nearest place against a scan of every place, with distances computed another way
/// (the angle between unit vectors, by atan2 of their cross and dot products).
@Suite struct GazetteerNearestTests {
  /// The great-circle angle between two points, in radians.
  static func angle(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    func vector(_ latitude: Double, _ longitude: Double) -> (Double, Double, Double) {
      let φ = latitude * .pi / 180
      let λ = longitude * .pi / 180
      return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }
    let a = vector(latitude1, longitude1)
    let b = vector(latitude2, longitude2)
    let cross = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
    let dot = a.0 * b.0 + a.1 * b.1 + a.2 * b.2
    return atan2((cross.0 * cross.0 + cross.1 * cross.1 + cross.2 * cross.2).squareRoot(), dot)
  }

  /// Deterministic random numbers in 0..<1 (SplitMix64).
  struct Random {
    var state: UInt64
    mutating func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
  }

  static func check(_ gazetteer: Gazetteer, at points: [(Double, Double)]) {
    var checked = 0
    for (latitude, longitude) in points {
      guard let found = gazetteer.nearest(latitude: latitude, longitude: longitude) else {
        Issue.record("no place found at \(latitude), \(longitude)")
        continue
      }
      let best = gazetteer.places.map { angle(latitude, longitude, $0.latitude, $0.longitude) }.min() ?? .infinity
      let distance = angle(latitude, longitude, found.latitude, found.longitude)
      #expect(abs(distance - best) <= 1e-12, "\(latitude), \(longitude): \(found.name) at \(distance), best \(best)")
      checked += 1
    }
    #expect(checked == points.count)
  }

  @Test func theNearestBundledPlaceIsTheOneAScanFinds() throws {
    let gazetteer = try #require(try? Gazetteer(contentsOf: SampleFiles.grid("places/cities1000_PT_ES.txt")))
    var random = Random(state: 7)
    // Over the Iberian peninsula and the Atlantic islands, and out to sea and far away,
    // where the search has to widen many times.
    var points = (0..<1_500).map { _ in (27 + random.unit() * 17, -19 + random.unit() * 24) }
    points += (0..<200).map { _ in (asin(2 * random.unit() - 1) * 180 / .pi, random.unit() * 360 - 180) }
    Self.check(gazetteer, at: points)
    let lisbon = try #require(gazetteer.nearest(latitude: 38.7166, longitude: -9.1335))
    #expect(lisbon.id == 2_267_057)
  }

  @Test func theNearestPlaceOnAWorldGazetteerIsTheOneAScanFinds() {
    var random = Random(state: 11)
    // Places everywhere, many near the poles and either side of the antimeridian, where
    // latitude/longitude cells are the least like the distances between points.
    var places = (0..<3_000).map { id in
      Place(
        id: id + 1, name: "P\(id)", latitude: asin(2 * random.unit() - 1) * 180 / .pi,
        longitude: random.unit() * 360 - 180)
    }
    places += (0..<300).map { id in
      Place(id: 10_000 + id, name: "N\(id)", latitude: 85 + random.unit() * 5, longitude: random.unit() * 360 - 180)
    }
    places += (0..<300).map { id in
      Place(
        id: 20_000 + id, name: "A\(id)", latitude: random.unit() * 120 - 60,
        longitude: random.unit() < 0.5 ? 179 + random.unit() : -180 + random.unit())
    }
    let gazetteer = Gazetteer(places: places)
    var points = (0..<2_000).map { _ in (asin(2 * random.unit() - 1) * 180 / .pi, random.unit() * 360 - 180) }
    points += (0..<300).map { _ in (random.unit() < 0.5 ? 89.999 : -89.999, random.unit() * 360 - 180) }
    points += (0..<300).map { _ in (random.unit() * 120 - 60, random.unit() < 0.5 ? 180 : -179.9999) }
    points += [(90, 0), (-90, 0), (0, 180), (0, -180), (0, 540), (12, -900)]
    Self.check(gazetteer, at: points)
  }

  @Test func aSparseGazetteerAndAnEmptyOneStillAnswer() {
    let one = Gazetteer(places: [Place(id: 1, name: "Alone", latitude: -45, longitude: 170)])
    #expect(one.nearest(latitude: 45, longitude: -10)?.id == 1)
    #expect(Gazetteer(places: []).nearest(latitude: 0, longitude: 0) == nil)
    #expect(one.nearest(latitude: .nan, longitude: 0) == nil)
  }
}
