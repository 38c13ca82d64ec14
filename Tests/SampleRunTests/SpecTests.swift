import Foundation
import GridGeometry
import NetCDF
import SampleRun
import Testing

/// Specs other than the default: small grids, other clocks, other projections, and
/// specs that must be refused.
@Suite struct SpecTests {
  /// A small grid, so that only the file headers cost anything.
  private func smallSpec() -> SampleRunSpec {
    var spec = SampleRunSpec.portugal9km
    spec.westEast = 41
    spec.southNorth = 31
    spec.levels = 3
    spec.hours = 3
    return spec
  }

  @Test func defaultSpecIsThePortugalRun() {
    let spec = SampleRunSpec.portugal9km
    #expect(spec == SampleRunSpec())
    #expect((spec.westEast, spec.southNorth, spec.levels, spec.dx) == (135, 80, 5, 9000))
    #expect((spec.centreLatitude, spec.centreLongitude) == (39.5, -8))
    #expect((spec.truelat1, spec.truelat2, spec.standardLongitude) == (30, 60, -8))
    #expect((spec.runStart, spec.hours, spec.stepMinutes) == ("2026-06-20_00:00:00", 72, 60))
    #expect(spec.format == .classic64BitOffset)
    #expect(spec.stepCount == 73)
    var odd = spec
    odd.stepMinutes = 0
    #expect(odd.stepCount == 0)
    odd.stepMinutes = 60
    odd.hours = .max
    #expect(odd.stepCount == 0)
  }

