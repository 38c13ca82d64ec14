// swift-tools-version: 6.0
// A development harness, not part of the product: times `PrecipitationNeighbourhood`'s
// set-up and one step, optimised, on the grids of the scale study, compiling the real
// sources of Ingest's neighbourhood (and of the modules it uses) without the rest of the
// package. `Scripts/neighbourhood-timing/run` links them in and builds it in release.
import PackageDescription

let package = Package(
  name: "NeighbourhoodTiming",
  targets: [
    .target(name: "CPrefetch", path: "Linked/CPrefetch"),
    .target(name: "CCubeLease", path: "Linked/CCubeLease"),
    .target(name: "CWriteback", path: "Linked/CWriteback"),
    .target(name: "Platform", dependencies: ["CWriteback"], path: "Linked/Platform"),
    .target(
      name: "CubeFormat", dependencies: ["CPrefetch", "CCubeLease", "Platform"], path: "Linked/CubeFormat"),
    .target(name: "GridGeometry", path: "Linked/GridGeometry"),
    .target(name: "Meteorology", path: "Linked/Meteorology"),
    .target(
      name: "Neighbourhood", dependencies: ["CubeFormat", "GridGeometry", "Meteorology"], path: "Linked/Neighbourhood"),
    .executableTarget(name: "NeighbourhoodTiming", dependencies: ["Neighbourhood", "GridGeometry"]),
  ],
  swiftLanguageModes: [.v6]
)
