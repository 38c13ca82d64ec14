import Meteorology

/// A rule's `above =` or `below =` value: a number and an optional unit, e.g. `70 km/h`,
/// `40 °C`, `10 mm/h`, `19.44` (the metric's own unit).
struct Threshold {
  /// Why a threshold cannot be read.
  struct Syntax: Error {
    let reason: String
  }

  let value: Double
  /// nil for the metric's own unit.
  let unit: (any MeasurementUnit)?
  /// The unit as answers print it.
  let label: String

  init(parsing text: Substring, metric: Metric) throws(Syntax) {
    let example = "e.g. above = 10 mm/h, above = 70 km/h or below = -5 °C"
    // The number is the leading run of the characters a decimal number has (an exponent's
    // `e` only where a digit or sign follows); the rest is the unit.
    var end = text.startIndex
    while end < text.endIndex {
      let character = text[end]
      if character.isASCII, character.isNumber || "+-.".contains(character) {
        end = text.index(after: end)
      } else if character == "e" || character == "E", text.index(after: end) < text.endIndex,
        text[text.index(after: end)].isASCII,
        text[text.index(after: end)].isNumber || "+-".contains(text[text.index(after: end)])
      {
        end = text.index(after: end)
      } else {
        break
      }
    }
    guard end > text.startIndex, let number = Double(text[..<end]), number.isFinite else {
      throw Syntax(reason: "'\(text.prefix(80))' is not a number with an optional unit; \(example)")
    }
    let written = text[end...].drop { $0 == " " || $0 == "\t" }
    value = number
    guard !written.isEmpty else {
      (unit, label) = (nil, metric.unit)
      return
    }
    let lowered = written.lowercased()
    for candidate in metric.measurementUnits {
      if let spelling = Self.spellings(of: candidate).first(where: { $0.lowercased() == lowered }) {
        // A rate (mm/h) is printed as one: an hourly amount is its hour's mean rate.
        let rate = (candidate as? PrecipitationUnit).map { $0.rateLabel == spelling } ?? false
        (unit, label) = (candidate, rate ? spelling : candidate.label)
        return
      }
    }
    if metric.measurementUnits.isEmpty, !metric.unit.isEmpty, lowered == metric.unit.lowercased() {
      (unit, label) = (nil, metric.unit)
      return
    }
    let units = metric.measurementUnits.flatMap { unit in
      [unit.label] + ((unit as? PrecipitationUnit).map { [$0.rateLabel] } ?? [])
    }
    let own = metric.unit.isEmpty ? "no unit" : "no unit for \(metric.unit)"
    throw Syntax(
      reason: units.isEmpty
        ? "unit '\(written.prefix(40))' is not \(metric.name)'s; give the value in \(metric.unit.isEmpty ? "no unit" : metric.unit)"
        : "unit '\(written.prefix(40))' is not a unit of \(metric.name); use \(units.joined(separator: ", ")) (or \(own))"
    )
  }

  /// The names a unit may be written with, any case: its label (`°C`, `km/h`), its name in
  /// requests (`celsius`, `kmh`), the label without its degree sign (`C`), and for
  /// precipitation its rate (`mm/h`).
  private static func spellings(of unit: any MeasurementUnit) -> [String] {
    var names = [unit.label, unit.rawValue]
    if unit.label.hasPrefix("°") { names.append(String(unit.label.dropFirst())) }
    if let precipitation = unit as? PrecipitationUnit { names.append(precipitation.rateLabel) }
    return names
  }
}
