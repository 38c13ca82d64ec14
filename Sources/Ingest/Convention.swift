import Foundation
import Meteorology
import NetCDF

/// How an input file names and lays out its data.
public enum Convention: String, Sendable, CaseIterable {
  /// Decide from the first file.
  case auto
  /// WRF-ARW wrfout (`Times`, `T2`, `XLAT`/`XLONG`).
  case wrf
  /// MM5 output converted to NetCDF by the archiver (`t2`, `latitcrs`, `pstarcrs`, …).
  case mm5
  /// CF conventions: latitude/longitude coordinates, `time` with "… since …" units,
  /// variables found by `standard_name` or the names common converters write.
  case cf
  /// GRIB editions 2 and 1, read through ecCodes: fields found by their parameter
  /// (`discipline/category/number` or `shortName`), level and step (docs/inputs.md).
  case grib

  /// The convention of `path`; an error lists what was looked for when none matches.
  /// A file that starts with the GRIB indicator is GRIB, before libnetcdf is asked.
  static func detect(_ path: String) throws(IngestError) -> Convention {
    if startsWithGRIB(path) { return .grib }
    let file = try NCFile.openForIngest(path)
    defer { file.close() }
    if file.variables["Times"] != nil || file.variables["XLAT"] != nil || file.globalAttributes["MAP_PROJ"] != nil
      || (file.globalAttributes["TITLE"]?.text ?? "").contains("WRF")
    {
      return .wrf
    }
    if MM5Convention.markers.contains(where: { file.variables[$0] != nil }) { return .mm5 }
    if CFGrid.coordinates(in: file) != nil { return .cf }
    throw IngestError(
      path: path,
      reason:
        "no known convention: looked for WRF (Times, XLAT/XLONG, MAP_PROJ or a WRF TITLE), MM5 (latitcrs, longicrs, pstarcrs or map_proj_code), GRIB (a file starting with \"GRIB\") and CF (latitude and longitude coordinate variables, by standard_name, units degrees_north/degrees_east or the names lat/latitude and lon/longitude)"
    )
  }

  /// Whether the file's first four bytes are `GRIB`, the indicator every GRIB message
  /// starts with (NCEP, ECMWF and DWD files start with their first message).
  static func startsWithGRIB(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 4)) == Data("GRIB".utf8)
  }
}

extension Convention {
  /// The kind of input a cube records (`auto` reads as WRF, as ingest does).
  var input: InputConvention {
    switch self {
    case .auto, .wrf: .wrf
    case .mm5: .mm5
    case .cf: .cf
    case .grib: .grib
    }
  }
}
