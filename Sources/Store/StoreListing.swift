import Foundation

/// What a store directory holds: its model and domain directories and the cubes in each.
struct StoreListing {
  /// The root, then every model and domain directory.
  let directories: [String]
  /// The cube files of each `model/domain`, sorted by name (and so by run).
  let cubes: [(name: String, files: [String])]

  /// Lists `store`, calling `willList` with each model and domain directory just before
  /// listing it.
  init(store: String, willList: (String) -> Void = { _ in }) {
    var directories = [store]
    var cubes: [(String, [String])] = []
    for model in Self.children(store) {
      let modelDirectory = "\(store)/\(model)"
      directories.append(modelDirectory)
      willList(modelDirectory)
      for domain in Self.children(modelDirectory) {
        let domainDirectory = "\(modelDirectory)/\(domain)"
        directories.append(domainDirectory)
        willList(domainDirectory)
        let files = Self.children(domainDirectory).filter { $0.hasSuffix(".cube") }
        cubes.append(("\(model)/\(domain)", files.map { "\(domainDirectory)/\($0)" }))
      }
    }
    self.directories = directories
    self.cubes = cubes
  }

  /// The entries of a directory that can be models, domains or cubes: not hidden (a cube
  /// still being written is a hidden temporary file), sorted.
  static func children(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }
}
