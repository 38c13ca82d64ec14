import ArgumentParser
import Foundation
import NwpcubeFace
import Places

struct PlacesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "places",
    abstract: "Find places by name in a GeoNames gazetteer, as GET /v1/search does.",
    discussion: """
      Matches the start of each place's name, ASCII name and alternate names, ignoring case \
      and diacritics (evora finds Évora, lisboa Lisbon); the most populous come first, each \
      place once. Without --places it reads \(PlacesCommand.bundled) relative to the current \
      directory, so it works from the repository's root.
      """
  )

  /// The bundled extract of Portugal and Spain, relative to the repository's root.
  static let bundled = "SampleGrids/places/cities1000_PT_ES.txt"

  @Argument(help: "A place name or the start of one.")
  var name: String

  @Option(help: ArgumentHelp("A GeoNames cities*.txt gazetteer.", valueName: "file"))
  var places: String?

  @Option(help: "The most places to list, 1…\(Gazetteer.maximumCount).")
  var count: Int = 10

  @Flag(help: "Print JSON as GET /v1/search does instead of a table.")
  var json = false

  func validate() throws {
    guard (1...Gazetteer.maximumCount).contains(count) else {
      throw ValidationError("--count \(count) is not in 1…\(Gazetteer.maximumCount)")
    }
    guard name.contains(where: { !$0.isWhitespace }) else {
      throw ValidationError("NAME is empty; give a place name or the start of one")
    }
  }

  func run() throws {
    let path = places ?? Self.bundled
    if places == nil, !FileManager.default.fileExists(atPath: path) {
      throw ValidationError(
        "no --places given and \(path) is not in the current directory; run from the repository's root or "
          + "give --places FILE")
    }
    let gazetteer = try Gazetteer(contentsOf: path)
    let started = ContinuousClock.now
    let found = gazetteer.search(name, count: count)
    let elapsed = ContinuousClock.now - started
    if json {
      let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
      print(try PlaceListing.json(found, generationMilliseconds: milliseconds))
      return
    }
    guard !found.isEmpty else {
      print("no place in \(path) has a name starting with '\(name)'")
      return
    }
    print("id        name                            country  latitude   longitude  population  timezone")
    for place in found {
      print(
        [
          String(place.id).padded(9), place.name.padded(31), place.countryCode.padded(8),
          String(place.latitude).padded(10), String(place.longitude).padded(10), String(place.population).padded(11),
          place.timezone,
        ].joined(separator: " "))
    }
  }
}
