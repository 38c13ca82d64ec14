import Forecast

extension MeteogramChart {
  /// "Meteogram 38.1294° N, 8.9341° W".
  var title: String {
    let latitude = "\(Self.degrees(abs(request.latitude)))° \(request.latitude < 0 ? "S" : "N")"
    let east = request.longitude > 180 ? request.longitude - 360 : request.longitude
    let longitude = "\(Self.degrees(abs(east)))° \(east < 0 ? "W" : "E")"
    return "Meteogram \(latitude), \(longitude)"
  }

  /// The runs and domains the values came from, the grid cell and the zone of the times,
  /// e.g. "Run 2026-06-20 00 UTC, wrf/d01 · cell 38.13° N 8.94° W, 52 m · times Europe/Lisbon (WEST, UTC+01:00)".
  var caption: String {
    var runs: [String] = []
    for source in series.provenance {
      let text = "\(Self.runTime(source.run)), \(source.model)/\(source.domain)"
      if !runs.contains(text) { runs.append(text) }
    }
    var parts = [(runs.count > 1 ? "Runs " : "Run ") + (runs.isEmpty ? "none" : runs.joined(separator: "; "))]
    if let cell = series.provenance.first {
      let east = cell.longitude > 180 ? cell.longitude - 360 : cell.longitude
      var text =
        "cell \(Self.degrees(abs(cell.latitude), decimals: 2))° \(cell.latitude < 0 ? "S" : "N") "
        + "\(Self.degrees(abs(east), decimals: 2))° \(east < 0 ? "W" : "E")"
      if let elevation = request.answerElevation(cell) { text += ", \(Int(elevation.rounded())) m" }
      parts.append(text)
    }
    let first = instants.first ?? 0
    let zone = request.timeZone
    parts.append(
      "times \(zone.identifier) (\(zone.abbreviation(at: first)), UTC\(Self.offset(zone.utcOffset(at: first))))")
    return parts.joined(separator: " · ")
  }

  /// A run `yyyyMMddHH` as "yyyy-MM-dd HH UTC"; another text as it is.
  static func runTime(_ run: String) -> String {
    let characters = Array(run)
    guard characters.count == 10, characters.allSatisfy(\.isNumber) else { return run }
    func part(_ range: Range<Int>) -> String { String(characters[range]) }
    return "\(part(0..<4))-\(part(4..<6))-\(part(6..<8)) \(part(8..<10)) UTC"
  }

  /// "+01:00" for 3600 seconds east.
  static func offset(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "−" : "+"
    let minutes = abs(seconds) / 60
    let hours = minutes / 60
    return "\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
  }

  /// Degrees with `decimals` places, e.g. "38.1294".
  static func degrees(_ value: Double, decimals: Int = 4) -> String {
    var factor = 1.0
    for _ in 0..<decimals { factor *= 10 }
    let scaled = Int64((value * factor).rounded())
    let whole = scaled / Int64(factor)
    var fraction = String(scaled % Int64(factor))
    while fraction.count < decimals { fraction = "0" + fraction }
    return decimals == 0 ? "\(whole)" : "\(whole).\(fraction)"
  }
}
