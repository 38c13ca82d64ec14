import Foundation
import GridGeometry

/// The mass points of a sample run's grid: where each cell is, on the sphere and on the
/// flat "Iberian" map the weather patterns are drawn on, and how its axes are turned.
///
/// Cells are numbered row by row from the south-west corner, `cell = j · westEast + i`,
/// which is the order of a WRF `(south_north, west_east)` slab.
struct SampleGrid: Sendable {
  /// Where the weather's flat map is anchored; patterns are placed relative to Portugal
  /// rather than to the spec's centre so that moving the grid shows different weather.
  static let reference = (latitude: 39.5, longitude: -8.0)

  let westEast: Int
  let southNorth: Int
  let latitudes: [Double]
  let longitudes: [Double]
  /// Kilometres east and north of `reference` on an equirectangular map; at the scale of
  /// a regional domain this is close enough to distances on the sphere for weather.
  let east: [Double]
  let north: [Double]
  /// `COSALPHA` and `SINALPHA` of each cell.
  let cosAlpha: [Double]
  let sinAlpha: [Double]

  var count: Int { westEast * southNorth }

  /// The grid `spec` describes, centred `centreOffset` metres (east, north on the
  /// projection plane) from the projected `spec` centre; a nest's grid is placed this way
  /// so that its points fall exactly where its parent's ratio puts them.
  init(_ spec: SampleRunSpec, centreOffset: (x: Double, y: Double) = (0, 0)) {
    westEast = spec.westEast
    southNorth = spec.southNorth
    let projection = LambertConformal(
      truelat1: spec.truelat1, truelat2: spec.truelat2, standardLongitude: spec.standardLongitude)
    let projected = projection.project(latitude: spec.centreLatitude, longitude: spec.centreLongitude)
    let centre = (x: projected.x + centreOffset.x, y: projected.y + centreOffset.y)
    let midI = Double(spec.westEast - 1) / 2
    let midJ = Double(spec.southNorth - 1) / 2
    var latitudes: [Double] = []
    var longitudes: [Double] = []
    latitudes.reserveCapacity(spec.westEast * spec.southNorth)
    longitudes.reserveCapacity(spec.westEast * spec.southNorth)
    for j in 0..<spec.southNorth {
      for i in 0..<spec.westEast {
        let point = projection.unproject(
          x: centre.x + (Double(i) - midI) * spec.dx, y: centre.y + (Double(j) - midJ) * spec.dx)
        latitudes.append(point.latitude)
        longitudes.append(point.longitude)
      }
    }
    self.latitudes = latitudes
    self.longitudes = longitudes
    let kmPerDegree = IberianRelief.kilometresPerDegree
    let eastScale = kmPerDegree * cos(Self.reference.latitude * .pi / 180)
    east = longitudes.map { longitude in
      // Folded so that a grid across the antimeridian still gets a continuous map.
      var degrees = (longitude - Self.reference.longitude).truncatingRemainder(dividingBy: 360)
      if degrees > 180 { degrees -= 360 }
      if degrees < -180 { degrees += 360 }
      return degrees * eastScale
    }
    north = latitudes.map { ($0 - Self.reference.latitude) * kmPerDegree }
    let rotations = longitudes.map { projection.gridRotation(longitude: $0) }
    cosAlpha = rotations.map { cos($0) }
    sinAlpha = rotations.map { sin($0) }
  }
}