  @Test func fileNamesFollowTheClockAcrossTheYearEnd() throws {
    let directory = Scratch.directory("newyear")
    defer { Scratch.remove(directory) }
    var spec = smallSpec()
    spec.runStart = "2026-12-31_22:30:00"
    spec.hours = 2
    spec.stepMinutes = 50
    let paths = try SampleRunGenerator.write(spec, to: directory)
    let names = paths.map { String($0.dropFirst(directory.count + 1)) }
    #expect(
      names == [
        "wrfout_d01_2026-12-31_22:30:00", "wrfout_d01_2026-12-31_23:20:00", "wrfout_d01_2027-01-01_00:10:00",
      ])
    let last = try WRFRecords(paths[2])
    #expect(try last.values("XTIME") == [100])
    #expect(last.file.globalAttributes["START_DATE"]?.text == "2026-12-31_22:30:00")
    #expect(try last.file.variable("XTIME").attributes["units"]?.text == "minutes since 2026-12-31 22:30:00")
    #expect(try last.file.variable("T").shape == [1, 3, 31, 41])
    // The run starts at night in winter: no sun anywhere.
    #expect(try last.values("SWDOWN").allSatisfy { $0 == 0 })
  }

  /// Ways to spoil a spec.
  enum Spoiler: CaseIterable, Sendable {
    case tinyGrid, noLevels, zeroSpacing, zeroStep, negativeHours, impossibleDate, unseparatedDate
    case mixedHemispheres

    func apply(to spec: inout SampleRunSpec) {
      switch self {
      case .tinyGrid: spec.westEast = 1
      case .noLevels: spec.levels = 0
      case .zeroSpacing: spec.dx = 0
      case .zeroStep: spec.stepMinutes = 0
      case .negativeHours: spec.hours = -1
      case .impossibleDate: spec.runStart = "2026-02-30_00:00:00"
      case .unseparatedDate: spec.runStart = "2026-06-20 00:00:00"
      case .mixedHemispheres: spec.truelat1 = -30
      }
    }
  }

  @Test(arguments: Spoiler.allCases)
  func unusableSpecsAreRefused(spoiler: Spoiler) throws {
    let directory = Scratch.directory("invalid")
    defer { Scratch.remove(directory) }
    var spec = smallSpec()
    spoiler.apply(to: &spec)
    #expect(throws: SampleRunError.self) { try SampleRunGenerator.write(spec, to: directory) }
    #expect(throws: SampleRunError.self) { try SampleRunGenerator.writeSingleFile(spec, to: directory + ".nc") }
    #expect(!FileManager.default.fileExists(atPath: directory), "nothing is written for \(spoiler)")
    #expect(!FileManager.default.fileExists(atPath: directory + ".nc"), "nothing is written for \(spoiler)")
  }

  @Test func netCDF4RunsHoldTheSameFields() throws {
    let directory = Scratch.directory("netcdf4")
    defer { Scratch.remove(directory) }
    var spec = smallSpec()
    spec.hours = 1
    let classic = try SampleRunGenerator.write(spec, to: directory + "/classic")
    spec.format = .netcdf4
    let hdf5 = try SampleRunGenerator.write(spec, to: directory + "/hdf5")
    #expect(hdf5.map { $0.replacingOccurrences(of: "/hdf5/", with: "/classic/") } == classic)
    let a = try WRFRecords(classic[1])
    let b = try WRFRecords(hdf5[1])
    #expect(b.file.dimension("Time")?.isUnlimited == true)
    #expect(
      try a.file.readStrings("Times", start: [0, 0], count: [1, 19])
        == b.file.readStrings("Times", start: [0, 0], count: [1, 19]))
    for name in ["XTIME", "T2", "RAINNC", "QVAPOR", "U10"] {
      #expect(try a.values(name) == b.values(name), "\(name)")
    }
  }

  @Test func anUnwritableDirectoryIsReported() throws {
    let file = Scratch.directory("blocker")
    defer { Scratch.remove(file) }
    #expect(FileManager.default.createFile(atPath: file, contents: Data()))
    #expect(throws: SampleRunError.self) { try SampleRunGenerator.write(smallSpec(), to: file + "/run") }
  }

  /// The stored rotation is the map's: stepping one cell along grid north moves towards
  /// true north turned by α, measured here from XLAT/XLONG alone.
  @Test func storedRotationMatchesTheGridItself() throws {
    let directory = Scratch.directory("rotation")
    defer { Scratch.remove(directory) }
    var spec = smallSpec()
    spec.hours = 0
    spec.westEast = 121
    spec.standardLongitude = 0
    let records = try WRFRecords(try SampleRunGenerator.write(spec, to: directory)[0])
    let latitudes = try records.values("XLAT")
    let longitudes = try records.values("XLONG")
    let cosines = try records.values("COSALPHA")
    let sines = try records.values("SINALPHA")
    // Far from the standard longitude, so the rotation is several degrees.
    #expect((sines.max() ?? 0) > 0.09)
    var worst = 0.0
    for j in 1..<(spec.southNorth - 1) {
      for i in 0..<spec.westEast {
        let (south, north) = ((j - 1) * spec.westEast + i, (j + 1) * spec.westEast + i)
        let cell = j * spec.westEast + i
        let east = (longitudes[north] - longitudes[south]) * cos(latitudes[cell] * .pi / 180)
        let up = latitudes[north] - latitudes[south]
        let length = (east * east + up * up).squareRoot()
        worst = max(worst, abs(-sines[cell] - east / length), abs(cosines[cell] - up / length))
      }
    }
    #expect(worst < 1e-3, "worst mismatch \(worst)")
  }

  /// Weather is defined on the Earth, so the same place must get the same earth-relative
  /// wind whichever way the grid is turned; writing U10/V10 with the wrong rotation would
  /// turn the two apart by twice the grid's turn (about 28° here).
  @Test func earthRelativeWindDoesNotDependOnTheProjection() throws {
    let directory = Scratch.directory("turned")
    defer { Scratch.remove(directory) }
    var spec = smallSpec()
    spec.hours = 12
    spec.stepMinutes = 180
    try SampleRunGenerator.writeSingleFile(spec, to: directory + "-straight.nc")
    spec.standardLongitude = 12
    try SampleRunGenerator.writeSingleFile(spec, to: directory + "-turned.nc")
    defer {
      Scratch.remove(directory + "-straight.nc")
      Scratch.remove(directory + "-turned.nc")
    }
    let straight = try WRFRecords(directory + "-straight.nc")
    let turned = try WRFRecords(directory + "-turned.nc")
    let centre = 15 * 41 + 20
    #expect(abs(try turned.values("XLAT")[centre] - 39.5) < 1e-4)
    #expect(abs(try turned.values("XLONG")[centre] + 8) < 1e-4)
    #expect(abs(try turned.values("SINALPHA")[centre] - sin(14.3 * .pi / 180)) < 0.01)
    func earthWind(_ records: WRFRecords, _ record: Int) throws -> (Double, Double) {
      let u = try records.values("U10", record: record)[centre]
      let v = try records.values("V10", record: record)[centre]
      let c = try records.values("COSALPHA")[centre]
      let s = try records.values("SINALPHA")[centre]
      return (u * c - v * s, u * s + v * c)
    }
    for record in 0..<straight.recordCount {
      let a = try earthWind(straight, record)
      let b = try earthWind(turned, record)
      let speed = (a.0 * a.0 + a.1 * a.1).squareRoot()
      let difference = ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
      #expect(speed > 1)
      #expect(difference < 0.1 * speed, "record \(record): \(a) against \(b)")
    }
  }
}
