import UTCTime

/// What one GRIB message says about itself, read from its keys without decoding its values.
public struct GRIBMessage: Sendable, Equatable {
  /// The message's number in its file, counted from 1 as ecCodes' tools count (each field
  /// of a multi-field message is one): what errors name.
  public let number: Int
  /// Where the message starts in the file (its `GRIB` indicator).
  public let byteOffset: Int
  /// The message's length in bytes, as its indicator section declares (the whole of a
  /// multi-field message).
  public let byteCount: Int
  /// For a field of a multi-field message, the sections that make it a message of its own.
  let layout: [Range<Int>]?
  /// The GRIB edition, 1 or 2.
  public let edition: Int
  /// The originating centre as ecCodes names it (`centre`: `kwbc` for NCEP, `ecmf`,
  /// `edzw` for DWD …; the number when ecCodes knows no name).
  public let centre: String
  /// `discipline/parameterCategory/parameterNumber`; nil for edition 1, which has no
  /// discipline (its parameter is `paramId` and `shortName`).
  public let parameter: GRIBParameter?
  /// ECMWF's parameter id (`paramId`), 0 when ecCodes knows none.
  public let parameterID: Int
  /// ecCodes' `shortName` (`2t`, `10u`, `tp`, `prmsl` …), `unknown` when it knows none.
  public let shortName: String
  /// `typeOfLevel`: `heightAboveGround`, `surface`, `meanSea`, `isobaricInhPa` …
  public let typeOfLevel: String
  /// `level`, in the level type's unit (metres, hPa …); 0 for level types that have none.
  public let level: Double
  /// The reference time (`dataDate`, `dataTime`): the run, as UTC seconds.
  public let referenceTime: Int64
  /// `stepType`: `instant`, `accum`, `avg`, `max`, `min`, `diff` …
  public let stepType: String
  /// The start and the end of the forecast step in seconds after the reference time
  /// (`startStep`, `endStep` in `stepUnits` of seconds): equal for an instant, the
  /// window for an accumulation, average, maximum or minimum.
  public let startStep: Int64
  /// See `startStep`.
  public let endStep: Int64
  /// `gridType`: `regular_ll`, `regular_gg`, `lambert`, `polar_stereographic`,
  /// `mercator`, `rotated_ll`, `reduced_gg`, `sh` …
  public let gridType: String
  /// Points along a row and rows (`Ni`/`Nx`, `Nj`/`Ny`); nil where the grid has none
  /// (a reduced grid's `Ni`, spherical harmonics).
  public let ni: Int?
  /// See `ni`.
  public let nj: Int?
  /// Whether vector components (u, v) are relative to the grid's x and y rather than to
  /// east and north: bit 5 (value 8) of `resolutionAndComponentFlags`, as NAM and HRRR set it.
  public let uvRelativeToGrid: Bool
  /// The shape of the earth the grid is defined on.
  public let earth: GRIBEarth
  /// Whether a bitmap marks some points missing (`bitmapPresent`).
  public let bitmapPresent: Bool
  /// The points of the grid (`numberOfDataPoints`): the values a decode gives, missing
  /// points included.
  public let numberOfDataPoints: Int
  /// The values actually coded (`numberOfValues`): fewer than the points when a bitmap
  /// leaves some out.
  public let numberOfValues: Int

  /// Reads the keys of the message `handle` holds, found at `byteOffset` with `byteCount`
  /// bytes (its field `layout` of them, for a multi-field message).
  init(_ handle: GRIBHandle, byteOffset: Int, byteCount: Int, layout: [Range<Int>]?) throws(GRIBError) {
    number = handle.message
    self.byteOffset = byteOffset
    self.byteCount = byteCount
    self.layout = layout
    edition = try handle.long("edition")
    centre = try handle.string("centre")
    if let discipline = try handle.optionalLong("discipline"),
      let category = try handle.optionalLong("parameterCategory"),
      let parameterNumber = try handle.optionalLong("parameterNumber")
    {
      parameter = GRIBParameter(discipline: discipline, category: category, number: parameterNumber)
    } else {
      parameter = nil
    }
    parameterID = try handle.optionalLong("paramId") ?? 0
    shortName = try handle.string("shortName")
    typeOfLevel = try handle.string("typeOfLevel")
    level = try handle.optionalDouble("level") ?? 0
    referenceTime = try Self.referenceTime(handle)
    stepType = try handle.string("stepType")
    // Steps in seconds whatever unit the message counts in (an edition 2 message may count
    // minutes or hours); the handle is this scan's own, the file is not changed.
    try handle.set("stepUnits", "s")
    startStep = Int64(try handle.long("startStep"))
    endStep = Int64(try handle.long("endStep"))
    gridType = try handle.string("gridType")
    ni = try handle.optionalLong("Ni")
    nj = try handle.optionalLong("Nj")
    uvRelativeToGrid = (try handle.optionalLong("resolutionAndComponentFlags") ?? 0) & 8 != 0
    earth = try GRIBEarth(handle)
    bitmapPresent = try handle.long("bitmapPresent") != 0
    numberOfDataPoints = try handle.long("numberOfDataPoints")
    numberOfValues = try handle.long("numberOfValues")
  }

  /// `dataDate` (YYYYMMDD) and `dataTime` (hhmm) as UTC seconds, or an error naming them.
  private static func referenceTime(_ handle: GRIBHandle) throws(GRIBError) -> Int64 {
    let date = try handle.long("dataDate")
    let time = try handle.long("dataTime")
    guard
      let seconds = UTC.seconds(
        year: date / 10_000, month: date / 100 % 100, day: date % 100, hour: time / 100, minute: time % 100)
    else {
      throw GRIBError(
        reason: "dataDate \(date) and dataTime \(time) are not a date (YYYYMMDD) and a time (hhmm)",
        path: handle.path, message: handle.message, key: "dataDate")
    }
    return seconds
  }
}
