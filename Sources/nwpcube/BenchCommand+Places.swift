import ArgumentParser
import FaceKit
import Foundation
import Places
import SampleRun

extension BenchCommand {
  /// The fewest places the places kind searches: the issue's target is set on 150,000.
  static let placesTarget = 150_000

  /// Times search by name and the nearest place on a gazetteer of at least `placesTarget`
  /// places, each call timed on its own (a search takes microseconds, so the clock's cost
  /// of some 20 ns is small beside it and batches would hide the slow tail).
  ///
  /// The bundled extract has fewer places, so the gazetteer is grown from it by copies:
  /// copy k of each place has every name suffixed " k", a longitude k/copies of the way
  /// round the world from the original's and an id k·10⁹ above it. The copies share the
  /// originals' prefixes, so a prefix range holds (copies + 1) times the keys it holds in
  /// the extract: harder than the same number of distinct names would be.
  func benchPlaces() throws {
    let path = places ?? PlacesCommand.bundled
    let original = try GazetteerFile.read(path)
    guard !original.isEmpty else { throw ValidationError("\(path) has no places to grow a gazetteer from") }
    let copies = (Self.placesTarget + original.count - 1) / original.count
    var grown: [Place] = []
    grown.reserveCapacity(original.count * copies)
    for copy in 0..<copies {
      for place in original {
        guard copy > 0 else {
          grown.append(place)
          continue
        }
        var twin = place
        twin.id = place.id + copy * 1_000_000_000
        twin.name = "\(place.name) \(copy)"
        twin.asciiName = "\(place.asciiName) \(copy)"
        twin.alternateNames = place.alternateNames.map { "\($0) \(copy)" }
        twin.longitude = remainder(place.longitude + Double(copy) * 360 / Double(copies), 360)
        grown.append(twin)
      }
    }
    let indexing = ContinuousClock.now
    let gazetteer = Gazetteer(places: grown)
    let indexed = ContinuousClock.now - indexing

    // Queries: the first 1…8 characters of a random place's name or ASCII name (what
    // someone types before picking from the list), and random points uniform on the sphere.
    var random = SplitMix64(seed: seed)
    let names: [String] = (0..<queries).map { _ in
      let place = grown[Int(random.next() % UInt64(grown.count))]
      let name = random.next() % 2 == 0 ? place.name : place.asciiName
      return String(name.prefix(1 + Int(random.next() % 8)))
    }
    let points: [(Double, Double)] = (0..<queries).map { _ in
      (asin(2 * random.unit() - 1) * 180 / .pi, random.unit() * 360 - 180)
    }
    var sink = 0
    let search = timeEach { q in sink &+= gazetteer.search(names[q], count: 10).count }
    let nearest = timeEach { q in sink &+= gazetteer.nearest(latitude: points[q].0, longitude: points[q].1)?.id ?? 0 }
    if sink == 42 { print(sink) }  // keeps the optimiser from dropping the work

    let indexSeconds = Double(indexed.components.seconds) + Double(indexed.components.attoseconds) / 1e18
    if json {
      func timing(_ t: [Double]) -> String {
        JSONText.object(
          [("p50_ns", t[0]), ("p90_ns", t[1]), ("p99_ns", t[2]), ("max_ns", t[3])].map {
            ($0.0, JSONText.number($0.1, decimals: 1))
          })
      }
      print(
        JSONText.object([
          ("places", String(gazetteer.places.count)), ("names", String(gazetteer.nameCount)),
          ("index_seconds", JSONText.number(indexSeconds, decimals: 3)),
          ("search", timing(search)), ("nearest", timing(nearest)),
        ]))
      return
    }
    print(
      "places: \(gazetteer.places.count) places (\(path), \(original.count) places, and \(copies - 1) copies with "
        + "suffixed names and shifted longitudes), \(gazetteer.nameCount) names, indexed in "
        + String(format: "%.2f", indexSeconds) + " s; \(queries) queries per kind, each timed on its own")
    print("kind            p50 ns     p90 ns     p99 ns     max ns")
    for (kind, t) in [("places_search", search), ("places_nearest", nearest)] {
      print("\(kind.padded(15)) \(t.map { String(format: "%.1f", $0).padded(10) }.joined(separator: " "))")
    }
    print(
      "(places_search: the first 1…8 characters of a random place's name, 10 results; places_nearest: uniform points)")
  }

  /// p50, p90, p99 and the maximum of `body`'s time per query, each query timed alone after
  /// an untimed pass over the first 10,000 to warm the caches.
  private func timeEach(_ body: (Int) -> Void) -> [Double] {
    for q in 0..<min(queries, 10_000) { body(q) }
    var times: [Double] = []
    times.reserveCapacity(queries)
    for q in 0..<queries {
      let start = now()
      body(q)
      times.append(Double(now() - start))
    }
    times.sort()
    let count = times.count
    return [times[count / 2], times[count * 9 / 10], times[min(count - 1, count * 99 / 100)], times[count - 1]]
  }
}
