/// A set of places searchable by name and by position, indexed once when it is made.
///
/// Names are matched by prefix, ignoring case and diacritics, on each place's name, ASCII
/// name and alternate names, so `evora` finds Évora and `lisboa` finds Lisbon. The matches
/// come most populous first, each place once however many of its names match.
public struct Gazetteer: Sendable {
  /// The most places one search returns.
  public static let maximumCount = 100

  /// The places, most populous first (ties by GeoNames id): a place's position is its rank.
  public let places: [Place]
  let names: NameIndex
  private let grid: PlaceGrid
  /// Each place's rank by its GeoNames id, for `place(id:)`.
  let ranksByID: [Int: Int]

  /// A gazetteer of `places`, indexed for search by name and for the nearest place.
  public init(places: [Place]) {
    let ranked = places.sorted { left, right in
      left.population != right.population ? left.population > right.population : left.id < right.id
    }
    self.places = ranked
    names = NameIndex(names: ranked.map { [$0.name, $0.asciiName] + $0.alternateNames })
    grid = PlaceGrid(coordinates: ranked.map { (latitude: $0.latitude, longitude: $0.longitude) })
    // A file read by `GazetteerFile` has distinct ids; of places given twice, the more
    // populous one is kept.
    ranksByID = Dictionary(ranked.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The gazetteer in the GeoNames `cities*.txt` file at `path`.
  /// - Throws: `GazetteerError` naming the file, line and column at fault.
  public init(contentsOf path: String) throws(GazetteerError) {
    self.init(places: try GazetteerFile.read(path))
  }

  /// How many names (after folding, distinct per place) the name index holds.
  public var nameCount: Int { names.keyCount }

  /// The places with a name that starts with `name`, ignoring case, diacritics and the
  /// spaces around it; at most `count` (clamped to 0…`maximumCount`), most populous first.
  public func search(_ name: String, count: Int = 10) -> [Place] {
    let prefix = NameFolding.fold(String(name.trimmingSpaces))
    let limit = max(0, min(count, Self.maximumCount))
    return names.best(withPrefix: prefix, count: limit).map { places[$0] }
  }

  /// The place nearest to the point (great-circle distance), nil when there are none.
  public func nearest(latitude: Double, longitude: Double) -> Place? {
    grid.nearest(latitude: latitude, longitude: longitude).map { places[$0.index] }
  }
}

extension String {
  /// The string without spaces, tabs or line breaks at either end.
  var trimmingSpaces: Substring {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return self[first...last]
  }
}
