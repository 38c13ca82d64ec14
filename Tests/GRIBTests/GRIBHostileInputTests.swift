import Foundation
import GRIB
import Testing
import _TestSupport

@Suite struct GRIBHostileInputTests {
  /// Writes `bytes` to a fresh file and returns its path.
  static func write(_ bytes: [UInt8], named name: String) throws -> String {
    let path = SampleFiles.temporaryDirectory("grib") + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func bytes(of name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: ECCodesTools.sample(name))))
  }

  /// A NetCDF file is not GRIB: the error says so and how many bytes were searched.
  @Test func aFileThatIsNotGRIBIsRefused() throws {
    let path = SampleFiles.grid("cf/gfs_1deg_subset.nc")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let error = #expect(throws: GRIBError.self) { try GRIBFile(path: path) }
    #expect(error?.description == "\(path): not a GRIB file: no message (no \"GRIB\" indicator) in its \(size) bytes")
  }

  /// An empty file and a missing one get their own errors.
  @Test func emptyAndMissingFilesAreRefused() throws {
    let empty = try Self.write([], named: "empty.grib2")
    #expect(throws: GRIBError(reason: "not a GRIB file: it is empty", path: empty)) { try GRIBFile(path: empty) }
    let missing = empty + ".absent"
    let error = #expect(throws: GRIBError.self) { try GRIBFile(path: missing) }
    #expect(error?.description == "\(missing): cannot open: No such file or directory")
  }

  /// A file cut inside its first message is truncated, with the length the message
  /// declares (`totalLength`, as grib_ls prints it) and what is left.
  @Test func aTruncatedMessageIsRefusedWithItsLengths() throws {
    let name = "nam.t00z.awp21100.tm00.grib2"
    let declared = try #require(
      try ECCodesTools.keys(["totalLength"], of: ECCodesTools.sample(name)).first?["totalLength"])
    let path = try Self.write(Array(try Self.bytes(of: name).prefix(5_000)), named: "cut.grib2")
    let error = #expect(throws: GRIBError.self) { try GRIBFile(path: path) }
    #expect(
      error?.description
        == "\(path): message 1: truncated: declares \(declared) bytes but the file ends 5000 bytes after its start")
  }

  /// A message whose last four bytes are not "7777" is damaged, and so is one whose
  /// section lengths run past its end; the second message of a file is named as such.
  @Test func damagedMessagesAreRefusedByNumber() throws {
    let whole = try Self.bytes(of: "rotated_ll_sfc_grib2.tmpl")
    var noEnd = whole
    noEnd[noEnd.count - 1] = 0x36
    let path = try Self.write(whole + noEnd, named: "no-end.grib2")
    let error = #expect(throws: GRIBError.self) { try GRIBFile(path: path) }
    #expect(
      error?.description
        == "\(path): message 2: damaged or truncated: its \(whole.count) bytes do not end with \"7777\"")

    // Section 1 starts after the 16 bytes of section 0: give it a length past the message.
    var long = whole
    long[16] = 0x7F
    let longPath = try Self.write(long, named: "long-section.grib2")
    let longError = #expect(throws: GRIBError.self) { try GRIBFile(path: longPath) }
    #expect(longError?.key == "section" && longError?.message == 1)
    #expect(longError?.reason.hasPrefix("damaged: section 1 at byte 16 declares") == true)
  }

  /// ERA5's deliberately corrupted sample (cfgrib's test data) is refused with the message
  /// and the reason, not a crash.
  @Test func cfgribsCorruptedSampleIsRefused() throws {
    let path = ECCodesTools.sample("era5-levels-corrupted.grib")
    let error = #expect(throws: GRIBError.self) { try GRIBFile(path: path) }
    #expect(error?.message != nil)
    #expect(error?.description.hasPrefix("\(path): message ") == true)
  }

  /// The GRIB2 sample with its grid made 40,000 × 40,000 points (1.6 billion: 12.8 GB of
  /// doubles) in its 191 bytes, as a constant field allows: its keys read, but its grid
  /// and its values are refused by the limits before anything of that size is allocated.
  /// In a child capped at 256 MiB more address space than it starts with.
  @Test(.timeLimit(.minutes(2)))
  func aHugeGridInATinyFileIsRefusedBeforeAllocating() async {
    let outcome = await #expect(processExitsWith: .success) {
      GRIBHostileInputTests.capMemory(megabytes: 256)
      guard let path = try? GRIBHostileInputTests.hugeGrid(),
        let file = try? GRIBFile(path: path), let message = file.messages.first,
        message.numberOfDataPoints == 1_600_000_000
      else { exit(3) }
      do {
        _ = try file.grid(of: message)
        exit(4)
      } catch let error as GRIBError {
        guard
          error.description
            == "\(path): message 1: Ni/Nj: 40000 × 40000 = 1600000000 points is more than the 50000000 a grid may have"
        else { exit(5) }
      } catch {
        exit(8)
      }
      do {
        _ = try file.values(of: message)
        exit(6)
      } catch let error as GRIBError {
        guard error.description == "\(path): message 1: numberOfDataPoints: 1600000000 points is not in 1…50000000"
        else { exit(7) }
      } catch {
        exit(8)
      }
      exit(0)
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// One byte changed in the data section of GFS's precipitation rate makes ecCodes fail
  /// an internal assertion while decoding, which aborts its own `grib_get_data`: the byte
  /// makes a group's values reach past the data section, which the complex-packing length
  /// check finds before ecCodes decodes, so the decode is an error naming the message, the
  /// packing and the shortfall, and the file's other messages still decode to their values.
  @Test func anEcCodesAssertionIsAnErrorNotAnAbort() throws {
    let name = "gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2"
    var bytes = try Self.bytes(of: name)
    bytes[15_262] = 122
    let path = try Self.write(bytes, named: "assertion.grib2")
    let tool = Process()
    tool.executableURL = URL(fileURLWithPath: "/usr/bin/grib_get_data")
    tool.arguments = ["-w", "count=2", path]
    tool.standardOutput = FileHandle.nullDevice
    tool.standardError = FileHandle.nullDevice
    try tool.run()
    tool.waitUntilExit()
    #expect(tool.terminationReason == .uncaughtSignal && tool.terminationStatus == SIGABRT)

    let file = try GRIBFile(path: path)
    let error = #expect(throws: GRIBError.self) { try file.values(of: file.messages[1]) }
    #expect(error?.message == 2 && error?.key == "packingType", "\(String(describing: error))")
    #expect(
      error?.reason.hasPrefix("its groups' values need more than the data section's") == true,
      "\(String(describing: error))")
    let original = try GRIBFile(path: ECCodesTools.sample(name))
    for k in [0, 2] {
      #expect(try file.values(of: file.messages[k]) == original.values(of: original.messages[k]))
    }
  }

  /// A grid whose Ni × Nj disagrees with its number of data points (the rotated sample's
  /// Ni made 17 where 16 × 31 = 496 points are coded): both the grid and the values are
  /// refused, naming the counts.
  @Test func valuesThatDisagreeWithTheGridAreRefused() throws {
    var bytes = try Self.bytes(of: "rotated_ll_sfc_grib2.tmpl")
    var position = 16
    while position + 5 <= bytes.count - 4 {
      let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
      if bytes[position + 4] == 3 { bytes[position + 33] = 17 }
      position += length
    }
    let path = try Self.write(bytes, named: "ni.grib2")
    let file = try GRIBFile(path: path)
    let message = try #require(file.messages.first)
    #expect(message.ni == 17 && message.nj == 31 && message.numberOfDataPoints == 496)
    let expected =
      "\(path): message 1: numberOfDataPoints: the grid's Ni × Nj = 17 × 31 = 527 disagrees with its 496 data points"
    let gridError = #expect(throws: GRIBError.self) { try file.grid(of: message) }
    #expect(gridError?.description == expected)
    let valuesError = #expect(throws: GRIBError.self) { try file.values(of: message) }
    #expect(valuesError?.description == expected)
  }

  /// Limits this process's address space to what it uses now plus `megabytes`, and its CPU
  /// to two minutes.
  static func capMemory(megabytes: Int) { ResourceCaps.cap(megabytes: megabytes, cpuSeconds: 120) }

  /// The rotated GRIB2 sample (a constant field, no bits per value) made to declare
  /// 40,000 × 40,000 points: `numberOfDataPoints`, `Ni` and `Nj` in section 3 and
  /// `numberOfValues` in section 5 rewritten, each a big-endian 32-bit integer.
  static func hugeGrid() throws -> String {
    var bytes = try Self.bytes(of: "rotated_ll_sfc_grib2.tmpl")
    func put(_ value: UInt32, at offset: Int) {
      for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
    }
    // Walk the sections from the end of section 0.
    var position = 16
    while position + 5 <= bytes.count - 4 {
      let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
      switch bytes[position + 4] {
      case 3:
        put(1_600_000_000, at: position + 6)
        put(40_000, at: position + 30)
        put(40_000, at: position + 34)
      case 5:
        put(1_600_000_000, at: position + 5)
      default: break
      }
      position += length
    }
    return try write(bytes, named: "huge.grib2")
  }

  /// Truncated and mutated copies of real messages, 1,200 of them from a fixed seed: each
  /// is read, its grid built and its values decoded, and every failure is a `GRIBError`,
  /// never a crash, a hang or a runaway allocation. In a child capped at 512 MiB more
  /// address space than it starts with and two minutes of CPU.
  @Test(.timeLimit(.minutes(5)))
  func truncatedAndMutatedMessagesFailCleanly() async {
    let outcome = await #expect(processExitsWith: .success) {
      GRIBHostileInputTests.capMemory(megabytes: 512)
      let names = [
        "rotated_ll_sfc_grib2.tmpl", "ngm.grb", "scanning_mode_64.grib", "regular_gg_ml.grib",
        "fields_with_missing_values.grib", "gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2",
      ]
      var random = TestRandom(seed: 30)
      let directory = SampleFiles.temporaryDirectory("grib-fuzz")
      for name in names {
        guard let original = try? GRIBHostileInputTests.bytes(of: name) else { exit(3) }
        for round in 0..<200 {
          var bytes = original
          if round % 4 == 0 {
            bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
          } else {
            for _ in 0...(random.next() % 8) {
              // Most mutations land in the headers, where the sizes and the grid are.
              let span = round % 2 == 0 ? min(bytes.count, 200) : bytes.count
              bytes[Int(random.next() % UInt64(span))] = UInt8(truncatingIfNeeded: random.next())
            }
          }
          let path = directory + "/\(round).grib"
          guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { exit(4) }
          do {
            let file = try GRIBFile(path: path)
            for message in file.messages {
              _ = try? file.grid(of: message)
              _ = try? file.values(of: message)
            }
          } catch let error as GRIBError {
            guard error.description.hasPrefix(path) else { exit(5) }
          } catch {
            exit(6)
          }
        }
      }
      try? FileManager.default.removeItem(atPath: directory)
      exit(0)
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// JPEG 2000 packing: OpenJPEG allocates the image and the tiles the codestream's size
  /// marker (SIZ) declares before it decodes a pixel, and ecCodes compares the image with
  /// the values only afterwards. The NCEP sample packed by ecCodes as JPEG 2000 decodes to
  /// the simple-packed original's values; its SIZ made to cut the image into 1 × 1 tiles
  /// (646 MB to decode), or to declare a 40,000 × 40,000 image, is refused before decoding.
  /// In a child capped at 256 MiB more address space than it starts with.
  @Test(.timeLimit(.minutes(2)))
  func aJPEG2000ImageOtherThanItsValuesIsRefusedBeforeDecoding() async {
    let outcome = await #expect(processExitsWith: .success) {
      GRIBHostileInputTests.capMemory(megabytes: 256)
      guard let original = try? GRIBFile(path: ECCodesTools.sample("regular_ll_msl.grib")),
        let expected = try? original.values(of: original.messages[0]),
        let bytes = try? GRIBHostileInputTests.bytes(of: "regular_ll_msl.jpeg.grib2"),
        let marker = bytes.indices.first(where: { bytes[$0..<min($0 + 4, bytes.count)] == [0xFF, 0x4F, 0xFF, 0x51] })
      else { exit(3) }
      guard let file = try? GRIBFile(path: ECCodesTools.sample("regular_ll_msl.jpeg.grib2")),
        let values = try? file.values(of: file.messages[0]), values == expected
      else { exit(4) }
      // SIZ's 32-bit fields from Xsiz: Xsiz, Ysiz, XOsiz, YOsiz, XTsiz, YTsiz, XTOsiz, YTOsiz.
      func damaged(_ fields: [Int: UInt32], name: String) -> String? {
        var copy = bytes
        for (index, value) in fields {
          for k in 0..<4 { copy[marker + 8 + 4 * index + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
        }
        return try? GRIBHostileInputTests.write(copy, named: name)
      }
      let cases: [(fields: [Int: UInt32], reason: String)] = [
        ([4: 1, 5: 1], "its JPEG 2000 image is cut into 360 × 181 tiles, more than the 4096 a field may have"),
        (
          [0: 40_000, 1: 40_000, 4: 40_000, 5: 40_000],
          "its JPEG 2000 image is 40000 × 40000 pixels, not the 65160 values section 5 declares"
        ),
      ]
      for (index, damage) in cases.enumerated() {
        guard let path = damaged(damage.fields, name: "jpeg-\(index).grib2"), let file = try? GRIBFile(path: path)
        else { exit(5) }
        do {
          _ = try file.values(of: file.messages[0])
          exit(6)
        } catch let error as GRIBError {
          guard error.description == "\(path): message 1: packingType: \(damage.reason)" else {
            print(error.description)
            exit(7)
          }
        } catch {
          exit(8)
        }
      }
      exit(0)
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }

  /// The grib_file fuzz target's finding: a Mercator message packed by complex packing with
  /// spatial differencing whose groups reach past its data section, where ecCodes 2.28 read
  /// past the message (a segmentation fault). In a child process, so that a regression
  /// kills the child and not the test run: the decode is an error naming the packing.
  @Test(.timeLimit(.minutes(5)))
  func complexPackedGroupsBeyondTheDataSectionAreAnErrorNotACrash() async throws {
    let outcome = await #expect(processExitsWith: .success) {
      let path = SampleFiles.packageRoot + "/Fuzz/Regressions/grib_file/complex-packing-groups-past-the-data-section"
      guard let file = try? GRIBFile(path: path), let message = file.messages.first else { exit(3) }
      do {
        _ = try file.values(of: message)
        exit(4)
      } catch let error as GRIBError {
        exit(error.key == "packingType" && error.reason.contains("the data section's") ? 0 : 5)
      } catch {
        exit(6)
      }
    }
    #expect(outcome?.exitStatus == .exitCode(0))
  }
}
