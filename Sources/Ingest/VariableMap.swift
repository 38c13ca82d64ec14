import Foundation

/// An operator's mapping from metrics to the variables (and units) of unusual input
/// files, read from a JSON file given as `--map`:
///
///     { "temp": { "variable": "TAIR2", "units": "degF" },
///       "rain": { "variable": "PRECIP", "units": "kg m-2 s-1" } }
///
/// Keys are metric names; `units` is optional and overrides the file's `units` attribute.
/// Entries win over discovery by standard_name and the known short names.
public struct VariableMap: Sendable, Equatable {
  /// One mapped metric.
  public struct Entry: Sendable, Equatable {
    public let variable: String
    public let units: String?
  }

  /// The entries by metric name.
  public let entries: [String: Entry]
  /// The file it was read from, for error messages.
  public let path: String

  /// The metrics a map may name, and the CF quantity each feeds.
  static let quantities: [String: String] = [
    "temp": "t", "dew_point": "td", "hum": "rh", "wind_u": "u", "wind_v": "v", "atm_press": "msl",
    "sfc_press": "sp", "rain": "rain", "cloud": "cloud", "shortwave": "sw",
  ]

  /// Reads and checks a map file.
  public init(path: String) throws(IngestError) {
    self.path = path
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw IngestError(path: path, reason: "cannot read the map file: \(error.localizedDescription)")
    }
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw IngestError(
        path: path, reason: "not a JSON object of the form {\"temp\": {\"variable\": \"NAME\", \"units\": \"K\"}, …}")
    }
    var entries: [String: Entry] = [:]
    for (metric, value) in root {
      guard Self.quantities[metric] != nil else {
        throw IngestError(
          path: path, variable: metric,
          reason: "not a metric a map can name; use one of \(Self.quantities.keys.sorted().joined(separator: ", "))")
      }
      guard let object = value as? [String: Any], let variable = object["variable"] as? String, !variable.isEmpty
      else {
        throw IngestError(
          path: path, variable: metric, reason: "needs {\"variable\": \"NAME\"} (and optionally \"units\")")
      }
      if let units = object["units"], !(units is String) {
        throw IngestError(path: path, variable: metric, reason: "\"units\" must be a string")
      }
      entries[metric] = Entry(variable: variable, units: object["units"] as? String)
    }
    self.entries = entries
  }
}
