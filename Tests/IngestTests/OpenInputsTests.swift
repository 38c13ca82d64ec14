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
    weak var released: NCFile?
    try {
      let overflow = try inputs.file(SampleFiles.mercator)
      #expect(try inputs.file(SampleFiles.mercator) === overflow, "consecutive reads share the file beyond the room")
      released = overflow
    }()
    #expect(released != nil, "the file beyond the room stays open while it is the latest")
    let next = try inputs.file(SampleFiles.tipD1)
    #expect(next.path == SampleFiles.tipD1)
    // Opening the next file beyond the room let go of the previous one, which closed when
    // its last reader was done; the kept one stays open.
    #expect(released == nil, "the previous file beyond the room is still held")
    #expect(try inputs.file(SampleFiles.allvars) === kept)
    #expect(try kept.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]).count == 1)
    #expect(try next.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]).count == 1)
  }

  @Test func aFileBeyondTheRoomStaysReadableWhileAStepReadsIt() throws {
    let inputs = OpenInputs(capacity: 0)
    let reading = try inputs.file(SampleFiles.allvars)
    _ = try inputs.file(SampleFiles.mercator)
    #expect(try reading.readUnpacked("T2", start: [0, 0, 0], count: [1, 1, 1]).count == 1)
  }

  @Test func aFileTheScanKeepsIsTheOneTheReaderReads() throws {
    let inputs = OpenInputs(capacity: 2)
    let scanned = try NCFile.open(SampleFiles.allvars)
    inputs.keep(scanned)
    #expect(try inputs.file(SampleFiles.allvars) === scanned)
  }
}
