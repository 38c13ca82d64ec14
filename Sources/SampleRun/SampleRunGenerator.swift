import Foundation
import NetCDF

/// Writes synthetic WRF-ARW runs for tests and demos.
///
/// The output is real NetCDF with WRF's names, dimensions and attributes, laid out as the
/// wrfout files a forecast system would hand over, and generated deterministically from a
/// `SampleRunSpec`: the same spec always gives the same bytes.
public enum SampleRunGenerator {
  /// Writes one wrfout file per output time (`wrfout_d01_YYYY-MM-DD_HH:MM:SS`) into
  /// `directory`, creating it if needed, and returns the paths in time order; with a
  /// `spec.nest`, the nest's `wrfout_d02_*` files follow d01's in the list.
  public static func write(_ spec: SampleRunSpec = .portugal9km, to directory: String) throws -> [String] {
    let start = try spec.validated()
    try createDirectory(directory)
    let weather = SyntheticWeather(spec: spec, start: start)
    let constant = weather.staticFields()
    var accumulated = PrecipitationAccumulator(weather: weather)
    var paths: [String] = []
    let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    for step in 0..<spec.stepCount {
      let minutes = step * spec.stepMinutes
      let date = start.adding(minutes: minutes)
      let path = "\(folder)/wrfout_d01_\(date.wrfString)"
      accumulated.advance(to: minutes, weather: weather)
      let fields = weather.fields(minutes: minutes, accumulated: accumulated)
        .merging(constant) { current, _ in current }
      let file = try WRFOutputFile.create(path: path, spec: spec, start: start)
      defer { file.close() }
      try WRFOutputFile.writeRecord(
        file, record: 0, spec: spec, date: date, minutes: minutes, fields: fields)
      paths.append(path)
    }
    if let nest = spec.nest {
      paths += try NestOutput.write(spec, nest: nest, start: start, folder: folder)
    }
    return paths
  }

  /// Writes the whole run into one file, one record of the unlimited Time dimension per
  /// output time, with the same content as `write(_:to:)`; some WRF setups
  /// (`frames_per_outfile` large) produce runs like this.
  public static func writeSingleFile(_ spec: SampleRunSpec = .portugal9km, to path: String) throws {
    let start = try spec.validated()
    let weather = SyntheticWeather(spec: spec, start: start)
    let constant = weather.staticFields()
    var accumulated = PrecipitationAccumulator(weather: weather)
    let file = try WRFOutputFile.create(path: path, spec: spec, start: start)
    defer { file.close() }
    for step in 0..<spec.stepCount {
      let minutes = step * spec.stepMinutes
      accumulated.advance(to: minutes, weather: weather)
      let fields = weather.fields(minutes: minutes, accumulated: accumulated)
        .merging(constant) { current, _ in current }
      try WRFOutputFile.writeRecord(
        file, record: step, spec: spec, date: start.adding(minutes: minutes), minutes: minutes,
        fields: fields)
    }
  }

  /// Writes the run as one MM5 file in the NetCDF layout of the MM5 "archiver" converter
  /// (see `MM5OutputFile`): the same weather as the WRF sample under MM5's names and units.
  public static func writeMM5(_ spec: SampleRunSpec = .portugal9km, to path: String) throws {
    let start = try spec.validated()
    try MM5OutputFile.write(spec, start: start, to: path)
  }

  private static func createDirectory(_ directory: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw SampleRunError.cannotCreateDirectory(path: directory, reason: error.localizedDescription)
    }
  }
}
