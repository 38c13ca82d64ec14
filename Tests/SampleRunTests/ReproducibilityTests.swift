import Foundation
import NetCDF
import SampleRun
import Testing

/// The generator as a function: same spec, same bytes; one file or many, same content.
@Suite struct ReproducibilityTests {
  private func shortSpec(hours: Int) -> SampleRunSpec {
    var spec = SampleRunSpec.portugal9km
    spec.hours = hours
    return spec
  }

  @Test func twoGenerationsAreByteIdentical() throws {
    let directory = Scratch.directory("twice")
    defer { Scratch.remove(directory) }
    let first = try SampleRunGenerator.write(shortSpec(hours: 1), to: directory + "/a")
    let second = try SampleRunGenerator.write(shortSpec(hours: 1), to: directory + "/b")
    #expect(first.count == 2 && second.count == 2)
    for (a, b) in zip(first, second) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: a))
      #expect(bytes.count > 1_000_000)
      #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: b))), "\(a) and \(b) differ")
    }
    try SampleRunGenerator.writeSingleFile(shortSpec(hours: 1), to: directory + "/one.nc")
    try SampleRunGenerator.writeSingleFile(shortSpec(hours: 1), to: directory + "/two.nc")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: directory + "/one.nc"))
        == Data(contentsOf: URL(fileURLWithPath: directory + "/two.nc")))
  }

  @Test func anotherSeedGivesOtherWeatherOnTheSameGrid() throws {
    let directory = Scratch.directory("seed")
    defer { Scratch.remove(directory) }
    var spec = shortSpec(hours: 0)
    try SampleRunGenerator.writeSingleFile(spec, to: directory + "-a.nc")
    spec.seed &+= 1
    try SampleRunGenerator.writeSingleFile(spec, to: directory + "-b.nc")
    defer {
      Scratch.remove(directory + "-a.nc")
      Scratch.remove(directory + "-b.nc")
    }
    let a = try WRFRecords(directory + "-a.nc")
    let b = try WRFRecords(directory + "-b.nc")
    #expect(try a.values("XLAT") == b.values("XLAT"))
    #expect(try a.values("LANDMASK") == b.values("LANDMASK"))
    #expect(try a.values("T2") != b.values("T2"))
    #expect(try a.values("U10") != b.values("U10"))
  }

  @Test func oneFileRunHoldsTheSameRecordsAsAFilePerStepRun() throws {
    let directory = Scratch.directory("single")
    defer { Scratch.remove(directory) }
    let spec = shortSpec(hours: 2)
    let paths = try SampleRunGenerator.write(spec, to: directory + "/steps")
    #expect(paths.count == 3)
    try SampleRunGenerator.writeSingleFile(spec, to: directory + "/all.nc")
    let single = try WRFRecords(directory + "/all.nc")
    #expect(single.recordCount == paths.count)
    #expect(single.file.dimension("Time")?.isUnlimited == true)
    #expect(single.file.globalAttributes == (try WRFRecords(paths[0]).file.globalAttributes))
    let times = try single.file.readStrings("Times", start: [0, 0], count: [paths.count, 19])
    for (record, path) in paths.enumerated() {
      let step = try WRFRecords(path)
      #expect(try step.file.readStrings("Times", start: [0, 0], count: [1, 19]) == [times[record]])
      #expect(path.hasSuffix("wrfout_d01_" + times[record]))
      for (name, variable) in step.file.variables where name != "Times" {
        #expect(single.file.variables[name]?.attributes == variable.attributes, "\(name) attributes")
        #expect(try single.values(name, record: record) == step.values(name), "\(name) at record \(record)")
      }
    }
  }
}
