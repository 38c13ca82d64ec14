import NetCDF

/// A CF file's horizontal grid: 1-D latitude/longitude coordinate variables (a regular or
/// Gaussian grid) or 2-D ones (curvilinear), found by standard_name, units or name.
struct CFGrid {
  /// The file the grid was read from.
  let path: String
  let latitudeName: String
  let longitudeName: String
  /// The two horizontal dimensions every field ends with, slowest first.
  let dimensions: [String]
  let width: Int
  let height: Int
  let latitudes: [Float]
  let longitudes: [Float]
  /// The 1-D coordinates of a regular or Gaussian grid, which `latitudes` and `longitudes`
  /// spread over every cell; nil for a curvilinear grid.
  let axes: Axes?

  /// The two 1-D coordinate variables' values.
  struct Axes: Equatable {
    let latitude: [Float]
    let longitude: [Float]
  }

  /// The latitude and longitude variables of `file`, if it has them.
  static func coordinates(in file: NCFile) -> (latitude: NCVariable, longitude: NCVariable)? {
    func find(standardName: String, units: Set<String>, names: Set<String>) -> NCVariable? {
      let matches = file.variables.values.filter { variable in
        (1...2).contains(variable.shape.count)
          && (variable.attributes["standard_name"]?.text == standardName
            || units.contains(variable.attributes["units"]?.text ?? "")
            || names.contains(variable.name.lowercased()))
      }
      // A coordinate variable (named like its dimension) beats auxiliary ones.
      return matches.sorted { a, b in
        let (aIsCoordinate, bIsCoordinate) = (a.dimensions == [a.name], b.dimensions == [b.name])
        return aIsCoordinate != bIsCoordinate ? aIsCoordinate : a.name < b.name
      }.first
    }
    guard
      let latitude = find(
        standardName: "latitude", units: ["degrees_north", "degree_north", "degree_N", "degrees_N", "degreeN"],
        names: ["lat", "latitude", "nav_lat"]),
      let longitude = find(
        standardName: "longitude", units: ["degrees_east", "degree_east", "degree_E", "degrees_E", "degreeE"],
        names: ["lon", "longitude", "nav_lon"])
    else { return nil }
    return (latitude, longitude)
  }

  /// The grid of `file`. When its 1-D coordinates are those of `reference` (the run's
  /// first file) value for value, the cells are the reference's and share its arrays:
  /// spreading a global grid's axes over its million cells for every file of a run costs
  /// more than the check.
  init(_ file: NCFile, reference: CFGrid? = nil) throws(IngestError) {
    guard let (latitude, longitude) = Self.coordinates(in: file) else {
      throw IngestError(path: file.path, reason: "no latitude/longitude coordinate variables")
    }
    do {
      let lat = try file.readUnpacked(latitude.name).map(Float.init)
      let lon = try file.readUnpacked(longitude.name).map(Float.init)
      switch (latitude.shape.count, longitude.shape.count) {
      case (1, 1):
        try Self.requireMonotonic(lat, name: latitude.name, path: file.path, unwrapping: false)
        try Self.requireMonotonic(lon, name: longitude.name, path: file.path, unwrapping: true)
        width = lon.count
        height = lat.count
        let axes = Axes(latitude: lat, longitude: lon)
        if let reference, reference.axes == axes {
          (latitudes, longitudes) = (reference.latitudes, reference.longitudes)
        } else {
          latitudes = (0..<(width * height)).map { lat[$0 / lon.count] }
          longitudes = (0..<(width * height)).map { lon[$0 % lon.count] }
        }
        self.axes = axes
        dimensions = [latitude.dimensions[0], longitude.dimensions[0]]
      case (2, 2) where latitude.shape == longitude.shape:
        height = latitude.shape[0]
        width = latitude.shape[1]
        latitudes = lat
        longitudes = lon
        axes = nil
        dimensions = latitude.dimensions
      default:
        throw IngestError(
          path: file.path, variable: "\(latitude.name)/\(longitude.name)",
          reason: "expected two 1-D coordinate variables or two 2-D arrays of the same shape")
      }
      latitudeName = latitude.name
      longitudeName = longitude.name
      path = file.path
    } catch let error as NCError {
      throw IngestError(error)
    } catch let error as IngestError {
      throw error
    } catch {
      throw IngestError(path: file.path, reason: "\(error)")
    }
  }

  /// The grid's coordinates as ingest checks them, named by this file and its variables.
  var input: InputGrid {
    InputGrid(
      path: path, variables: "\(latitudeName)/\(longitudeName)", width: width, height: height,
      latitudes: latitudes, longitudes: longitudes)
  }

  /// Refuses a 1-D coordinate that is not strictly increasing or strictly decreasing (a
  /// constant, repeated or unsorted axis), naming the first value that breaks the order.
  /// Longitude steps are taken the short way round, so that 359.5 → 0 continues 0…360.
  static func requireMonotonic(
    _ values: [Float], name: String, path: String, unwrapping: Bool
  ) throws(IngestError) {
    var direction: Float = 0
    for k in values.indices.dropFirst() {
      var step = values[k] - values[k - 1]
      if unwrapping, step.isFinite {
        step = step.truncatingRemainder(dividingBy: 360)
        if step > 180 { step -= 360 } else if step <= -180 { step += 360 }
      }
      if direction == 0 { direction = step > 0 ? 1 : -1 }
      // Written so that NaN fails.
      guard step * direction > 0 else {
        let kind = step == 0 ? "repeats" : "breaks the order of"
        throw IngestError(
          path: path, variable: name,
          reason:
            "a 1-D coordinate must be strictly increasing or decreasing, but \(name)[\(k)] = \(values[k]) \(kind) \(name)[\(k - 1)] = \(values[k - 1])"
        )
      }
    }
  }
}
