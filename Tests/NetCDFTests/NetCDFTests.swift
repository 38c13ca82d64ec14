import Foundation
import NetCDF
import Synchronization
import Testing
import _TestSupport

/// A small file with one variable of each type the wrapper reads, written through libnetcdf.
private func writeFixture(_ path: String, format: NCFormat) throws {
  let file = try NCFile.create(path, format: format)
  defer { file.close() }
  try file.defineDimension("time", length: nil)
  try file.defineDimension("x", length: 4)
  try file.defineDimension("len", length: 5)
  try file.defineVariable("packed", type: .short, dimensions: ["time", "x"])
  try file.setAttribute("scale_factor", .reals([0.01]), on: "packed", type: .float)
  try file.setAttribute("add_offset", .reals([273.15]), on: "packed", type: .float)
  try file.setAttribute("_FillValue", .integers([-32767]), on: "packed", type: .short)
  try file.setAttribute("missing_value", .integers([-32766]), on: "packed", type: .short)
  try file.defineVariable("ranged", type: .float, dimensions: ["x"])
  try file.setAttribute("valid_range", .reals([0, 100]), on: "ranged", type: .float)
  try file.defineVariable("counts", type: .int, dimensions: ["x"])
  try file.defineVariable("flags", type: .byte, dimensions: ["x"])
  try file.defineVariable("names", type: .char, dimensions: ["x", "len"])
  try file.setAttribute("title", .text("fixture"))
  try file.endDefinitions()
  try file.write("packed", start: [0, 0], count: [2, 4], [0, 100, -32767, -32766, 5, -5, 32000, 1] as [Int16])
  try file.write("ranged", start: [0], count: [4], [-1, 0, 50, 101] as [Float])
  try file.write("counts", start: [0], count: [4], [1, -2, 3, 2_000_000_000] as [Double])
  try file.write("flags", start: [0], count: [4], [1, -1, 0, 127] as [Double])
  try file.writeStrings("names", start: [0, 0], count: [4, 5], ["T2", "Q2", "PSFC", "U10"])
}

@Suite struct NetCDFTests {
  @Test(arguments: [NCFormat.netcdf4, .classic64BitOffset])
  func typedReadsAndCFUnpackingGiveTheWrittenValues(format: NCFormat) throws {
    let directory = SampleFiles.temporaryDirectory("netcdf")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/fixture.nc"
    try writeFixture(path, format: format)
    let file = try NCFile.open(path)
    defer { file.close() }
    #expect(file.globalAttributes["title"] == .text("fixture"))
    let time = try #require(file.dimension("time"))
    #expect(time.length == 2 && time.isUnlimited)
    #expect(try file.variable("packed").dimensions == ["time", "x"])
    #expect(try file.readShorts("packed", start: [1, 0], count: [1, 4]) == [5, -5, 32000, 1])
    #expect(try file.readInts("counts", start: [0], count: [4]) == [1, -2, 3, 2_000_000_000])
    #expect(try file.readBytes("flags", start: [0], count: [4]) == [1, -1, 0, 127])
    #expect(try file.readFloats("ranged", start: [1], count: [2]) == [0, 50])
    #expect(try file.readStrings("names", start: [1, 0], count: [3, 5]) == ["Q2", "PSFC", "U10"])

    // raw · scale_factor + add_offset; _FillValue and missing_value become NaN.
    let unpacked = try file.readUnpacked("packed")
    let expected: [Double?] = [273.15, 274.15, nil, nil, 273.2, 273.1, 593.15, 273.16]
    for (value, want) in zip(unpacked, expected) {
      if let want {
        #expect(abs(value - want) < 1e-4)
      } else {
        #expect(value.isNaN)
      }
    }
    // Outside valid_range is missing too.
    let ranged = try file.readUnpacked("ranged")
    #expect(ranged[0].isNaN && ranged[1] == 0 && ranged[2] == 50 && ranged[3].isNaN)
  }

