import FaceKit
import Places

extension ZoneFinder {
  /// The zone of the gazetteer's place nearest the point: what `timezone=auto` uses when
  /// the service has a gazetteer (`--places`). GeoNames gives every place its zone; a place
  /// without one finds nothing, and `auto` is then refused for the point.
  public init(nearestPlaceIn gazetteer: Gazetteer) {
    self.init(source: "the gazetteer") { latitude, longitude in
      gazetteer.nearest(latitude: latitude, longitude: longitude).map(\.timezone).flatMap { $0.isEmpty ? nil : $0 }
    }
  }
}
