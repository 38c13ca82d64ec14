import CubeFormat
import Foundation

/// The cubes of a store directory (`STORE/<model>/<domain>/<run>.cube`), newest run of each
/// model and domain, ordered finest grid first so that nested domains answer from the
/// finest one that contains a point.
public final class ForecastStore: Sendable {
  /// The store's root directory.
  public let path: String
  /// The newest cube of each model/domain, finest grid spacing first.
  public let cubes: [Cube]

  /// Scans and opens the store. A cube that fails verification is an error naming it.
  public init(path: String, verifyChecksums: Bool = true) throws(QueryError) {
    self.path = path
    var cubes: [Cube] = []
    for file in Self.newestCubes(in: path) {
      cubes.append(try Cube(path: file, verifyChecksums: verifyChecksums))
    }
    guard !cubes.isEmpty else { throw .emptyStore(path) }
    self.cubes = cubes.sorted { Self.spacing($0) < Self.spacing($1) }
  }

  /// The cube that answers for a point and where the point falls in it: the finest domain
  /// containing it, or the named `domain`.
  public func select(
    latitude: Double, longitude: Double, method: InterpolationMethod, domain: String? = nil
  ) throws(QueryError) -> (Cube, PointLocation) {
    var candidates = cubes
    if let domain {
      candidates = cubes.filter { $0.header.domain == domain }
      guard !candidates.isEmpty else {
        throw .unknownDomain(domain, known: cubes.map(\.header.domain))
      }
    }
    for cube in candidates {
      do {
        return (cube, try cube.locate(latitude: latitude, longitude: longitude, method: method))
      } catch .outsideDomain {
        continue
      }
    }
    let names = candidates.map { "\($0.header.model)/\($0.header.domain)" }
    // A longitude typed without its minus sign (8.93 for Portugal's −8.93) is the
    // commonest reason; say so when the mirrored point is covered.
    let mirrored = -longitude
    let hint =
      candidates.contains { (try? $0.locate(latitude: latitude, longitude: mirrored, method: .nearest)) != nil }
      ? "did you mean longitude \(mirrored)? Longitudes are east-positive, so places west of Greenwich are negative"
      : nil
    throw .outsideDomain(latitude: latitude, longitude: longitude, domains: names, hint: hint)
  }

  private static func spacing(_ cube: Cube) -> Double {
    cube.header.gridSpacing > 0 ? cube.header.gridSpacing : .infinity
  }

  /// The newest `*.cube` in every `model/domain` directory; hidden files (cubes still being
  /// written) are skipped.
  static func newestCubes(in store: String) -> [String] {
    let manager = FileManager.default
    func children(_ directory: String) -> [String] {
      ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
    var result: [String] = []
    for model in children(store) {
      for domain in children("\(store)/\(model)") {
        let runs = children("\(store)/\(model)/\(domain)").filter { $0.hasSuffix(".cube") }
        if let newest = runs.last { result.append("\(store)/\(model)/\(domain)/\(newest)") }
      }
    }
    return result
  }
}
