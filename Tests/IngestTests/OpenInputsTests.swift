import NetCDF
import Testing
import _TestSupport

@testable import Ingest

/// The files an ingest keeps open: each opened once while there is room, and beyond it one
/// at a time, so that a run of thousands of files never runs out of descriptors.
@Suite struct OpenInputsTests {
  @Test func filesBeyondTheCapacityAreOpenedOneAtATime() throws {
    let inputs = OpenInputs(capacity: 1)
    let kept = try inputs.file(SampleFiles.allvars)
    #expect(try inputs.file(SampleFiles.allvars) === kept, "a kept file is not opened again")
    let overflow = try inputs.file(SampleFiles.mercator)
    #expect(try inputs.file(SampleFiles.mercator) === overflow, "consecutive reads share the file beyond the room")
    let next = try inputs.file(SampleFiles.tipD1)
    #expect(next !== overflow)
    // The previous file beyond the room was closed when the next was opened; the kept one
    // stays open.
    #expect(throws: NCError.self) { _ = try overflow.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]) }
    #expect(try inputs.file(SampleFiles.allvars) === kept)
    #expect(try kept.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]).count == 1)
    #expect(try next.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]).count == 1)
  }

  @Test func aFileTheScanKeepsIsTheOneTheReaderReads() throws {
    let inputs = OpenInputs(capacity: 2)
    let scanned = try NCFile.open(SampleFiles.allvars)
    inputs.keep(scanned)
    #expect(try inputs.file(SampleFiles.allvars) === scanned)
  }
}
