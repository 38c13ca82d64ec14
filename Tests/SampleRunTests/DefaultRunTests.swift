import Foundation
import GridGeometry
import NetCDF
import SampleRun
import Testing

/// The default spec end to end: the file set, the WRF metadata and the grid geometry.
@Suite struct DefaultRunTests {
  @Test func defaultSpecWritesA72HourHourlyRunAsWRFOutput() throws {
    let root = Scratch.directory("default")
    defer { Scratch.remove(root) }
    // A missing parent directory is created.
    let directory = root + "/nested/run"
    let paths = try SampleRunGenerator.write(to: directory)

    // 73 files named by their valid time, in time order, and nothing else.
    let expectedNames = (0...72).map { hour in
      let day = 20 + hour / 24
      let clock = hour % 24 < 10 ? "0\(hour % 24)" : "\(hour % 24)"
      return "wrfout_d01_2026-06-\(day)_\(clock):00:00"
    }
    #expect(paths == expectedNames.map { directory + "/" + $0 })
    let listed = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(listed == expectedNames)

    for (hour, path) in paths.enumerated() {
      let records = try WRFRecords(path)
      try checkDimensions(records.file)
      let times = try records.file.readStrings("Times", start: [0, 0], count: [1, 19])
      let expectedTime = String(expectedNames[hour].dropFirst("wrfout_d01_".count))
      #expect(times == [expectedTime])
      #expect(try records.values("XTIME") == [Double(60 * hour)])
      if hour == 0 || hour == 72 {
        try checkAttributes(records.file)
        try checkCoordinates(records)
      }
    }
  }

  private func checkDimensions(_ file: NCFile) throws {
    let dimensions = Dictionary(uniqueKeysWithValues: file.dimensions.map { ($0.name, $0) })
    #expect(dimensions["Time"]?.isUnlimited == true)
    #expect(dimensions["Time"]?.length == 1)
    #expect(dimensions["DateStrLen"]?.length == 19)
    #expect(dimensions["west_east"]?.length == 135)
    #expect(dimensions["south_north"]?.length == 80)
    #expect(dimensions["bottom_top"]?.length == 5)
    #expect(dimensions["bottom_top_stag"]?.length == 6)
    #expect(dimensions["west_east_stag"]?.length == 136)
    #expect(dimensions["south_north_stag"]?.length == 81)

    let surface = ["Time", "south_north", "west_east"]
    let volume = ["Time", "bottom_top", "south_north", "west_east"]
    #expect(try file.variable("Times").dimensions == ["Time", "DateStrLen"])
    #expect(try file.variable("Times").type == .char)
    #expect(try file.variable("XTIME").dimensions == ["Time"])
    for name in [
      "XLAT", "XLONG", "T2", "Q2", "PSFC", "U10", "V10", "RAINC", "RAINNC", "RAINSH", "SNOWNC", "SWDOWN",
      "HGT", "COSALPHA", "SINALPHA", "LANDMASK",
    ] {
      #expect(try file.variable(name).dimensions == surface, "\(name)")
      #expect(try file.variable(name).type == .float, "\(name)")
    }
    for name in ["CLDFRA", "QVAPOR", "QCLOUD", "QRAIN", "QICE", "QSNOW", "P", "PB", "T"] {
      #expect(try file.variable(name).dimensions == volume, "\(name)")
      #expect(try file.variable(name).type == .float, "\(name)")
    }
    // What wind_gusts needs, staggered as WRF's C grid puts it.
    #expect(try file.variable("PBLH").dimensions == surface)
    #expect(try file.variable("U").dimensions == ["Time", "bottom_top", "south_north", "west_east_stag"])
    #expect(try file.variable("V").dimensions == ["Time", "bottom_top", "south_north_stag", "west_east"])
    for name in ["PH", "PHB"] {
      #expect(try file.variable(name).dimensions == ["Time", "bottom_top_stag", "south_north", "west_east"])
    }
  }

