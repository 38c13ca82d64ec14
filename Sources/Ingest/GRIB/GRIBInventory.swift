import Foundation
import GRIB
import UTCTime

/// What a run's GRIB files hold for nwpcube: every file scanned once (its messages' keys,
/// no values), checked to belong to one run and one grid, and its messages sorted by
/// quantity and valid time.
///
/// A run may come as one file or as one file per step, its messages in any order. The
/// reference time (`dataDate`/`dataTime`) of every message must be the first message's,
/// and every message the run uses must be on the first used message's grid (gridType,
/// Ni/Nj and the first point); an error names the file and the message number.
struct GRIBInventory: Sendable {
  /// A field accumulated or averaged over `start…end` (seconds after the reference time).
  struct Window: Sendable {
    let start: Int64
    let end: Int64
    let field: GRIBField
    /// An average rate (per second) rather than an amount.
    let isAverage: Bool
  }

  /// The messages of one quantity.
  struct Quantity: Sendable {
    let row: GRIBParameterTable.Row
    /// Instant values (and maxima or minima over a window) by valid time.
    var instants: [Int64: GRIBField] = [:]
    /// Accumulations and averages by the end of their window.
    var windows: [Int64: [Window]] = [:]
  }

  let files: [GRIBFile]
  let referenceTime: Int64
  let centre: String
  /// The grid of the first message used, and where it came from.
  let grid: GRIBGrid
  let gridSource: GRIBField
  /// The quantities found, by key.
  let quantities: [String: Quantity]
  /// The valid times (seconds after the reference time) of the non-terrain fields, sorted.
  let validTimes: [Int64]
  let warnings: [String]

  /// Scans `paths`; `rows` are the parameter table's, with the operator's `--map`
  /// entries in place of the rows of the quantities they name.
  init(_ paths: [String], rows: [GRIBParameterTable.Row]) throws(IngestError) {
    var files: [GRIBFile] = []
    var reference: (time: Int64, place: String)?
    // The messages each row matches, by row index.
    var matched: [Int: [(GRIBFile, GRIBMessage)]] = [:]
    for path in paths {
      let file: GRIBFile
      do {
        file = try GRIBFile(path: path)
      } catch {
        throw IngestError(error)
      }
      files.append(file)
      for message in file.messages {
        if let reference, message.referenceTime != reference.time {
          throw IngestError(
            path: path, variable: "message \(message.number)",
            reason:
              "reference time (dataDate/dataTime) \(UTC.iso8601(message.referenceTime)) differs from \(UTC.iso8601(reference.time)) of \(reference.place): a run's files must all belong to one run; ingest each run separately"
          )
        }
        reference = reference ?? (message.referenceTime, "\(path) message \(message.number)")
        for (index, row) in rows.enumerated() where row.matches(message) {
          matched[index, default: []].append((file, message))
        }
      }
    }
    guard let reference else { throw IngestError(path: paths.first ?? "ingest", reason: "no GRIB messages") }
    // Each quantity from its first row (in order of preference) with a message in the run.
    var chosen: [String: Int] = [:]
    for (index, row) in rows.enumerated() where chosen[row.key] == nil && matched[index] != nil {
      chosen[row.key] = index
    }
    guard let firstUsed = chosen.values.compactMap({ matched[$0]?.first }).min(by: { Self.order($0, $1, files) })
    else {
      throw IngestError(
        path: paths[0],
        reason:
          "none of the GRIB parameters nwpcube derives metrics from was found: looked for \(rows.map(\.description).joined(separator: "; "))"
      )
    }
    let grid: GRIBGrid
    do {
      grid = try firstUsed.0.grid(of: firstUsed.1)
    } catch {
      throw IngestError(error)
    }
    let first = try Self.firstPoint(firstUsed.0, firstUsed.1)
    var units: [String: GRIBUnit.Conversion] = [:]
    var quantities: [String: Quantity] = [:]
    var warnings: [String] = []
    var duplicates: [String: String] = [:]
    for (key, index) in chosen.sorted(by: { $0.key < $1.key }) {
      let row = rows[index]
      var quantity = Quantity(row: row)
      for (file, message) in matched[index] ?? [] {
        try Self.requireGrid(file, message, like: grid, first: first, from: firstUsed)
        // A windowed quantity (precipitation, radiation) is an accumulation, an average
        // rate over its window, or a rate at an instant; its maxima and minima are not it.
        let isWindow = row.isWindowed && (message.stepType == "accum" || message.stepType == "avg")
        if row.isWindowed && !isWindow && message.stepType != "instant" { continue }
        // An accumulation is never an instant quantity's value: GFS's accumulated snowfall
        // (weasd over a window) is not the snow on the ground (weasd at an instant).
        if !row.isWindowed && message.stepType == "accum" { continue }
        let isRate = row.isWindowed && message.stepType != "accum"
        let conversion = try Self.conversion(
          file, message, to: isRate ? (row.rateUnit ?? row.unit) : row.unit, row: row, cache: &units)
        var field = GRIBField(file: file, message: message, conversion: conversion)
        if isWindow {
          field.packingError = Self.packingError(file, message, conversion: conversion)
          let window = Window(
            start: message.startStep, end: message.endStep, field: field, isAverage: message.stepType == "avg")
          // Accumulations and averages over the same window say the same: an accumulation
          // is kept (an average's rate is packed at its own, coarser precision), else the first.
          var ending = quantity.windows[window.end] ?? []
          if let same = ending.firstIndex(where: { $0.start == window.start }) {
            if ending[same].isAverage && !window.isAverage { ending[same] = window }
          } else {
            ending.append(window)
          }
          quantity.windows[window.end] = ending
          continue
        }
        if let earlier = quantity.instants[message.endStep] {
          duplicates[key] =
            duplicates[key]
            ?? "\(row.description) at +\(Self.hours(message.endStep)) is in both \(earlier.place) and \(field.place): the first is used"
          continue
        }
        quantity.instants[message.endStep] = field
      }
      quantities[key] = quantity
    }
    warnings += duplicates.sorted { $0.key < $1.key }.map(\.value)
    var times = Set<Int64>()
    for (key, quantity) in quantities where !GRIBParameterTable.terrainKeys.contains(key) {
      times.formUnion(quantity.instants.keys)
      times.formUnion(quantity.windows.keys)
    }
    self.files = files
    referenceTime = reference.time
    centre = firstUsed.1.centre
    self.grid = grid
    gridSource = GRIBField(file: firstUsed.0, message: firstUsed.1, conversion: .identity)
    self.quantities = quantities
    validTimes = times.sorted()
    self.warnings = warnings
  }

