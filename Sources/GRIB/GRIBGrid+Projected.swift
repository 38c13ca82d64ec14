import Foundation
import GridGeometry

extension GRIBGrid {
  /// Coordinates of a `lambert`, `polar_stereographic` or `mercator` grid.
  ///
  /// On a sphere, `MapProjection` (WRF's formulas, anchored on the first point) computes
  /// them: its sphere is WRF's 6370 km, and every constant of its mappings scales as the
  /// radius over the spacing, so the file's sphere is honoured exactly by handing it the
  /// spacing scaled by 6370 km over the file's radius. On a spheroid the spherical formulas
  /// would be off by up to a few kilometres: Lambert and Mercator grids there are placed by
  /// Snyder's ellipsoidal formulas.
  static func projected(
    _ handle: GRIBHandle, gridType: String, width: Int, height: Int, scanning: Scanning, earth: GRIBEarth
  ) throws(GRIBError) -> Coordinates {
    let parameters = try ProjectionParameters(handle, gridType: gridType)
    let radius: Double
    switch earth {
    case .sphere(let sphere): radius = sphere
    case .spheroid(let major, let minor):
      return try onSpheroid(
        handle, gridType: gridType, parameters: parameters, axes: (major, minor), width: width, height: height,
        scanning: scanning)
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

  /// Coordinates of a projected grid on the spheroid `axes`, by Snyder's ellipsoidal
  /// formulas (`SpheroidalLambertConformal`, `SpheroidalMercator`). ecCodes' iterators are
  /// never called for them: ecCodes 2.28's Lambert and Mercator ones free their arrays
  /// twice when their iterative inverse fails to converge, and its polar stereographic one
  /// has no spheroid (such a grid is refused).
  private static func onSpheroid(
    _ handle: GRIBHandle, gridType: String, parameters: ProjectionParameters, axes: (major: Double, minor: Double),
    width: Int, height: Int, scanning: Scanning
  ) throws(GRIBError) -> Coordinates {
    let (major, minor) = axes
    // The earth's axes, within 100 km of WGS 84's: with its scale factor missing, ecCodes
    // reads a major axis's scaled value as metres (4.29e9 m).
    guard (6_278_137...6_478_137).contains(major), (6_256_752...6_456_752).contains(minor), minor <= major
    else {
      throw GRIBError(
        reason: "\(major) m × \(minor) m are not the earth's semi-axes", path: handle.path,
        message: handle.message, key: "earthMajorAxisInMetres")
    }
    func fail(_ reason: String, key: String) -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    let plane: Plane
    do {
      switch gridType {
      case "lambert":
        // LaD does not move the cells (they are anchored on the first point), but a file
        // whose LaD is no latitude describes no projection.
        if let lad = try handle.optionalDouble("LaDInDegrees"), !(abs(lad) <= 90) {
          throw fail("LaD \(lad)° is not a latitude", key: "LaDInDegrees")
        }
        let conic = try SpheroidalLambertConformal(
          major: major, minor: minor, truelat1: parameters.truelat1, truelat2: parameters.truelat2,
          standardLongitude: parameters.standardLongitude)
        plane = Plane(
          forward: conic.project, inverse: conic.unproject,
          nowhere: "the cone's apex (a pole) or beyond its cut, where the Lambert projection places no point")
      case "mercator":
        let mercator = try SpheroidalMercator(
          major: major, minor: minor, trueLatitude: parameters.truelat1, standardLongitude: 0)
        plane = Plane(forward: mercator.project, inverse: mercator.unproject, nowhere: "beyond a pole")
      default:
        throw fail(
          "polar_stereographic on an oblate earth is not supported: ecCodes has no formulas for it to check nwpcube's against",
          key: "shapeOfTheEarth")
      }
    } catch let error as GRIBError {
      throw error
    } catch {
      throw fail("\(gridType) on a spheroid: \(error)", key: parameters.trueLatitudeKey)
    }
    // The same projection on the sphere of the major axis checks the spacing and the first point.
    _ = try spherical(handle, gridType: gridType, parameters: parameters, radius: major)
    var coordinates = try stepped(
      handle, plane: plane, parameters: parameters, width: width, height: height, scanning: scanning)
    // Winds relative to the grid still turn by the projection's angle: the spheroid
    // changes where the cells lie, not the grid's orientation to within a few metres.
    coordinates.frame = parameters.frame(spacing: parameters.dx)
    return coordinates
  }

  /// A projection on a spheroid, as plane coordinates in metres both ways, and what lies
  /// where `inverse` gives nothing, for messages.
  private struct Plane {
    var forward: (_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double)?
    var inverse: (_ x: Double, _ y: Double) -> (latitude: Double, longitude: Double)?
    var nowhere: String
  }

  /// A grid's coordinates on `plane`: the first point projected, the others stepped from
  /// it by the spacings in the scanning directions and projected back, as ecCodes'
  /// iterators place them. A cell with no place is an error naming the grid's size and
  /// the cell.
  private static func stepped(
    _ handle: GRIBHandle, plane: Plane, parameters: ProjectionParameters, width: Int, height: Int,
    scanning: Scanning
  ) throws(GRIBError) -> Coordinates {
    func fail(_ reason: String, key: String) -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    let first = (
      latitude: try handle.double("latitudeOfFirstGridPointInDegrees"),
      longitude: try handle.double("longitudeOfFirstGridPointInDegrees")
    )
    guard let origin = plane.forward(first.latitude, first.longitude) else {
      throw fail(
        "the first point \(first.latitude), \(first.longitude) lies at infinity on the projection",
        key: "latitudeOfFirstGridPointInDegrees")
    }
    let stepX = scanning.iNegative ? -parameters.dx : parameters.dx
    let stepY = scanning.jPositive ? parameters.dy : -parameters.dy
    var latitudes = [Float](repeating: 0, count: width * height)
    var longitudes = [Float](repeating: 0, count: width * height)
    for j in 0..<height {
      let y = origin.y + stepY * Double(j)
      for i in 0..<width {
        guard let point = plane.inverse(origin.x + stepX * Double(i), y) else {
          throw fail(
            "the grid of \(width) × \(height) points reaches, at column \(i), row \(j), \(plane.nowhere)",
            key: "Nx/Ny")
        }
        latitudes[j * width + i] = Float(point.latitude)
        longitudes[j * width + i] = Float(point.longitude)
      }
    }
    return Coordinates(latitudes: latitudes, longitudes: longitudes, projection: nil)
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

  /// A projected grid's parameters in `MapProjection`'s terms.
  private struct ProjectionParameters {
    var kind: MapProjection.Kind
    var truelat1: Double
    var truelat2 = Double.nan
    var standardLongitude = 0.0
    var dx: Double
    var dy: Double
    var spacingKey: String
    /// The key of the first true latitude.
    var trueLatitudeKey: String {
      kind == .lambertConformal ? "Latin1InDegrees" : "LaDInDegrees"
    }

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
