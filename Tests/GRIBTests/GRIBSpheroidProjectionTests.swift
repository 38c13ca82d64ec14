import Foundation
import GRIB
import Testing
import _TestSupport

/// The fuzzer's findings on ZAMG's oblate Lambert sample: parameters on which ecCodes 2.28's
/// ellipsoidal iterator frees its arrays twice (its own `grib_get_data` dies of a
/// segmentation fault on each). The reader places oblate grids with its own formulas and
/// never calls that iterator; it must still refuse these parameters by name, since they
/// describe no projection.
@Suite struct GRIBSpheroidProjectionTests {
  /// The grib_file fuzz target's finding: ZAMG's oblate Lambert sample with 24 bytes
  /// changed (offset, new byte), which make its true latitudes 1734° and 1936° and LoV 3420°.
  static let trueLatitudes: [(offset: Int, byte: UInt8)] = [
    (87, 0o163), (88, 0o313), (89, 0o340), (90, 0o0), (102, 0o147), (103, 0o141), (104, 0o165), (105, 0o163),
    (106, 0o163), (107, 0o151), (108, 0o141), (109, 0o156), (110, 0o137), (111, 0o162), (112, 0o145),
    (113, 0o144), (114, 0o165), (115, 0o143), (116, 0o145), (117, 0o144), (139, 0o0), (140, 0o4), (141, 0o112),
    (142, 0o2),
  ]
  /// Its second: one byte changed, which makes LaD 567.6°. The spherical formulas do not
  /// read LaD; ecCodes' ellipsoidal Lambert takes its origin's latitude from it.
  static let latitudeOfOrigin: [(offset: Int, byte: UInt8)] = [(84, 0o41)]
  /// A later finding: one byte changed, which makes the second true latitude 116.1° while
  /// the first stays 46°; the spherical formulas took it, and ecCodes' iterator freed twice.
  static let secondTrueLatitude: [(offset: Int, byte: UInt8)] = [(106, 0o6)]
  /// Its third: three bytes that make the major axis's scale factor missing and its value
  /// 4.29e9 m.
  static let majorAxis: [(offset: Int, byte: UInt8)] = [(57, 0o377), (58, 0o377), (59, 0o222)]