  private func checkAttributes(_ file: NCFile) throws {
    let global = file.globalAttributes
    #expect(global["TITLE"]?.text == " OUTPUT FROM WRF V4.4 MODEL")
    #expect(global["START_DATE"]?.text == "2026-06-20_00:00:00")
    #expect(global["SIMULATION_START_DATE"]?.text == "2026-06-20_00:00:00")
    #expect(global["MMINLU"]?.text == "MODIFIED_IGBP_MODIS_NOAH")
    let integers: [String: Int64] = [
      "WEST-EAST_GRID_DIMENSION": 136, "SOUTH-NORTH_GRID_DIMENSION": 81, "BOTTOM-TOP_GRID_DIMENSION": 6,
      "GRID_ID": 1, "PARENT_ID": 0, "I_PARENT_START": 1, "J_PARENT_START": 1, "PARENT_GRID_RATIO": 1,
      "MAP_PROJ": 1,
    ]
    for (name, value) in integers {
      #expect(global[name] == .integers([value]), "\(name)")
    }
    let reals: [String: Double] = [
      "DX": 9000, "DY": 9000, "CEN_LAT": 39.5, "CEN_LON": -8, "MOAD_CEN_LAT": 39.5, "TRUELAT1": 30,
      "TRUELAT2": 60, "STAND_LON": -8, "POLE_LAT": 90, "POLE_LON": 0, "BUCKET_MM": -1, "DT": 45,
    ]
    for (name, value) in reals {
      // Stored as float, so compare at float precision.
      #expect(global[name] == .reals([Double(Float(value))]), "\(name)")
    }

    let xtime = try file.variable("XTIME").attributes
    #expect(xtime["units"]?.text == "minutes since 2026-06-20 00:00:00")
    #expect(xtime["description"]?.text == "minutes since 2026-06-20 00:00:00")
    for (name, variable) in file.variables where name != "Times" && name != "XTIME" {
      let attributes = variable.attributes
      #expect(attributes["FieldType"] == .integers([104]), "\(name)")
      #expect(attributes["MemoryOrder"]?.text == (variable.shape.count == 4 ? "XYZ" : "XY "), "\(name)")
      // WRF marks the staggered dimension: U on X, V on Y, geopotential on Z.
      let stagger = ["U": "X", "V": "Y", "PH": "Z", "PHB": "Z"][name] ?? ""
      #expect(attributes["stagger"]?.text == stagger, "\(name)")
      #expect(attributes["description"]?.text?.isEmpty == false, "\(name)")
      #expect(attributes["units"] != nil, "\(name)")
      let coordinates = name == "XLAT" || name == "XLONG" ? "XLONG XLAT" : "XLONG XLAT XTIME"
      #expect(attributes["coordinates"]?.text == coordinates, "\(name)")
    }
    #expect(try file.variable("T2").attributes["units"]?.text == "K")
    #expect(try file.variable("RAINNC").attributes["units"]?.text == "mm")
  }

  /// Every mass point sits exactly on the 9 km Lambert grid centred on CEN_LAT/CEN_LON.
  private func checkCoordinates(_ records: WRFRecords) throws {
    let latitudes = try records.values("XLAT")
    let longitudes = try records.values("XLONG")
    let projection = LambertConformal(truelat1: 30, truelat2: 60, standardLongitude: -8)
    let centre = projection.project(latitude: 39.5, longitude: -8)
    var worst = 0.0
    for j in 0..<80 {
      for i in 0..<135 {
        let cell = j * 135 + i
        let point = projection.project(latitude: latitudes[cell], longitude: longitudes[cell])
        let expectedX = centre.x + (Double(i) - 67) * 9000
        let expectedY = centre.y + (Double(j) - 39.5) * 9000
        worst = max(worst, abs(point.x - expectedX), abs(point.y - expectedY))
      }
    }
    #expect(worst < 1, "worst mass-point error \(worst) m")
    // 135 columns put column 67 on the centre; 80 rows put it between rows 39 and 40.
    let middleLatitude = (latitudes[39 * 135 + 67] + latitudes[40 * 135 + 67]) / 2
    let middleLongitude = (longitudes[39 * 135 + 67] + longitudes[40 * 135 + 67]) / 2
    #expect(abs(middleLatitude - 39.5) < 0.01)
    #expect(abs(middleLongitude + 8) < 0.01)
    #expect(try records.values("COSALPHA").allSatisfy { $0 > 0.99 })
  }
}