  @Test func errorsNameTheFileTheVariableAndLibnetcdfsReason() throws {
    let missing = #expect(throws: NCError.self) { try NCFile.open("/nonexistent/wrfout_d01") }
    #expect(missing?.description.hasPrefix("/nonexistent/wrfout_d01: nc_open: No such file or directory") == true)

    let directory = SampleFiles.temporaryDirectory("netcdf-errors")
    defer { SampleFiles.remove(directory) }
    let text = "\(directory)/plain.txt"
    try "just text".write(toFile: text, atomically: true, encoding: .utf8)
    let notNetCDF = #expect(throws: NCError.self) { try NCFile.open(text) }
    #expect(notNetCDF?.description == "\(text): nc_open: NetCDF: Unknown file format")

    let file = try NCFile.open(SampleFiles.allvars)
    defer { file.close() }
    let noVariable = #expect(throws: NCError.self) { try file.readRaw("T3", start: [0], count: [1]) }
    #expect(noVariable?.description == "\(SampleFiles.allvars): T3: no such variable")
    let outOfBounds = #expect(throws: NCError.self) {
      try file.readRaw("T2", start: [3, 0, 0], count: [2, 8, 10])
    }
    #expect(outOfBounds?.description == "\(SampleFiles.allvars): T2: slab 3..<5 exceeds dimension Time of length 4")
    let wrongRank = #expect(throws: NCError.self) { try file.readRaw("T2", start: [0], count: [1]) }
    #expect(wrongRank?.variable == "T2")
    #expect(throws: NCError.self) { try file.readStrings("T2", start: [0, 0, 0], count: [1, 1, 1]) }
  }

  /// A thread-safe HDF5 keeps its error printing per thread, and libnetcdf turns it off
  /// only on the thread that starts it: opening a NetCDF-4 file on any other thread printed
  /// HDF5's stack for each attribute libnetcdf probes and does not find, dozens of lines a
  /// file. In a child process, whose standard error is observed: the first open starts
  /// libnetcdf, and four threads then open and read the file.
  @Test(.timeLimit(.minutes(5)))
  func netCDF4FilesOpenedOnOtherThreadsPrintNoHDF5Diagnostics() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let first = try? NCFile.open(SampleFiles.allvars)
      first?.close()
      let done = DispatchSemaphore(value: 0)
      let failures = Mutex(0)
      for _ in 0..<4 {
        Thread.detachNewThread {
          do {
            let file = try NCFile.open(SampleFiles.allvars)
            _ = try file.readUnpacked("T2", start: [0, 0, 0], count: [1, 8, 10])
            file.close()
          } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            failures.withLock { $0 += 1 }
          }
          done.signal()
        }
      }
      for _ in 0..<4 { done.wait() }
      exit(first == nil || failures.withLock { $0 } > 0 ? 1 : 0)
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(!output.contains("HDF5-DIAG"), "\(output.prefix(1_000))")
  }

  @Test func aRealWRFFileReadsIdenticallyInBothFormats() throws {
    let modern = try NCFile.open(SampleFiles.allvars)
    let classic = try NCFile.open(SampleFiles.allvarsCDF2)
    defer {
      modern.close()
      classic.close()
    }
    #expect(Set(modern.variables.keys) == Set(classic.variables.keys))
    for name in ["T2", "XLAT", "CLDFRA", "RAINNC"] {
      let shape = try modern.variable(name).shape
      let start = Array(repeating: 0, count: shape.count)
      #expect(
        try modern.readRaw(name, start: start, count: shape) == (try classic.readRaw(name, start: start, count: shape)))
    }
    #expect(try modern.readStrings("Times", start: [0, 0], count: [4, 19])[3] == "2005-09-21_09:00:00")
    #expect(modern.globalAttributes["MAP_PROJ"] == .integers([1]))
    #expect(modern.globalAttributes["DX"]?.number == 30_000)
  }
}
