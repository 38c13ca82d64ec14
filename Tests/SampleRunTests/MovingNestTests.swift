import Foundation
import NetCDF
import SampleRun
import Testing

/// The moving nest (`d02`) of `sample-run --nest moving`, checked against its parent's
/// own files and WRF's nesting rule rather than against the generator's arithmetic.
@Suite struct MovingNestTests {
  /// Nine hours: the coastal storm's nest moves at 2, 3, 5 and 6 h (back where it was at
  /// 3 h) and 9 h, and stays put in between.
  private func spec(hours: Int = 9) -> SampleRunSpec {
    var spec = SampleRunSpec.portugal9km
    spec.hours = hours
    spec.nest = .coastalStorm
    return spec
  }

  @Test func theNestsCellsSitOnItsParentsCellsWhereWRFsRatioPutsThemAtEveryStep() throws {
    let directory = Scratch.directory("nest-geometry")
    defer { Scratch.remove(directory) }
    let spec = spec()
    let paths = try SampleRunGenerator.write(spec, to: directory)
    let nest = SampleNest.coastalStorm
    let d01 = paths.filter { $0.contains("wrfout_d01_") }
    let d02 = paths.filter { $0.contains("wrfout_d02_") }
    #expect(d01.count == 10 && d02.count == 10)
    #expect(d02.map { String($0.suffix(19)) } == d01.map { String($0.suffix(19)) })

    let parent = try WRFRecords(d01[0])
    let (parentLatitudes, parentLongitudes) = (try parent.values("XLAT"), try parent.values("XLONG"))
    let starts = nest.parentStarts(spec)
    #expect(Set(starts.map { "\($0.i),\($0.j)" }).count == 5, "five positions in nine hours: \(starts)")
    for (step, path) in d02.enumerated() {
      let records = try WRFRecords(path)
      #expect(records.file.dimension("west_east")?.length == nest.westEast)
      #expect(records.file.dimension("south_north")?.length == nest.southNorth)
      #expect(records.number("GRID_ID") == 2)
      #expect(records.number("PARENT_ID") == 1)
      #expect(records.number("PARENT_GRID_RATIO") == 3)
      #expect(records.number("I_PARENT_START") == Double(nest.iParentStart))
      #expect(records.number("J_PARENT_START") == Double(nest.jParentStart))
      #expect(records.number("DX") == 3000)
      for name in ["MAP_PROJ", "TRUELAT1", "TRUELAT2", "STAND_LON"] {
        #expect(records.number(name) == parent.number(name), "\(name)")
      }
      #expect(try records.file.variable("XLAT").dimensions == ["Time", "south_north", "west_east"])
      let (latitudes, longitudes) = (try records.values("XLAT"), try records.values("XLONG"))
      // With an odd ratio, nest mass point 1 + 3k (0-based) lies on parent mass point
      // I_PARENT_START − 1 + k (0-based), the same along rows.
      let start = starts[step]
      for j in stride(from: 1, to: nest.southNorth, by: 3) {
        for i in stride(from: 1, to: nest.westEast, by: 3) {
          let parentCell = (start.j - 1 + j / 3) * 135 + start.i - 1 + i / 3
          let cell = j * nest.westEast + i
          #expect(abs(latitudes[cell] - parentLatitudes[parentCell]) < 1e-4, "step \(step) cell (\(i), \(j))")
          #expect(abs(longitudes[cell] - parentLongitudes[parentCell]) < 1e-4, "step \(step) cell (\(i), \(j))")
        }
      }
    }
  }

  /// Rain accumulates by place: wherever two steps cover the same place (identical
  /// coordinates), the later accumulation is at least the earlier, and somewhere it rains
  /// on a place covered by different cells at the two steps.
  @Test func rainAccumulatesByPlaceAcrossTheNestsMoves() throws {
    let directory = Scratch.directory("nest-rain")
    defer { Scratch.remove(directory) }
    let spec = spec(hours: 24)
    let d02 = try SampleRunGenerator.write(spec, to: directory).filter { $0.contains("wrfout_d02_") }
    var earlier: [String: (cell: Int, rain: Double)] = [:]
    var movedAndWet = 0
    for path in d02 {
      let records = try WRFRecords(path)
      let (latitudes, longitudes) = (try records.values("XLAT"), try records.values("XLONG"))
      let (rainc, rainnc, rainsh) = (
        try records.values("RAINC"), try records.values("RAINNC"), try records.values("RAINSH")
      )
      var now: [String: (cell: Int, rain: Double)] = [:]
      for cell in latitudes.indices {
        let place = "\(latitudes[cell]),\(longitudes[cell])"
        let rain = rainc[cell] + rainnc[cell] + rainsh[cell]
        now[place] = (cell, rain)
        guard let before = earlier[place] else { continue }
        #expect(rain >= before.rain, "\(path) cell \(cell): \(rain) after \(before.rain)")
        // The same place in another cell: the nest moved, and its rain went with it.
        if before.cell != cell, before.rain > 0 { movedAndWet += 1 }
      }
      earlier = now
    }
    #expect(movedAndWet > 0, "no move happened over wet places")
  }

  @Test func aNestThatWouldLeaveItsParentIsRefusedNamingTheStep() {
    var spec = spec()
    // Between the moves at 3 h and 5 h.
    spec.nest?.moves.insert(SampleNest.Move(hours: 4, east: 0, north: 60), at: 2)
    #expect(throws: SampleRunError.self) { try SampleRunGenerator.write(spec, to: Scratch.directory("nest-out")) }
    do {
      _ = try SampleRunGenerator.write(spec, to: Scratch.directory("nest-out"))
    } catch {
      #expect("\(error)".contains("at step 4 the nest"), "\(error)")
    }
  }
}
