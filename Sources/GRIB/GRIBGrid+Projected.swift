import Foundation
import GridGeometry

extension GRIBGrid {
  /// Coordinates of a `lambert`, `polar_stereographic` or `mercator` grid.
  ///
  /// On a sphere, `MapProjection` (WRF's formulas, anchored on the first point) computes
  /// them: its sphere is WRF's 6370 km, and every constant of its mappings scales as the
  /// radius over the spacing, so the file's sphere is honoured exactly by handing it the
  /// spacing scaled by 6370 km over the file's radius. On a spheroid the formulas would be
  /// off by up to a few kilometres, so ecCodes' iterator (which has the ellipsoidal ones)
  /// gives the coordinates instead.
  static func projected(
    _ handle: GRIBHandle, gridType: String, width: Int, height: Int, scanning: Scanning, earth: GRIBEarth
  ) throws(GRIBError) -> Coordinates {
    let parameters = try ProjectionParameters(handle, gridType: gridType)
    guard case .sphere(let radius) = earth else {
      // ecCodes' iterator is asked only for parameters that describe a projection: when it
      // cannot invert one (ecCodes 2.28, a Lambert grid whose true latitudes lie beyond the
      // poles) it frees its arrays twice, and grib_get_data itself dies of it. The same
      // projection on the sphere of the major axis is the check.
      if case .spheroid(let major, let minor) = earth {
        // The earth's axes, within 100 km of WGS 84's: with its scale factor missing, ecCodes
        // reads a major axis's scaled value as metres (4.29e9 m), and its iterator fails on it.
        guard (6_278_137...6_478_137).contains(major), (6_256_752...6_456_752).contains(minor), minor <= major
        else {
          throw GRIBError(
            reason: "\(major) m × \(minor) m are not the earth's semi-axes", path: handle.path,
            message: handle.message, key: "earthMajorAxisInMetres")
        }
        _ = try spherical(handle, gridType: gridType, parameters: parameters, radius: major)
        // ecCodes' ellipsoidal Lambert also takes its origin's latitude from LaD, which the
        // spherical one does not read.
        if gridType == "lambert", let lad = try handle.optionalDouble("LaDInDegrees"), !(abs(lad) <= 90) {
          throw GRIBError(
            reason: "LaD \(lad)° is not a latitude", path: handle.path, message: handle.message, key: "LaDInDegrees")
        }
      }
      var coordinates = try iterated(handle, count: width * height)
      // Winds relative to the grid still turn by the projection's angle: the spheroid
      // changes where the cells lie, not the grid's orientation to within a few metres.
      coordinates.frame = parameters.frame(spacing: parameters.dx)
      return coordinates
    }
    let projection = try spherical(handle, gridType: gridType, parameters: parameters, radius: radius)
    // Grid coordinates count cells east and north; a grid that scans the other way counts back.
    let (stepX, stepY) = (
      scanning.iNegative ? -1.0 : 1.0, (scanning.jPositive ? 1.0 : -1.0) * parameters.dy / parameters.dx
    )
    var latitudes = [Float](repeating: 0, count: width * height)
    var longitudes = [Float](repeating: 0, count: width * height)
    for j in 0..<height {
      for i in 0..<width {
        let (latitude, longitude) = projection.coordinates(x: stepX * Double(i), y: stepY * Double(j))
        latitudes[j * width + i] = Float(latitude)
        longitudes[j * width + i] = Float(longitude)
      }
    }
    let countsLikeProjection = stepX == 1 && stepY == 1
    return Coordinates(
      latitudes: latitudes, longitudes: longitudes, projection: countsLikeProjection ? projection : nil,
      frame: parameters.frame(spacing: parameters.dx * MapProjection.earthRadius / radius))
  }

  /// The projection `parameters` describe on a sphere of `radius` metres, anchored on the
  /// first point; an error names the key at fault.
  private static func spherical(
    _ handle: GRIBHandle, gridType: String, parameters: ProjectionParameters, radius: Double
  ) throws(GRIBError) -> MapProjection {
    func fail(_ reason: String, key: String) -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    guard radius.isFinite, radius > 1_000 else {
      throw fail("\(radius) m is not the radius of a sphere", key: "radius")
    }
    guard parameters.dx.isFinite, parameters.dx > 0, parameters.dy.isFinite, parameters.dy > 0 else {
      throw fail("spacings \(parameters.dx) m × \(parameters.dy) m are not positive", key: parameters.spacingKey)
    }
    let first = (
      latitude: try handle.double("latitudeOfFirstGridPointInDegrees"),
      longitude: try handle.double("longitudeOfFirstGridPointInDegrees")
    )
    do {
      return try MapProjection(
        kind: parameters.kind, truelat1: parameters.truelat1, truelat2: parameters.truelat2,
        standardLongitude: parameters.standardLongitude, poleLatitude: .nan,
        gridSpacing: parameters.dx * MapProjection.earthRadius / radius,
        origin: first)
    } catch {
      throw fail("\(gridType) \(error)", key: parameters.spacingKey)
    }
  }

