import Forecast

/// The grid cell a warning is for: the cube that answered, the cell's indices and centre,
/// and its outline.
public struct WarningCell: Sendable {
  /// The cube and cell (model, domain, run, i, j, centre).
  public let provenance: Provenance
  /// Unix seconds of the run's start, the time the CAP document is sent at.
  public let runStart: Int64
  /// The cell's corners as (latitude, longitude) in degrees, longitudes in −180…180,
  /// south-west, south-east, north-east, north-west in the grid's own directions.
  public let corners: [(latitude: Double, longitude: Double)]

  public init(provenance: Provenance, runStart: Int64, corners: [(latitude: Double, longitude: Double)]) {
    self.provenance = provenance
    self.runStart = runStart
    self.corners = corners
  }

  /// The cell named for people: CAP's `areaDesc`, Dark Sky's `regions`.
  public var areaDescription: String {
    "\(provenance.model)/\(provenance.domain) grid cell (\(provenance.i), \(provenance.j)) "
      + "around \(Self.degrees(provenance.latitude)), \(Self.degrees(provenance.longitude))"
  }

  /// The outline as CAP's `polygon`: `lat,lon` pairs separated by spaces, the first
  /// repeated at the end to close it, in degrees to 4 decimals (11 m).
  public var polygon: String {
    (corners + corners.prefix(1)).map { "\(Self.degrees($0.latitude)),\(Self.degrees($0.longitude))" }
      .joined(separator: " ")
  }

  static func degrees(_ value: Double) -> String { DecimalText.text(value, places: 4) }
}
