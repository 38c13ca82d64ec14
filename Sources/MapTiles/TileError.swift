/// Why a tile or a legend cannot be drawn, with the status class a server should answer.
public enum TileError: Error, Equatable, CustomStringConvertible {
  /// A zoom, column or row out of range or not a number: the request's fault (400).
  case badAddress(String, String)
  /// A time that is not `YYYY-MM-DDTHH:MM` (optionally with `Z`): the request's fault (400).
  case badTime(String)
  /// A metric nwpcube does not know, or one no cube of the store holds (404).
  case unknownMetric(String, known: [String])
  /// A metric that none of the runs covering the time holds (404).
  case metricNotInRuns(String, runs: [String])
  /// A well-formed time that no run of the store covers (404).
  case timeNotCovered(String, runs: [String])
  /// The store has no readable cube (503).
  case noRuns
  /// A cube the tile read met a block that failed its checksum: the cube is withdrawn
  /// (503), and the tile is not drawn with its damaged cells as gaps.
  case damagedCube(String)
  /// libpng failed (500: nothing the client can change).
  case encoding(String)

  public var description: String {
    switch self {
    case .badAddress(let part, let problem): "\(part): \(problem)"
    case .badTime(let text):
      "time: \"\(text.prefix(40))\" is not a UTC time; give an hour as YYYY-MM-DDTHH:MMZ, e.g. 2026-06-20T12:00Z"
    case .unknownMetric(let name, let known):
      "metric: \"\(name.prefix(40))\" has no map; maps are drawn of \(known.joined(separator: ", "))"
    case .metricNotInRuns(let name, let runs):
      "metric: \(name) is not in the runs covering the time (\(runs.joined(separator: ", "))): its inputs were missing at ingest"
    case .timeNotCovered(let time, let runs):
      "time: no run covers \(time); the store's runs cover \(runs.isEmpty ? "nothing" : runs.joined(separator: "; "))"
    case .noRuns: "the store has no readable run to draw"
    case .damagedCube(let reason):
      "a cube this tile reads is damaged and is withdrawn (\(reason)); other runs draw it once the store is refreshed"
    case .encoding(let message): "the tile could not be encoded as PNG: \(message)"
    }
  }
}
