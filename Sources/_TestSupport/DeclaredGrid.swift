import Foundation
import NetCDF

/// A WRF-like NetCDF-4 file that declares a grid and leaves its fields unwritten: the file
/// stays a few kilobytes whatever grid it claims (HDF5 allocates no chunk never written).
/// What the 28 KB file declaring 40,000 × 40,000 cells was, for tests and fuzzing
/// of what ingest does before it reads a field.
public struct DeclaredGrid: Sendable, CustomStringConvertible {
  public var westEast: Int
  public var southNorth: Int
  /// Length of `bottom_top`, used by the 3-D fields when there are any.
  public var levels: Int
  /// Time records (each has a `Times` entry, an hour apart).
  public var steps: Int
  /// Whether XLAT/XLONG have a Time dimension.
  public var coordinatesHaveTime: Bool
  /// Whether the file has the 3-D fields (P, PB, T, QVAPOR, CLDFRA) that read every level.
  public var volumes: Bool

  public init(
    westEast: Int, southNorth: Int, levels: Int = 1, steps: Int = 1, coordinatesHaveTime: Bool = true,
    volumes: Bool = false
  ) {
    (self.westEast, self.southNorth, self.levels, self.steps) = (westEast, southNorth, levels, steps)
    (self.coordinatesHaveTime, self.volumes) = (coordinatesHaveTime, volumes)
  }

  public var description: String {
    "west_east \(westEast), south_north \(southNorth), bottom_top \(levels), \(steps) steps, coordinates with Time: \(coordinatesHaveTime), 3-D fields: \(volumes)"
  }

  /// Writes the file at `path`; libnetcdf's refusal of a dimension (a length it cannot
  /// describe) is thrown.
  public func write(to path: String) throws {
    let file = try NCFile.create(path, format: .netcdf4)
    defer { file.close() }
    try file.defineDimension("Time", length: nil)
    try file.defineDimension("DateStrLen", length: 19)
    try file.defineDimension("south_north", length: southNorth)
    try file.defineDimension("west_east", length: westEast)
    try file.defineDimension("bottom_top", length: levels)
    try file.setAttribute("SIMULATION_START_DATE", .text("2026-06-20_00:00:00"))
    try file.setAttribute("MAP_PROJ", .integers([1]))
    try file.defineVariable("Times", type: .char, dimensions: ["Time", "DateStrLen"])
    let surface = ["Time", "south_north", "west_east"]
    for name in ["T2", "Q2", "PSFC", "U10", "V10", "RAINNC"] {
      try file.defineVariable(name, type: .float, dimensions: surface)
    }
    for name in ["XLAT", "XLONG"] {
      try file.defineVariable(
        name, type: .float, dimensions: coordinatesHaveTime ? surface : ["south_north", "west_east"])
    }
    if volumes {
      for name in ["P", "PB", "T", "QVAPOR", "CLDFRA"] {
        try file.defineVariable(name, type: .float, dimensions: ["Time", "bottom_top", "south_north", "west_east"])
      }
    }
    try file.endDefinitions()
    let times = (0..<steps).map { String(format: "2026-06-20_%02d:00:00", $0 % 24) }
    try file.writeStrings("Times", start: [0, 0], count: [steps, 19], times)
  }
}