  /// The sample with `mutation`, written to a fresh file.
  static func mutatedFile(_ mutation: [(offset: Int, byte: UInt8)]) throws -> String {
    var bytes = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: ECCodesTools.sample("no-radius-shapeOfEarth-7.grb2"))))
    for (offset, byte) in mutation { bytes[offset] = byte }
    let path = SampleFiles.temporaryDirectory("grib-spheroid") + "/lambert.grb2"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// In the child process of an exit test: reads the grid of the sample with `mutation`
  /// and returns its exit status: 0 when the grid is an error of message 1 naming `key`
  /// whose reason passes `reason`, 3 when the file cannot be made or read, 4 when the grid
  /// is read, 5 for an error naming something else.
  static func gridRefusal(
    _ mutation: [(offset: Int, byte: UInt8)], key: String, reason: (String) -> Bool
  ) -> Int32 {
    guard let path = try? mutatedFile(mutation), let file = try? GRIBFile(path: path),
      let message = file.messages.first
    else { return 3 }
    do {
      _ = try file.grid(of: message)
      return 4
    } catch {
      return error.message == 1 && error.key == key && reason(error.reason) ? 0 : 5
    }
  }

  /// In a child process, so that a regression kills the child and not the test run: the
  /// grid is an error naming the message and the key. ecCodes' own tool crashes on the
  /// same file, which shows the input reaches its bug.
  @Test(.timeLimit(.minutes(5)))
  func impossibleTrueLatitudesOnASpheroidAreAnErrorNotACrash() async throws {
    let path = try Self.mutatedFile(Self.trueLatitudes)
    let keys = try ECCodesTools.keys(["Latin1InDegrees"], of: path)
    #expect(keys.first?["Latin1InDegrees"] == "1734.440307", "\(keys)")
    #expect(throws: ECCodesTools.ToolFailure.self) { try ECCodesTools.run("grib_get_data", [path]) }

    let outcome = await #expect(processExitsWith: .success) {
      exit(
        GRIBSpheroidProjectionTests.gridRefusal(GRIBSpheroidProjectionTests.trueLatitudes, key: "Latin1InDegrees") {
          $0.hasSuffix("is not a latitude")
        })
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// The same for an impossible LaD: an error naming `LaDInDegrees`.
  @Test(.timeLimit(.minutes(5)))
  func anImpossibleLatitudeOfOriginOnASpheroidIsAnErrorNotACrash() async throws {
    let path = try Self.mutatedFile(Self.latitudeOfOrigin)
    let keys = try ECCodesTools.keys(["LaDInDegrees"], of: path)
    #expect(keys.first?["LaDInDegrees"] == "567.593696", "\(keys)")
    #expect(throws: ECCodesTools.ToolFailure.self) { try ECCodesTools.run("grib_get_data", [path]) }

    let outcome = await #expect(processExitsWith: .success) {
      exit(
        GRIBSpheroidProjectionTests.gridRefusal(GRIBSpheroidProjectionTests.latitudeOfOrigin, key: "LaDInDegrees") {
          $0.hasSuffix("is not a latitude")
        })
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// The same for a second true latitude beyond the pole: an error naming `Latin2InDegrees`.
  @Test(.timeLimit(.minutes(5)))
  func anImpossibleSecondTrueLatitudeOnASpheroidIsAnErrorNotACrash() async throws {
    let path = try Self.mutatedFile(Self.secondTrueLatitude)
    let keys = try ECCodesTools.keys(["Latin1InDegrees", "Latin2InDegrees"], of: path)
    #expect(keys.first?["Latin1InDegrees"] == "46", "\(keys)")
    #expect(keys.first?["Latin2InDegrees"] == "116.108864", "\(keys)")
    #expect(throws: ECCodesTools.ToolFailure.self) { try ECCodesTools.run("grib_get_data", [path]) }

    let outcome = await #expect(processExitsWith: .success) {
      exit(
        GRIBSpheroidProjectionTests.gridRefusal(
          GRIBSpheroidProjectionTests.secondTrueLatitude, key: "Latin2InDegrees"
        ) { $0.hasSuffix("is not a latitude") })
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// The same for an earth whose major axis is 4.29 million km: an error naming it.
  @Test(.timeLimit(.minutes(5)))
  func anImpossibleEarthIsAnErrorNotACrash() async throws {
    let path = try Self.mutatedFile(Self.majorAxis)
    #expect(throws: ECCodesTools.ToolFailure.self) { try ECCodesTools.run("grib_get_data", [path]) }
    let outcome = await #expect(processExitsWith: .success) {
      exit(
        GRIBSpheroidProjectionTests.gridRefusal(GRIBSpheroidProjectionTests.majorAxis, key: "earthMajorAxisInMetres") {
          $0.hasSuffix("semi-axes")
        })
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// The same sample with its bits per value set to 16: 281,101 values of 16 bits declared
  /// in a data section of 5 bytes. ecCodes' simple unpacking would read past the message
  /// (a segmentation fault in the fuzzer); the decode is an error naming `bitsPerValue`.
  @Test(.timeLimit(.minutes(5)))
  func valuesThatDoNotFitTheirDataSectionAreAnErrorNotACrash() async throws {
    let outcome = await #expect(processExitsWith: .success) {
      guard
        let path = try? GRIBSpheroidProjectionTests.mutatedFile([(195, 16)]),
        let file = try? GRIBFile(path: path), let message = file.messages.first
      else { exit(3) }
      do {
        _ = try file.values(of: message)
        exit(4)
      } catch let error as GRIBError {
        guard
          error.key == "bitsPerValue",
          error.reason == "281101 values of 16 bits do not fit in the data section's 0 bytes"
        else { exit(5) }
      } catch {
        exit(6)
      }
      exit(0)
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }
}
