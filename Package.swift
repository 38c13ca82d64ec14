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
    .library(name: "PointQuery", targets: ["PointQuery", "UTCTime", "Meteorology", "Forecast"]),
    .library(name: "Ingest", targets: ["Ingest"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .systemLibrary(
      name: "CNetCDF",
      pkgConfig: "netcdf",
      providers: [.apt(["libnetcdf-dev"]), .brew(["netcdf"])]
    ),
    .target(name: "NetCDF", dependencies: ["CNetCDF"]),
    .target(name: "UTCTime"),
    .target(name: "Meteorology"),
    .target(name: "CPrefetch"),
    .target(name: "GridGeometry"),
    .target(name: "CubeFormat", dependencies: ["CPrefetch"]),
    .target(name: "PointQuery", dependencies: ["CubeFormat", "GridGeometry", "Meteorology", "UTCTime"]),
    .target(name: "Ingest", dependencies: ["NetCDF", "CubeFormat", "GridGeometry", "Meteorology", "UTCTime"]),
    .target(name: "Forecast", dependencies: ["PointQuery", "Meteorology", "UTCTime"]),
    .target(name: "ForecastOutput", dependencies: ["Forecast", "PointQuery", "Meteorology", "UTCTime"]),
    .target(name: "SampleRun", dependencies: ["NetCDF", "GridGeometry"]),
    .executableTarget(
      name: "nwpcube",
      dependencies: [
        "Ingest", "PointQuery", "Forecast", "ForecastOutput", "GridGeometry", "SampleRun", "UTCTime",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .target(
      name: "_TestSupport", dependencies: ["GridGeometry", "NetCDF", "SampleRun", "Ingest"],
      swiftSettings: optimisedInDebug),
    .testTarget(name: "NetCDFTests", dependencies: ["NetCDF", "_TestSupport"]),
    .testTarget(name: "CubeFormatTests", dependencies: ["CubeFormat", "_TestSupport"]),
    .testTarget(name: "GridGeometryTests", dependencies: ["GridGeometry", "NetCDF", "SampleRun", "_TestSupport"]),
    .testTarget(
      name: "IngestTests",
      dependencies: ["Ingest", "PointQuery", "NetCDF", "Meteorology", "SampleRun", "UTCTime", "_TestSupport"]),
    .testTarget(name: "PointQueryTests", dependencies: ["PointQuery", "Ingest", "SampleRun", "_TestSupport"]),
    .testTarget(name: "SampleRunTests", dependencies: ["SampleRun", "NetCDF", "GridGeometry"]),
    .testTarget(name: "CLITests", dependencies: ["PointQuery", "UTCTime", "_TestSupport"]),
    .testTarget(name: "MeteorologyTests", dependencies: ["Meteorology"]),
    .testTarget(
      name: "ForecastTests", dependencies: ["Forecast", "PointQuery", "Meteorology", "UTCTime", "_TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
