import Forecast

/// The grid cell a warning is for: the cube that answered, the cell's indices and centre,
/// and its outline.
public struct WarningCell: Sendable {
  /// The cube that answered (model, domain, run), and the cell the forecast names.
  public let provenance: Provenance
  /// Unix seconds of the run's start, the time the CAP document is sent at.
  public let runStart: Int64
  /// The cell's indices and centre in the grid's position at the steps it is for: a moving
  /// nest holds a place in different cells at different steps. The provenance's own for a
  /// grid that does not move.
  public let i: Int
  public let j: Int
  public let latitude: Double
  public let longitude: Double
  /// The cell's corners as (latitude, longitude) in degrees, longitudes in −180…180,
  /// south-west, south-east, north-east, north-west in the grid's own directions.
  public let corners: [(latitude: Double, longitude: Double)]

  /// The cell `provenance` names.
  public init(provenance: Provenance, runStart: Int64, corners: [(latitude: Double, longitude: Double)]) {
    self.init(
      provenance: provenance, runStart: runStart, i: provenance.i, j: provenance.j, latitude: provenance.latitude,
      longitude: provenance.longitude, corners: corners)
  }

  /// Cell (i, j), centred at `latitude`, `longitude`, of the cube `provenance` names.
  public init(
    provenance: Provenance, runStart: Int64, i: Int, j: Int, latitude: Double, longitude: Double,
    corners: [(latitude: Double, longitude: Double)]
  ) {
    self.provenance = provenance
    self.runStart = runStart
    (self.i, self.j, self.latitude, self.longitude) = (i, j, latitude, longitude)
    self.corners = corners
  }

  /// The cell named for people: CAP's `areaDesc`, Dark Sky's `regions`.
  public var areaDescription: String {
    "\(provenance.model)/\(provenance.domain) grid cell (\(i), \(j)) "
      + "around \(Self.degrees(latitude)), \(Self.degrees(longitude))"
  }

  /// The outline as CAP's `polygon`: `lat,lon` pairs separated by spaces, the first
  /// repeated at the end to close it, in degrees to 4 decimals (11 m).
  public var polygon: String {
    (corners + corners.prefix(1)).map { "\(Self.degrees($0.latitude)),\(Self.degrees($0.longitude))" }
      .joined(separator: " ")
  }

  static func degrees(_ value: Double) -> String { DecimalText.text(value, places: 4) }
}
