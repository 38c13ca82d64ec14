// swift-tools-version: 6.1
import PackageDescription

/// The brute-force oracles in `_TestSupport` scan every cell of a grid for every test point;
/// they are compiled optimised even in debug builds so that the property tests stay fast.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "nwpcube",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "nwpcube", targets: ["nwpcube"]),
    .library(name: "PointQuery", targets: ["PointQuery", "Store", "UTCTime", "Meteorology", "Forecast", "Warnings"]),
    .library(name: "Ingest", targets: ["Ingest"]),
    .library(name: "HTTPService", targets: ["HTTPService"]),
    .library(name: "Places", targets: ["Places"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The HTTP service. Hummingbird's default traits are off: they add swift-configuration
    // (which nwpcube does not use) and full Foundation for form coding (which it does not
    // need), and both cost build time.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // Tests only: reads openapi.yaml to check the server against it.
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CNetCDF",
      pkgConfig: "netcdf",
      providers: [.apt(["libnetcdf-dev"]), .brew(["netcdf"])]
    ),
    // HDF5's error printing, off on every thread that calls libnetcdf (found in the process).
    .target(name: "CHDF5Errors"),
    .target(name: "NetCDF", dependencies: ["CNetCDF", "CHDF5Errors", "CVectorKernels", "Platform"]),
    // GRIB editions 2 and 1 through ECMWF's ecCodes (Debian's libeccodes-dev; its definitions
    // come with libeccodes-data, a dependency of the library package). No pkgConfig: Debian's
    // eccodes.pc puts an -rpath in its flags, which SwiftPM drops with a warning, and the
    // header and library are in the default search paths without it.
    .systemLibrary(name: "CEcCodes", providers: [.apt(["libeccodes-dev"]), .brew(["eccodes"])]),
    // ecCodes calls that survive its internal assertions (which abort the process, and which
    // damaged input reaches): a C jump out of ecCodes, which Swift cannot make.
    .target(name: "CEcCodesGuard", dependencies: ["CEcCodes"]),
    .target(name: "GRIB", dependencies: ["CEcCodes", "CEcCodesGuard", "GridGeometry", "Platform", "UTCTime"]),
    // PNG encoding for map tiles: Debian's libpng, through a small C writer (libpng reports
    // errors by longjmp, which Swift cannot catch).
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    .target(name: "CPNGWriter", dependencies: ["CPNG"]),
    // Tests only: zlib, for a PNG decoder independent of the tile encoder's code path.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    // Every system call the product makes, with a typed errno (docs/how-it-works.md). No
    // package dependency, so that the fuzz build keeps it and everything above it.
    // Writeback started as a cube is written (`sync_file_range`, which Swift's Glibc module
    // does not declare), for Platform.
    .target(name: "CWriteback"),
    .target(name: "Platform", dependencies: ["CWriteback"]),
    .target(name: "UTCTime"),
    .target(name: "Meteorology"),
    .target(name: "CPrefetch"),
    // Ingest's loops over every value (quantizing, CF unpacking) in AVX2 or AVX-512, chosen
    // at run time: the product is built for any x86-64, where Swift's vectors are SSE2's.
    .target(name: "CVectorKernels"),
    .target(name: "CFileSystemType"),
    .target(name: "GridGeometry"),
    // Read leases on served cubes and the signal that reports their breaking: a signal
    // handler must be C.
    .target(name: "CCubeLease"),
    .target(name: "CubeFormat", dependencies: ["CPrefetch", "CCubeLease", "CVectorKernels", "Platform"]),
    .target(name: "PointQuery", dependencies: ["CubeFormat", "GridGeometry", "Meteorology", "UTCTime"]),
    // Store management (scanning, watching, pruning, the live catalog), apart from reading a
    // cube, which is PointQuery's. No package dependency, so that the fuzz build keeps it.
    .target(
      name: "Store",
      dependencies: [
        "CFileSystemType", "CubeFormat", "Meteorology", "Platform", "PointQuery", "UTCTime",
      ]),
    .target(
      name: "Ingest",
      dependencies: ["NetCDF", "GRIB", "CubeFormat", "GridGeometry", "Meteorology", "Platform", "UTCTime"]),
    .target(name: "Forecast", dependencies: ["PointQuery", "Meteorology", "UTCTime"]),
    .target(
      name: "Warnings",
      dependencies: [
        "Forecast", "PointQuery", "GridGeometry", "Meteorology", "UTCTime", "XMLText", "FNV", "JSONOutput",
      ]),
    // The kit the API faces share: query parameters, coordinates, the face error and the
    // `Face` protocol, JSON writing, the presentation columns the faces and the pictures
    // share. Free of HTTP, of the store and of the cube format.
    .target(name: "FaceKit", dependencies: ["Forecast", "Meteorology", "UTCTime", "JSONOutput"]),
    // One module per API face: its parameters, documents and presentation tables. A face
    // imports no other face, no store and no cube format (Scripts/import-graph.rules).
    .target(name: "OpenMeteoFace", dependencies: ["FaceKit", "Forecast", "PointQuery", "Meteorology"]),
    .target(
      name: "DarkSkyFace", dependencies: ["FaceKit", "Forecast", "PointQuery", "Meteorology", "Warnings"]),
    .target(name: "OpenWeatherMapFace", dependencies: ["FaceKit", "Forecast", "Meteorology", "Places"]),
    .target(name: "LegacyFace", dependencies: ["FaceKit", "Forecast", "Meteorology", "UTCTime"]),
    .target(
      name: "NwpcubeFace",
      dependencies: ["FaceKit", "Forecast", "JSONOutput", "Meteorology", "UTCTime", "Places", "Warnings"]),
    // Pictures of forecasts drawn as SVG text (no raster library); PNG through rsvg-convert.
    .target(
      name: "Meteogram",
      dependencies: ["Forecast", "FaceKit", "PointQuery", "Meteorology", "Platform", "XMLText"]),
    .target(name: "SampleRun", dependencies: ["NetCDF", "GridGeometry"]),
    .target(name: "Places"),
    // The one JSON writer and decimal formatter of every answer, and the encoder of the cold
    // answers' Codable documents: no dependency, so that every face, CAP and the legends can
    // share it without depending on one another.
    .target(name: "JSONOutput"),
    // Escaping for the XML nwpcube writes: CAP warnings, SVG meteograms and legends.
    .target(name: "XMLText"),
    // The stable FNV-1a digest behind CAP identifiers and the pictures' ETags.
    .target(name: "FNV"),
    // Web Mercator map tiles, their colour scales and legends, and the land base layer.
    .target(
      name: "MapTiles",
      dependencies: [
        "PointQuery", "CubeFormat", "GridGeometry", "Meteorology", "UTCTime", "CPNGWriter", "XMLText", "FNV",
        "JSONOutput",
      ]),
    .target(
      name: "HTTPService",
      dependencies: [
        "Forecast", "FaceKit", "OpenMeteoFace", "DarkSkyFace", "OpenWeatherMapFace", "LegacyFace", "NwpcubeFace",
        "PointQuery",
        "Store", "CubeFormat",
        "Meteorology", "UTCTime", "Places",
        "Warnings", "Meteogram", "MapTiles", "FNV", "JSONOutput", "Platform",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ],
      resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")]
    ),
    .executableTarget(
      name: "nwpcube",
      dependencies: [
        "Ingest", "PointQuery", "Store", "Forecast", "FaceKit", "OpenMeteoFace", "DarkSkyFace", "OpenWeatherMapFace",
        "LegacyFace", "NwpcubeFace", "GridGeometry", "SampleRun", "UTCTime",
        "HTTPService", "Places", "Warnings", "Meteogram", "MapTiles", "Platform",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    .target(
      name: "_TestSupport",
      dependencies: ["GridGeometry", "NetCDF", "CNetCDF", "SampleRun", "Ingest", "CEcCodes", "GRIB"],
      swiftSettings: optimisedInDebug),
    .testTarget(
      name: "NetCDFTests", dependencies: ["CNetCDF", "CVectorKernels", "NetCDF", "Platform", "_TestSupport"]),
    .testTarget(name: "GRIBTests", dependencies: ["GRIB", "CEcCodes", "GridGeometry", "UTCTime", "_TestSupport"]),
    .testTarget(
      name: "CubeFormatTests",
      dependencies: ["CubeFormat", "CVectorKernels", "GridGeometry", "PointQuery", "_TestSupport"]),
    .testTarget(name: "UTCTimeTests", dependencies: ["UTCTime"]),
    .testTarget(name: "PlatformTests", dependencies: ["Platform", "_TestSupport"]),
    .testTarget(name: "GridGeometryTests", dependencies: ["GridGeometry", "NetCDF", "SampleRun", "_TestSupport"]),
    .testTarget(
      name: "IngestTests",
      dependencies: ["Ingest", "PointQuery", "NetCDF", "Meteorology", "SampleRun", "UTCTime", "_TestSupport"]),
    .testTarget(name: "PointQueryTests", dependencies: ["PointQuery", "Store", "Ingest", "SampleRun", "_TestSupport"]),
    .testTarget(
      name: "StoreTests",
      dependencies: [
        "Store", "PointQuery", "CubeFormat", "UTCTime", "SampleRun", "_TestSupport",
      ]),
    .testTarget(name: "SampleRunTests", dependencies: ["SampleRun", "NetCDF", "GridGeometry"]),
    .testTarget(name: "CLITests", dependencies: ["PointQuery", "Store", "UTCTime", "_TestSupport"]),
    .testTarget(name: "MeteorologyTests", dependencies: ["Meteorology"]),
    .testTarget(name: "JSONOutputTests", dependencies: ["JSONOutput"]),
    .testTarget(
      name: "WarningsTests",
      dependencies: [
        "Warnings", "Forecast", "PointQuery", "Store", "Meteorology", "UTCTime", "SampleRun", "_TestSupport",
      ]),
    .testTarget(name: "PlacesTests", dependencies: ["Places", "_TestSupport"]),
    .testTarget(
      name: "ForecastTests",
      dependencies: [
        "Forecast", "FaceKit", "OpenMeteoFace", "NwpcubeFace", "PointQuery", "Store", "Meteorology", "UTCTime",
        "_TestSupport",
      ]),
    .testTarget(
      name: "HTTPServiceTests",
      dependencies: [
        "HTTPService", "Forecast", "FaceKit", "OpenMeteoFace", "DarkSkyFace", "OpenWeatherMapFace", "LegacyFace",
        "NwpcubeFace",
        "PointQuery", "Store", "Meteorology", "UTCTime", "Ingest",
        "SampleRun", "Places", "Warnings", "Meteogram", "MapTiles", "CZlib", "Platform", "_TestSupport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Yams", package: "Yams"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// Fuzzing (Scripts/fuzz, docs/reliability.md). With NWPCUBE_FUZZ=1 the package is the
// libFuzzer targets under Fuzz/ and the modules they reach: targets that need another
// package (the HTTP service, the CLI) and the test targets are left out, so a fuzz build
// resolves and compiles nothing outside this repository. The fuzz executables call
// libFuzzer's driver, so they link only with -sanitize=fuzzer (Scripts/fuzz passes it).
if Context.environment["NWPCUBE_FUZZ"] == "1" {
  let external = { (target: Target) in
    target.dependencies.contains { if case .productItem = $0 { true } else { false } }
  }
  package.targets.removeAll { $0.type == .test || external($0) }
  package.products = []
  package.dependencies = []
  package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/Sources/CFuzzDriver"))
  package.targets.append(
    .target(
      name: "FuzzSupport",
      dependencies: [
        "CFuzzDriver", "CubeFormat", "GridGeometry", "PointQuery", "Meteorology", "Ingest", "NetCDF", "SampleRun",
        "_TestSupport",
      ],
      path: "Fuzz/Sources/FuzzSupport"))
  for name in [
    "FuzzCubeOpen", "FuzzCubeResealed", "FuzzLocatorBuild", "FuzzNetCDFMetadata", "FuzzIngestDimensions",
    "FuzzClassicHeader",
  ] {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: ["FuzzSupport"], path: "Fuzz/Sources/\(name)"))
  }
  // The GRIB path; its seeds come from the tests' GRIB writer (_TestSupport).
  package.targets.append(
    .executableTarget(
      name: "FuzzGRIBFile", dependencies: ["FuzzSupport", "GRIB", "_TestSupport"], path: "Fuzz/Sources/FuzzGRIBFile"))
}