  /// "6 h", "90 min" or "30 s" after the reference time.
  static func hours(_ seconds: Int64) -> String {
    seconds % 3600 == 0 ? "\(seconds / 3600) h" : seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
  }

  /// File order, then message order.
  private static func order(
    _ a: (GRIBFile, GRIBMessage), _ b: (GRIBFile, GRIBMessage), _ files: [GRIBFile]
  ) -> Bool {
    let (fa, fb) = (files.firstIndex { $0 === a.0 } ?? 0, files.firstIndex { $0 === b.0 } ?? 0)
    return (fa, a.1.number) < (fb, b.1.number)
  }

  /// The latitude and longitude of a message's first grid point.
  private static func firstPoint(_ file: GRIBFile, _ message: GRIBMessage) throws(IngestError) -> (Double, Double) {
    do {
      return (
        try file.double("latitudeOfFirstGridPointInDegrees", of: message),
        try file.double("longitudeOfFirstGridPointInDegrees", of: message)
      )
    } catch {
      throw IngestError(error)
    }
  }

  /// Throws, naming the file and message, when `message`'s grid is not `grid` (gridType,
  /// Ni/Nj, first point to 10⁻⁴°).
  private static func requireGrid(
    _ file: GRIBFile, _ message: GRIBMessage, like grid: GRIBGrid, first: (Double, Double),
    from source: (GRIBFile, GRIBMessage)
  ) throws(IngestError) {
    let origin = "\(source.0.path) message \(source.1.number)"
    func fail(_ what: String) -> IngestError {
      IngestError(
        path: file.path, variable: "message \(message.number)",
        reason: "\(what), unlike \(origin): a run's messages must all be on one grid; ingest one grid at a time")
    }
    guard message.gridType == grid.gridType else {
      throw fail("its gridType is \(message.gridType), not \(grid.gridType)")
    }
    guard message.ni == grid.width, message.nj == grid.height else {
      throw fail(
        "its grid is \(message.ni.map(String.init) ?? "?")×\(message.nj.map(String.init) ?? "?") points, not \(grid.width)×\(grid.height)"
      )
    }
    guard file !== source.0 || message.byteOffset != source.1.byteOffset else { return }
    let point = try firstPoint(file, message)
    var longitudeDifference = abs(point.1 - first.1).truncatingRemainder(dividingBy: 360)
    longitudeDifference = min(longitudeDifference, 360 - longitudeDifference)
    guard abs(point.0 - first.0) <= 1e-4, longitudeDifference <= 1e-4 else {
      throw fail("its first point is at \(point.0), \(point.1), not at \(first.0), \(first.1)")
    }
  }

  /// Half the packing step of `message`, converted; 0 when the message does not say
  /// (packings without scale factors).
  private static func packingError(
    _ file: GRIBFile, _ message: GRIBMessage, conversion: GRIBUnit.Conversion
  ) -> Double {
    guard let binary = try? file.long("binaryScaleFactor", of: message),
      let decimal = try? file.long("decimalScaleFactor", of: message), abs(binary) < 200, abs(decimal) < 200
    else { return 0 }
    let step = pow(2, Double(binary)) / pow(10, Double(decimal))
    return abs(step / 2 * conversion.multiply / conversion.divide)
  }

  /// The conversion of `message`'s values to `unit`, from ecCodes' `units` for it (read
  /// once per parameter id); an error names the message when the units are not known.
  private static func conversion(
    _ file: GRIBFile, _ message: GRIBMessage, to unit: GRIBUnit, row: GRIBParameterTable.Row,
    cache: inout [String: GRIBUnit.Conversion]
  ) throws(IngestError) -> GRIBUnit.Conversion {
    let key = "\(message.parameterID) \(message.shortName) \(unit.rawValue)"
    if let known = cache[key] { return known }
    var units: String
    do {
      units = try file.string("units", of: message)
    } catch {
      throw IngestError(error)
    }
    // A WMO parameter whose centre's tables ecCodes has no units for is in the WMO's unit.
    if units == "unknown", let parameter = message.parameter, parameter.category < 192, parameter.number < 192,
      let wmo = GRIBParameterTable.wmoUnits[parameter]
    {
      units = wmo
    }
    guard let conversion = unit.conversion(from: units) else {
      throw IngestError(
        path: file.path, variable: "message \(message.number)",
        reason:
          "\(message.shortName) is in \"\(units)\", which nwpcube cannot convert to \(unit.rawValue) for \(row.key) (\(row.description))"
      )
    }
    cache[key] = conversion
    return conversion
  }
}
