extension Gazetteer {
  /// The place with GeoNames id `id`, nil when the gazetteer has none.
  public func place(id: Int) -> Place? {
    ranksByID[id].map { places[$0] }
  }

  /// The most populous place called `name` (its whole name, ASCII name or an alternate
  /// name, ignoring case, diacritics and the spaces around it), in the country
  /// `countryCode` (ISO 3166 alpha-2, any case) when one is given; nil when none is.
  ///
  /// A whole name, not a prefix as `search` takes: a client asking for the weather in
  /// `Porto` means Porto, not the most populous place whose name starts with it.
  public func place(named name: String, countryCode: String? = nil) -> Place? {
    let key = NameFolding.fold(String(name.trimmingSpaces))
    let country = countryCode?.uppercased()
    return names.ranks(named: key).lazy.map { places[$0] }.first { place in
      country.map { place.countryCode.uppercased() == $0 } ?? true
    }
  }
}
