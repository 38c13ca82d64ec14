import Foundation
import GRIB
import Synchronization
import Testing
import _TestSupport

@Suite struct GRIBValuesTests {
  /// Decoded values equal `grib_get_data`'s, point for point in the message's order:
  /// complex packing with spatial differencing (NAM, and both fields of its message that
  /// holds the 10 m u and v), simple packing of both editions, a Gaussian grid, and a grid
  /// scanning south to north.
  @Test(arguments: [
    ("nam.t00z.awp21100.tm00.grib2", 1), ("nam.t00z.awp21100.tm00.grib2", 127), ("nam.t00z.awp21100.tm00.grib2", 128),
    ("ngm.grb", 3),
    ("gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2", 3), ("regular_gg_ml.grib", 1), ("scanning_mode_64.grib", 1),
    ("ecoclimap_rot.msg1.grib1", 1),
  ])
  func decodedValuesEqualGribGetData(_ name: String, _ number: Int) throws {
    let path = ECCodesTools.sample(name)
    let file = try GRIBFile(path: path)
    let message = file.messages[number - 1]
    let values = try file.values(of: message)
    let oracle = try ECCodesTools.data(of: path, message: number)
    #expect(values.count == oracle.count)
    #expect(values.count == message.numberOfDataPoints)
    let mismatches = zip(values, oracle).filter { $0 != $1.value }.count
    #expect(mismatches == 0)
  }

  /// Points the bitmap leaves out are NaN, exactly where `grib_get_data` prints them
  /// missing, and the others are the coded values.
  @Test func bitmapMissingPointsAreNaN() throws {
    let path = ECCodesTools.sample("fields_with_missing_values.grib")
    let file = try GRIBFile(path: path)
    for message in file.messages {
      #expect(message.bitmapPresent)
      let values = try file.values(of: message)
      let oracle = try ECCodesTools.data(of: path, message: message.number)
      #expect(values.count == oracle.count)
      let missing = oracle.filter { $0.value.isNaN }.count
      #expect(missing > 0)
      #expect(values.filter(\.isNaN).count == missing)
      #expect(message.numberOfDataPoints - message.numberOfValues == missing)
      let mismatches = zip(values, oracle).filter { !($0.isNaN && $1.value.isNaN) && $0 != $1.value }.count
      #expect(mismatches == 0)
    }
  }

  /// JPEG 2000 packing as NCEP writes it (pygrib's GFS flux file, four fields of 10 to 13
  /// bits): every message passes the codestream check and decodes to `grib_get_data`'s
  /// values, bit for bit.
  @Test func realJPEG2000FieldsPassTheCodestreamCheckAndDecodeAsEcCodesDoes() throws {
    let path = ECCodesTools.sample("flux.grb")
    let file = try GRIBFile(path: path)
    #expect(file.messages.count == 4)
    for message in file.messages {
      #expect(try file.string("packingType", of: message) == "grid_jpeg")
      let values = try file.values(of: message)
      let oracle = try ECCodesTools.data(of: path, message: message.number)
      #expect(values.count == oracle.count && values.count == 192 * 94)
      #expect(zip(values, oracle).filter { $0 != $1.value }.count == 0, "message \(message.number)")
    }
  }

  /// A caller's Float buffer receives the doubles rounded to Float, NaN included.
  @Test func floatBufferTakesTheDoublesRounded() throws {
    let file = try GRIBFile(path: ECCodesTools.sample("fields_with_missing_values.grib"))
    let message = file.messages[0]
    let doubles = try file.values(of: message)
    var floats = [Float](repeating: 0, count: message.numberOfDataPoints)
    try floats.withUnsafeMutableBufferPointer { try file.readValues(of: message, into: $0) }
    #expect(zip(floats, doubles).allSatisfy { $0.isNaN ? $1.isNaN : $0 == Float($1) })
  }

  /// A buffer of the wrong size is refused before anything is decoded, naming its size and
  /// the message's.
  @Test func aBufferOfTheWrongSizeIsRefused() throws {
    let path = ECCodesTools.sample("ngm.grb")
    let file = try GRIBFile(path: path)
    var buffer = [Double](repeating: 7, count: 10)
    let error = #expect(throws: GRIBError.self) {
      try buffer.withUnsafeMutableBufferPointer { try file.readValues(of: file.messages[0], into: $0) }
    }
    #expect(
      error?.description == "\(path): message 1: values: a buffer of 10 values cannot take the message's 2385 points")
    #expect(buffer.allSatisfy { $0 == 7 })
  }

  /// Sixteen fields of one file decoded and their grids built from eight threads at once
  /// (every ecCodes call goes through one lock) equal the same read one after another.
  @Test func concurrentReadsEqualSequentialOnes() throws {
    let file = try GRIBFile(path: ECCodesTools.sample("nam.t00z.awp21100.tm00.grib2"))
    let picked = (0..<16).map { file.messages[$0 * 11] }
    let expected = try picked.map { try file.values(of: $0) }
    let expectedLatitudes = try file.grid(of: picked[0]).latitudes
    let results = Mutex<[Int: ([Double], [Float])]>([:])
    DispatchQueue.concurrentPerform(iterations: 8 * picked.count) { k in
      let message = picked[k % picked.count]
      guard let values = try? file.values(of: message), let grid = try? file.grid(of: message) else { return }
      results.withLock { $0[k] = (values, grid.latitudes) }
    }
    let all = results.withLock { $0 }
    #expect(all.count == 8 * picked.count)
    for (k, result) in all {
      #expect(result.0 == expected[k % picked.count], "read \(k)")
      #expect(result.1 == expectedLatitudes, "read \(k)")
    }
  }
}
