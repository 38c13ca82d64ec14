import Foundation
import Testing
import _TestSupport

/// `Scripts/import-graph` passes the repository's own sources and fails, naming the file and
/// line, on each kind of forbidden edge its rules list.
@Suite struct ImportGraphTests {
  static let script = "\(SampleFiles.packageRoot)/Scripts/import-graph"
  static let rules = "\(SampleFiles.packageRoot)/Scripts/import-graph.rules"

  struct Outcome {
    let status: Int32
    let output: String
  }

  /// Runs the script over `sources` with `rules`; output and errors together.
  static func check(sources: String, rules: String = rules) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, "--sources", sources, "--rules", rules, "--quiet"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, output: output)
  }

  /// A fake `Sources/` tree of `files` (path under Sources/ → text), in a new directory.
  static func tree(_ files: [String: String]) throws -> String {
    let root = SampleFiles.temporaryDirectory("import-graph")
    for (path, text) in files {
      let file = URL(fileURLWithPath: "\(root)/Sources/\(path)")
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
    }
    return root
  }

  /// The C library's guard, in two pieces so that a search of the repository for it finds
  /// Platform alone.
  static let glibc = "#if canImport(" + "Glibc)"

  /// The script's outcome over a fake tree of `files`, with the repository's rules (which
  /// tolerate no edge: they have no `allow` line).
  static func check(planting files: [String: String]) throws -> Outcome {
    let root = try tree(files)
    defer { SampleFiles.remove(root) }
    return try check(sources: "\(root)/Sources")
  }

  @Test func theRepositorysSourcesHaveNoForbiddenEdge() throws {
    let outcome = try Self.check(sources: "\(SampleFiles.packageRoot)/Sources")
    #expect(outcome.status == 0, "\(outcome.output)")
    #expect(outcome.output.contains("no forbidden edge"))
  }

  @Test func aCleanTreePasses() throws {
    let outcome = try Self.check(planting: [
      "Forecast/Forecaster.swift": "import Meteorology\nimport PointQuery\n",
      "Store/Catalog.swift": "import CubeFormat\nimport Forecast\n",
      "Platform/Syscalls.swift": "\(Self.glibc)\n  import Glibc\n#endif\n",
      "HTTPService/Route.swift": "import DarkSkyFace\nimport Store\n",
    ])
    #expect(outcome.status == 0, "\(outcome.output)")
  }

  @Test func forecastImportingStoreFailsNamingTheFileAndLine() throws {
    let outcome = try Self.check(planting: [
      "Forecast/Forecaster.swift": "import Meteorology\n\n@preconcurrency import Store\n",
      "Store/Catalog.swift": "import CubeFormat\n",
    ])
    #expect(outcome.status == 1)
    #expect(
      outcome.output.contains(
        "Sources/Forecast/Forecaster.swift:3: Forecast imports Store, which is forbidden (forbid Forecast -> Store)"))
    #expect(outcome.output.contains("1 forbidden edge"))
  }

  @Test func aConditionalGlibcImportOutsidePlatformFailsOnBothLines() throws {
    let outcome = try Self.check(planting: [
      "Store/Watch.swift": "import CubeFormat\n\n\(Self.glibc)\n  import Glibc\n#endif\n",
      "Platform/Syscalls.swift":
        "\(Self.glibc)\n  import Glibc\n#elseif canImport(Darwin)\n  import Darwin\n#endif\n",
    ])
    #expect(outcome.status == 1)
    #expect(outcome.output.contains("Sources/Store/Watch.swift:3: Store tests canImport of Glibc, which is forbidden"))
    #expect(outcome.output.contains("Sources/Store/Watch.swift:4: Store imports Glibc, which is forbidden"))
    #expect(!outcome.output.contains("Sources/Platform/"))
    #expect(outcome.output.contains("2 forbidden edge"))
  }

  @Test func aFaceImportedOutsideTheServiceAndTheCommandLineFails() throws {
    let outcome = try Self.check(planting: [
      "Warnings/Alerts.swift": "import Meteorology\nimport DarkSkyFace\n",
      "nwpcube/Serve.swift": "import DarkSkyFace\n",
      "DarkSkyFace/Face.swift": "import Forecast\nimport CubeFormat\n",
      "Meteorology/Wind.swift": "import Foundation\nimport UTCTime\n",
      "UTCTime/Time.swift": "",
    ])
    #expect(outcome.status == 1)
    #expect(
      outcome.output.contains("Sources/Warnings/Alerts.swift:2: Warnings imports DarkSkyFace, which is forbidden"))
    #expect(outcome.output.contains("Sources/DarkSkyFace/Face.swift:2: DarkSkyFace imports CubeFormat"))
    // Meteorology may import Foundation, but no module of the project.
    #expect(outcome.output.contains("Sources/Meteorology/Wind.swift:2: Meteorology imports UTCTime"))
    #expect(!outcome.output.contains("Sources/nwpcube/"))
    #expect(outcome.output.contains("3 forbidden edge"))
  }

  @Test func importsInCommentsAndStringLiteralsAreNotEdges() throws {
    let outcome = try Self.check(planting: [
      "Forecast/Doc.swift": """
      /// An example: `import Store` in a doc comment.
      // import Store
      /*
      import Store
      */
      let fixture = \"\"\"
      import Store
      \"\"\"

      """,
      "Store/Catalog.swift": "",
    ])
    #expect(outcome.status == 0, "\(outcome.output)")
  }

  @Test func aFaceImportingAnotherFaceOrTheStoreFails() throws {
    let outcome = try Self.check(planting: [
      "OpenWeatherMapFace/Query.swift": "import FaceKit\nimport OpenMeteoFace\n",
      "NwpcubeFace/Runs.swift": "import Store\n",
      "FaceKit/Kit.swift": "import DarkSkyFace\n",
      "OpenMeteoFace/Document.swift": "import FaceKit\n",
    ])
    #expect(outcome.status == 1)
    #expect(
      outcome.output.contains(
        "Sources/OpenWeatherMapFace/Query.swift:2: OpenWeatherMapFace imports OpenMeteoFace, which is forbidden"))
    #expect(outcome.output.contains("Sources/NwpcubeFace/Runs.swift:1: NwpcubeFace imports Store, which is forbidden"))
    #expect(outcome.output.contains("Sources/FaceKit/Kit.swift:1: FaceKit imports DarkSkyFace, which is forbidden"))
    #expect(!outcome.output.contains("Sources/OpenMeteoFace/"))
    #expect(outcome.output.contains("3 forbidden edge"))
  }

  @Test func anAllowThatMatchesNoImportFailsSoTheListOnlyShrinks() throws {
    let root = try Self.tree(["Forecast/Forecaster.swift": "import Meteorology\n"])
    defer { SampleFiles.remove(root) }
    let rules = "\(root)/rules"
    try "forbid * -HTTPService -> Store\nallow Meteogram -> Store\n".write(
      toFile: rules, atomically: true, encoding: .utf8)
    let outcome = try Self.check(sources: "\(root)/Sources", rules: rules)
    #expect(outcome.status == 1)
    #expect(outcome.output.contains("`allow Meteogram -> Store` allows no edge any more: remove it"))
  }

  @Test func aRulesLineItCannotReadIsAnErrorNamingTheLine() throws {
    let root = try Self.tree(["Forecast/Forecaster.swift": "import Meteorology\n"])
    defer { SampleFiles.remove(root) }
    let rules = "\(root)/rules"
    try "group faces = DarkSkyFace\nforbid Forecast => Store\n".write(
      toFile: rules, atomically: true, encoding: .utf8)
    let outcome = try Self.check(sources: "\(root)/Sources", rules: rules)
    #expect(outcome.status == 2)
    #expect(outcome.output.contains("\(rules):2: cannot read `forbid Forecast => Store`"))
  }

  @Test func aForbiddenDependencyDeclaredInPackageSwiftFailsNamingItsLineThoughNothingImportsIt() throws {
    let root = try Self.tree([
      "Forecast/Forecaster.swift": "import Meteorology\n",
      "Store/Catalog.swift": "import CubeFormat\n",
      "Meteorology/Units.swift": "",
    ])
    defer { SampleFiles.remove(root) }
    // The product's names (`Logging`) are another package's, not modules of this one; the
    // commented-out edge is not declared.
    let package = """
      let package = Package(
        targets: [
          .target(name: "Meteorology"),
          .target(name: "Store", dependencies: ["Meteorology"]),
          // .target(name: "Forecast", dependencies: ["Store"]),
          .target(
            name: "Forecast",
            dependencies: [
              "Meteorology", .product(name: "Logging", package: "swift-log"),
              .target(name: "Store"),
            ]),
        ]
      )

      """
    try package.write(toFile: "\(root)/Package.swift", atomically: true, encoding: .utf8)
    let outcome = try Self.check(sources: "\(root)/Sources")
    #expect(outcome.status == 1, "\(outcome.output)")
    #expect(
      outcome.output.contains(
        "Package.swift:10: Forecast depends on Store, which is forbidden (forbid Forecast -> Store)"),
      "\(outcome.output)")
    #expect(outcome.output.contains("1 forbidden edge"), "\(outcome.output)")

    // Without the declared edge the same tree passes.
    try package.replacingOccurrences(of: "\n        .target(name: \"Store\"),", with: "")
      .write(toFile: "\(root)/Package.swift", atomically: true, encoding: .utf8)
    let clean = try Self.check(sources: "\(root)/Sources")
    #expect(clean.status == 0, "\(clean.output)")
    #expect(clean.output.contains("2 declared dependencies"), "\(clean.output)")
  }
}
