import Foundation
import GRIB
import Testing
import UTCTime
import _TestSupport

@Suite struct GRIBFileTests {
  static let keyFiles = [
    "nam.t00z.awp21100.tm00.grib2", "gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2", "ngm.grb",
    "regular_ll_msl.grib", "scanning_mode_64.grib", "regular_gg_ml.grib", "ecoclimap_rot.msg1.grib1",
    "fields_with_missing_values.grib", "reduced_gg.grib", "no-radius-shapeOfEarth-7.grb2", "dspr.temp.msg1.grib2",
  ]

  /// Every message's keys, read without decoding, equal what `grib_ls` prints for them,
  /// for files of both editions, seven grid types and steps in hours and in windows.
  @Test(arguments: keyFiles)
  func everyMessagesKeysEqualGribLs(_ name: String) throws {
    let path = ECCodesTools.sample(name)
    let file = try GRIBFile(path: path)
    let oracle = try ECCodesTools.keys(
      [
        "count", "edition", "centre", "shortName", "typeOfLevel", "level", "dataDate", "dataTime", "stepType",
        "startStep", "endStep", "gridType", "Ni", "Nj", "bitmapPresent", "numberOfValues", "numberOfDataPoints",
        "discipline", "parameterCategory", "parameterNumber", "paramId",
      ], of: path)
    #expect(file.messages.count == oracle.count)
    for (message, expected) in zip(file.messages, oracle) {
      let label = "\(name) message \(message.number)"
      #expect("\(message.number)" == expected["count"], "\(label)")
      #expect("\(message.edition)" == expected["edition"], "\(label)")
      #expect(message.centre == expected["centre"], "\(label)")
      #expect(message.shortName == expected["shortName"], "\(label)")
      #expect(message.typeOfLevel == expected["typeOfLevel"], "\(label)")
      #expect(Double(expected["level"] ?? "") == message.level, "\(label)")
      #expect(message.stepType == expected["stepType"], "\(label)")
      #expect("\(message.startStep)" == expected["startStep"], "\(label)")
      #expect("\(message.endStep)" == expected["endStep"], "\(label)")
      #expect(message.gridType == expected["gridType"], "\(label)")
      #expect(message.ni.map { "\($0)" } ?? "MISSING" == expected["Ni"], "\(label)")
      #expect(message.nj.map { "\($0)" } ?? "MISSING" == expected["Nj"], "\(label)")
      #expect("\(message.bitmapPresent ? 1 : 0)" == expected["bitmapPresent"], "\(label)")
      #expect("\(message.numberOfValues)" == expected["numberOfValues"], "\(label)")
      #expect("\(message.numberOfDataPoints)" == expected["numberOfDataPoints"], "\(label)")
      #expect("\(message.parameterID)" == expected["paramId"], "\(label)")
      if let parameter = message.parameter {
        #expect(
          "\(parameter)"
            == "\(expected["discipline"] ?? "")/\(expected["parameterCategory"] ?? "")/\(expected["parameterNumber"] ?? "")",
          "\(label)")
      } else {
        #expect(message.edition == 1 && expected["discipline"] == "not_found", "\(label)")
      }
      // The reference time from the date and time as grib_ls prints them, by the calendar.
      let date = Int(expected["dataDate"] ?? "") ?? 0
      let time = Int(expected["dataTime"] ?? "") ?? 0
      let reference = UTC.seconds(
        year: date / 10_000, month: date / 100 % 100, day: date % 100, hour: time / 100, minute: time % 100)
      #expect(message.referenceTime == reference, "\(label)")
    }
  }

  /// The NAM file: a 00 UTC analysis of 2018-09-17 from NCEP (centre `kwbc`) on a Lambert
  /// grid of 93 × 65, whose winds are grid-relative, on a sphere of 6,371,229 m, in 154
  /// GRIB messages holding 181 fields (each u with its v, as NCEP packs winds); GFS's 5-day
  /// precipitation is a 6-hour window (114–120 h) accumulated, its rate an average.
  @Test func namAndGFSMessagesSayWhatTheirFilesAre() throws {
    let nam = try GRIBFile(path: ECCodesTools.sample("nam.t00z.awp21100.tm00.grib2"))
    #expect(nam.messages.count == 181)
    #expect(Set(nam.messages.map(\.byteOffset)).count == 154)
    let winds = Dictionary(grouping: nam.messages.filter { ["10u", "10v"].contains($0.shortName) }, by: \.byteOffset)
    #expect(winds.count == 1 && winds.values.first?.map(\.shortName) == ["10u", "10v"])
    let first = try #require(nam.messages.first)
    #expect(first.referenceTime == UTC.seconds(year: 2018, month: 9, day: 17))
    #expect(first.centre == "kwbc")
    #expect(first.gridType == "lambert" && first.ni == 93 && first.nj == 65)
    #expect(first.earth == .sphere(radius: 6_371_229))
    #expect(nam.messages.allSatisfy { $0.uvRelativeToGrid })
    let temperature = try #require(nam.messages.first { $0.shortName == "2t" })
    #expect(temperature.typeOfLevel == "heightAboveGround" && temperature.level == 2)
    #expect(temperature.parameter == GRIBParameter(discipline: 0, category: 0, number: 0))

    let gfs = try GRIBFile(path: ECCodesTools.sample("gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2"))
    let precipitation = try #require(gfs.messages.first { $0.shortName == "tp" })
    #expect(precipitation.stepType == "accum")
    #expect(precipitation.startStep == 114 * 3600 && precipitation.endStep == 120 * 3600)
    let rate = try #require(gfs.messages.first { $0.shortName == "prate" })
    #expect(rate.stepType == "avg")
    #expect(!precipitation.uvRelativeToGrid)
  }

  /// A spheroid's axes come from the file (shape 7, axes given in metres), as grib_ls
  /// prints them.
  @Test func anOblateEarthGivesItsAxes() throws {
    let path = ECCodesTools.sample("no-radius-shapeOfEarth-7.grb2")
    let message = try #require(try GRIBFile(path: path).messages.first)
    let oracle = try #require(
      try ECCodesTools.keys(["earthMajorAxisInMetres", "earthMinorAxisInMetres"], of: path).first)
    let major = try #require(Double(oracle["earthMajorAxisInMetres"] ?? ""))
    let minor = try #require(Double(oracle["earthMinorAxisInMetres"] ?? ""))
    #expect(message.earth == .spheroid(major: major, minor: minor))
    #expect(major > minor)
  }

  /// Keys the message type does not carry are read by name and equal grib_ls's; a key the
  /// message does not have is an error naming the file, the message and the key, in
  /// ecCodes' words.
  @Test func anyKeyReadsByNameAndAnUnknownOneIsAnError() throws {
    let path = ECCodesTools.sample("gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2")
    let file = try GRIBFile(path: path)
    let oracle = try ECCodesTools.keys(["typeOfStatisticalProcessing", "packingType", "referenceValue"], of: path)
    let precipitation = file.messages[2]
    #expect(
      "\(try file.long("typeOfStatisticalProcessing", of: precipitation))" == oracle[2]["typeOfStatisticalProcessing"])
    #expect(try file.string("packingType", of: precipitation) == oracle[2]["packingType"])
    #expect(try file.double("referenceValue", of: precipitation) == Double(oracle[2]["referenceValue"] ?? ""))
    let error = #expect(throws: GRIBError.self) { try file.long("noSuchKey", of: precipitation) }
    #expect(error?.description == "\(path): message 3: noSuchKey: codes_get_long: Key/value not found")
  }
}
