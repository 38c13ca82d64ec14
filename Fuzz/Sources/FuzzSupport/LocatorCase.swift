import GridGeometry

/// The locator_build target's input decoded: a grid, an optional projection claim, and
/// points to look up.
///
/// Layout: width and height (1 + byte % 40 each), then a mode byte — 0 raw float
/// coordinates for every cell, 1 a latitude/longitude lattice, 2 a grid laid out by a map
/// projection (Lambert, polar, Mercator or rotated latitude/longitude) — then up to 7
/// patches (cell, raw latitude, raw longitude), then the projection handed to the locator
/// (none, the one that laid the grid out, or a WRF code with 8 raw parameters), then points.
/// Modes 1 and 2 give plausible grids the patches then spoil, which reaches much deeper than
/// raw floats alone.
public struct LocatorCase {
  public var width: Int
  public var height: Int
  public var latitudes: [Float]
  public var longitudes: [Float]
  /// The WRF code and parameters (cube header order) handed to the locator, if any.
  public var projection: (code: Int, parameters: [Double])?
  public var points: [(latitude: Double, longitude: Double)]

  public init(_ bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    width = 1 + Int(input.byte() % 40)
    height = 1 + Int(input.byte() % 40)
    let count = width * height
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    var laidOut: (code: Int, parameters: [Double])?
    switch input.byte() % 3 {
    case 0:
      for _ in 0..<count {
        latitudes.append(input.float())
        longitudes.append(input.float())
      }
    case 1:
      let (latitude, longitude) = (input.scaled(-90...90), input.scaled(-360...360))
      let (step, columnStep) = (input.scaled(-5...5), input.scaled(-5...5))
      for cell in 0..<count {
        latitudes.append(Float(latitude + Double(cell / width) * step))
        longitudes.append(Float(longitude + Double(cell % width) * columnStep))
      }
    default:
      let kinds: [MapProjection.Kind] = [.lambertConformal, .polarStereographic, .mercator, .latitudeLongitude]
      let kind = kinds[Int(input.byte()) % kinds.count]
      let parameters = [
        input.scaled(-90...90), input.scaled(-90...90), input.scaled(-180...180), .nan, .nan,
        input.byte() % 2 == 0 ? 90 : input.scaled(-90...90), 0, input.scaled(500...200_000),
      ]
      let origin = (input.scaled(-90...90), input.scaled(-180...180))
      if let projection = try? MapProjection(
        kind: kind, truelat1: parameters[0], truelat2: parameters[1], standardLongitude: parameters[2],
        poleLatitude: parameters[5], gridSpacing: parameters[7], origin: origin)
      {
        laidOut = (kind.rawValue, parameters)
        for cell in 0..<count {
          let (latitude, longitude) = projection.coordinates(x: Double(cell % width), y: Double(cell / width))
          latitudes.append(Float(latitude))
          longitudes.append(Float(longitude))
        }
      } else {
        latitudes = Array(repeating: 0, count: count)
        longitudes = latitudes
      }
    }
    for _ in 0..<(input.byte() % 8) {
      let cell = Int(input.uint16()) % count
      latitudes[cell] = input.float()
      longitudes[cell] = input.float()
    }
    switch input.byte() % 3 {
    case 0: projection = nil
    case 1: projection = laidOut
    default: projection = (Int(input.byte() % 8), (0..<8).map { _ in input.double() })
    }
    var points = [0, count / 2, count - 1].map { (Double(latitudes[$0]), Double(longitudes[$0])) }
    while input.remaining > 0, points.count < 16 {
      points.append((input.scaled(-95...95), input.scaled(-370...370)))
    }
    (self.latitudes, self.longitudes, self.points) = (latitudes, longitudes, points)
  }
}

extension LocatorCase: CustomStringConvertible {
  /// A one-line account of the case, for reports of findings (`NWPCUBE_FUZZ_VERBOSE=1`).
  public var description: String {
    let finite = zip(latitudes, longitudes).filter { $0.0.isFinite && $0.1.isFinite }
    let distinct = Set(zip(latitudes, longitudes).map { "\($0.0),\($0.1)" }).count
    let range = { (values: [Float]) in "\(values.min() ?? .nan)…\(values.max() ?? .nan)" }
    let projection = self.projection.map { "MAP_PROJ \($0.code) \($0.parameters)" } ?? "no projection"
    return "\(width)×\(height) grid, \(distinct) distinct points, \(latitudes.count - finite.count) not finite, "
      + "latitudes \(range(finite.map(\.0))), longitudes \(range(finite.map(\.1))), \(projection), "
      + "first cells \(Array(zip(latitudes, longitudes).prefix(4)))"
  }
}
