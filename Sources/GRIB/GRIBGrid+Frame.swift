import Foundation
import GridGeometry

extension GRIBGrid {
  /// How a grid's x and y axes lie against east and north, with what a projected grid's
  /// projection needs: the frame that grid-relative winds (`uvRelativeToGrid`) are turned
  /// from, and the parameters a cube records.
  public enum Frame: Sendable, Equatable {
    /// `regular_ll` and `regular_gg`: x is east and y is north everywhere.
    case latitudeLongitude
    /// `rotated_ll`: x and y are east and north in the frame whose south pole lies at this
    /// geographic position.
    case rotated(southPoleLatitude: Double, southPoleLongitude: Double)
    /// `lambert`, `polar_stereographic` and `mercator`: `MapProjection`'s parameters, its
    /// spacing in metres on `MapProjection.earthRadius` (the file's spacing scaled from
    /// its sphere's radius, so that the mapping is the file's).
    case projected(
      kind: MapProjection.Kind, truelat1: Double, truelat2: Double, standardLongitude: Double, gridSpacing: Double)
  }

  /// The turn from a `rotated_ll` grid's x/y axes to east/north at each cell, as cos α and
  /// sin α with u_e = u·cos α − v·sin α, v_e = u·sin α + v·cos α; nil for other grids.
  ///
  /// The rotated frame's north pole lies at (φₙ, λₙ) = (−φₛ, λₛ + 180°). At a point of
  /// geographic latitude φ and longitude λ, the rotated frame's north makes the angle α with
  /// the earth's, where (COSMO's `uvrot2uv`, Doms and Baldauf's documentation of the COSMO
  /// model, part I, section 3.3):
  /// a = cos φₙ · sin(λₙ − λ), b = sin φₙ · cos φ − cos φₙ · sin φ · cos(λₙ − λ),
  /// cos α = b / √(a² + b²), sin α = −a / √(a² + b²).
  /// At the rotated frame's own poles the angle is undefined: α = 0 there.
  public func rotatedWindTurn() -> (cos: [Double], sin: [Double])? {
    guard case .rotated(let southLatitude, let southLongitude) = frame else { return nil }
    let poleLatitude = -southLatitude * .pi / 180
    let poleLongitude = (southLongitude + 180) * .pi / 180
    var cosines = [Double](repeating: 1, count: latitudes.count)
    var sines = [Double](repeating: 0, count: latitudes.count)
    for cell in latitudes.indices {
      let latitude = Double(latitudes[cell]) * .pi / 180
      let difference = poleLongitude - Double(longitudes[cell]) * .pi / 180
      let a = cos(poleLatitude) * sin(difference)
      let b = sin(poleLatitude) * cos(latitude) - cos(poleLatitude) * sin(latitude) * cos(difference)
      let norm = (a * a + b * b).squareRoot()
      guard norm > 1e-12 else { continue }
      cosines[cell] = b / norm
      sines[cell] = -a / norm
    }
    return (cosines, sines)
  }
}
