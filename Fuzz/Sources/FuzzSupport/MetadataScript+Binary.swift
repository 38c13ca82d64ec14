import Foundation

/// The binary form of a metadata script: each change picks, by one byte each, what to
/// change in the template and what to set it to, out of lists of the attributes, times and
/// coordinates ingest reads and the values that break naive arithmetic. A mutation of one
/// byte is then one meaningful change, which the text form needs luck for. It decodes to
/// text lines, so a finding reads like any script (`NWPCUBE_FUZZ_VERBOSE=1` prints it).
///
/// Layout: a template byte (mod 3), then changes of an operation byte (mod 8: 0 removes
/// the target, anything else sets it), a target byte, a value byte and 8 payload bytes.
extension MetadataScript {
  /// What a change can aim at, per template: `:NAME` (global attribute), `VAR:NAME`,
  /// `VAR[k]` (k a payload byte), `VAR[*]`, or a variable (removing only).
  static let targets: [String: [String]] = [
    "wrf": [
      ":GRID_ID", ":SIMULATION_START_DATE", ":START_DATE", ":TITLE", ":MAP_PROJ", ":TRUELAT1", ":TRUELAT2",
      ":STAND_LON", ":CEN_LAT", ":CEN_LON", ":POLE_LAT", ":POLE_LON", ":DX", ":DY", ":BUCKET_MM", "Times[k]",
      "Times[*]", "XTIME[k]", "XTIME:units", "XTIME:description", "XLAT[k]", "XLONG[k]", "XLAT[*]", "XLONG[*]",
      "T2[k]", "PSFC[k]", "U10[*]", "COSALPHA[*]", "SINALPHA[k]", "RAINC[k]", "HGT[k]", "COSALPHA", "XTIME",
      "CLDFRA", "RAINNC", "Times",
      // Field values, for the plausibility screen and the derivations behind it (appended,
      // so that the committed binary seeds keep their meaning).
      "Q2[k]", "Q2[*]", "PSFC[*]", "T2[*]", "V10[k]", "U10[k]", "SWDOWN[k]", "RAINNC[k]", "SNOWNC[k]",
      "CLDFRA[k]", "QCLOUD[k]", "QRAIN[k]", "QICE[k]", "QSNOW[k]", "QVAPOR[k]", "P[k]", "PB[k]", "T[k]",
    ],
    "cf": [
      "time:units", "time[k]", "time[*]", "time:standard_name", "time:calendar", "forecast_reference_time[k]",
      "forecast_reference_time:units", "lat[k]", "lon[k]", "lat[*]", "lon[*]", "lat:units", "lon:units",
      "msl:scale_factor", "msl:add_offset", "msl:_FillValue", "msl[k]", "t2m:units", "t2m[k]", "tp:units",
      "u10:standard_name", "forecast_reference_time", "lat", "time",
    ],
    "mm5": [
      "time:units", "time[k]", "time[*]", "map_proj_code[k]", "stdlat_1[k]", "stdlat_2[k]", "stdlon[k]", "grid_ds[k]",
      "ptop[k]", "latitcrs[k]", "longicrs[k]", "latitcrs[*]", "longicrs[*]", "rain_con:units", "rain_con[k]",
      "pstarcrs[k]", "t2[*]", "map_proj_code", "pp", "time",
    ],
  ]

  /// Values that have crashed or could crash naive arithmetic, then generated ones.
  static let specialValues = [
    "nan", "inf", "-inf", "0", "-1", "1", "-5", "99", "100", "1e300", "-1e300", "1e16", "-1e16", "9.3e18",
    "9223372036854775807", "-9223372036854775808", "2147483648", "1e-300", "90.000001", "-90", "180", "360", "-0",
    "\"\"",
  ]
  static let units = ["seconds", "minutes", "hours", "days", "Hour", "weeks", "s"]

  init(binary bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    let template = Self.templateNames[Int(input.byte()) % Self.templateNames.count]
    let targets = Self.targets[template] ?? []
    var lines: [Substring] = []
    while input.remaining > 0, lines.count < Self.maximumLines {
      let operation = input.byte() % 8
      var target = targets[Int(input.byte()) % targets.count]
      let valueKind = Int(input.byte())
      var payload = FuzzBytes((0..<8).map { _ in input.byte() })
      target = target.replacingOccurrences(of: "[k]", with: "[\(payload.byte())]")
      if operation == 0 {
        lines.append("-\(target)"[...])
        continue
      }
      guard target.hasPrefix(":") || target.contains(":") || target.contains("[") else { continue }
      lines.append("\(target)=\(Self.value(valueKind, &payload))"[...])
    }
    self.init(template: template, changes: lines)
  }

  static let templateNames = MetadataTemplates.names

  /// A value: a special number, a generated date or time unit, a raw double or short text.
  static func value(_ kind: Int, _ payload: inout FuzzBytes) -> String {
    if kind < specialValues.count * 4 { return specialValues[kind % specialValues.count] }
    let year = Int(payload.uint16()) % 10_000
    let (month, day, hour) = (Int(payload.byte()) % 14, Int(payload.byte()) % 33, Int(payload.byte()) % 25)
    let date = String(format: "%04d-%02d-%02d", year, month, day)
    switch kind % 4 {
    case 0: return "\"\(date)_\(String(format: "%02d", hour)):00:00\""
    case 1: return "\"\(units[Int(payload.byte()) % units.count]) since \(date) \(String(format: "%02d", hour)):00:00\""
    case 2: return "\(Double(bitPattern: UInt64(year) << 48 | UInt64(month) << 40 | UInt64(day) << 32))"
    default: return "\(Int64(Int16(bitPattern: UInt16(year))) * Int64(hour + 1))"
    }
  }
}