  /// ecCodes' own coordinates (its `latitudes` and `longitudes` keys), for a grid whose
  /// earth is a spheroid; the count was checked against `GRIBLimits` and is checked
  /// against what ecCodes will give before it writes.
  private static func iterated(_ handle: GRIBHandle, count: Int) throws(GRIBError) -> Coordinates {
    var result = Coordinates(latitudes: [], longitudes: [], projection: nil)
    var buffer = [Double](repeating: 0, count: count)
    for key in ["latitudes", "longitudes"] {
      let size = try handle.size(key)
      guard size == count else {
        throw GRIBError(
          reason: "ecCodes gives \(size) coordinates for \(count) points", path: handle.path, message: handle.message,
          key: key)
      }
      try buffer.withUnsafeMutableBufferPointer { pointer throws(GRIBError) in try handle.doubles(key, into: pointer) }
      let values = buffer.map { Float($0 > 180 ? $0 - 360 : $0) }
      if key == "latitudes" { result.latitudes = values } else { result.longitudes = values }
    }
    return result
  }

  /// A projected grid's parameters in `MapProjection`'s terms.
  private struct ProjectionParameters {
    var kind: MapProjection.Kind
    var truelat1: Double
    var truelat2 = Double.nan
    var standardLongitude = 0.0
    var dx: Double
    var dy: Double
    var spacingKey: String

    /// The frame these parameters describe, with `spacing` as the grid spacing.
    func frame(spacing: Double) -> Frame {
      .projected(
        kind: kind, truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude,
        gridSpacing: spacing)
    }

    init(_ handle: GRIBHandle, gridType: String) throws(GRIBError) {
      switch gridType {
      case "lambert":
        kind = .lambertConformal
        truelat1 = try handle.double("Latin1InDegrees")
        truelat2 = try handle.double("Latin2InDegrees")
        standardLongitude = try handle.double("LoVInDegrees")
        dx = try handle.double("DxInMetres")
        dy = try handle.double("DyInMetres")
        // The spacing is true at the true latitudes. Edition 2 says it is given at LaD, but
        // ecCodes (and so every tool built on it) reads it at the true latitudes, and the
        // producers (NCEP's NAM, HRRR, UPP) write LaD = Latin1: the reader follows ecCodes.
        spacingKey = "DxInMetres"
      case "polar_stereographic":
        kind = .polarStereographic
        // Edition 1 fixes the true latitude at 60°; the centre flag's first bit marks the south pole.
        let lad = abs(try handle.optionalDouble("LaDInDegrees") ?? 60)
        let south = (try handle.optionalLong("projectionCentreFlag") ?? 0) & 128 != 0
        truelat1 = south ? -lad : lad
        standardLongitude = try handle.double("orientationOfTheGridInDegrees")
        dx = try handle.double("DxInMetres")
        dy = try handle.double("DyInMetres")
        spacingKey = "DxInMetres"
      default:
        kind = .mercator
        truelat1 = try handle.double("LaDInDegrees")
        dx = try handle.double("DiInMetres")
        dy = try handle.double("DjInMetres")
        spacingKey = "DiInMetres"
        let orientation = try handle.optionalDouble("orientationOfTheGridInDegrees") ?? 0
        guard orientation == 0 else {
          throw GRIBError(
            reason: "a Mercator grid turned by \(orientation)° is not supported", path: handle.path,
            message: handle.message, key: "orientationOfTheGridInDegrees")
        }
      }
      // The true latitudes are latitudes: beyond the poles the spherical formulas give
      // coordinates of no place, and ecCodes 2.28's ellipsoidal Lambert, failing to invert
      // them, frees its arrays twice.
      let latitudes =
        kind == .lambertConformal
        ? [(truelat1, "Latin1InDegrees"), (truelat2, "Latin2InDegrees")] : [(truelat1, "LaDInDegrees")]
      for (value, key) in latitudes where !(abs(value) <= 90) {
        throw GRIBError(
          reason: "\(value)° is not a latitude", path: handle.path, message: handle.message, key: key)
      }
    }
  }
}
