import Foundation
import GridGeometry
import NetCDF
import SampleRun
import Testing

/// The fields of a full 72 hour run, written three-hourly into one file (so that the
/// checks see the whole event without paying for 73 file headers), generated once for
/// all the tests here and held in memory.
struct WeatherRun: Sendable {
  static let names = [
    "RAINC", "RAINNC", "RAINSH", "SNOWNC", "T2", "Q2", "PSFC", "U10", "V10", "SWDOWN", "CLDFRA", "QRAIN",
    "QCLOUD", "P", "PB",
  ]
  static let shared = Result { try WeatherRun() }

  let recordCount: Int
  let constant: [String: [Double]]
  private let fields: [String: [[Float]]]

  private init() throws {
    let directory = Scratch.directory("weather")
    defer { Scratch.remove(directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var spec = SampleRunSpec.portugal9km
    spec.stepMinutes = 180
    let path = directory + "/wrfout_d01_2026-06-20_00:00:00"
    try SampleRunGenerator.writeSingleFile(spec, to: path)
    let records = try WRFRecords(path)
    defer { records.file.close() }
    recordCount = records.recordCount
    var constant: [String: [Double]] = [:]
    for name in ["HGT", "LANDMASK", "COSALPHA", "SINALPHA"] {
      constant[name] = try records.values(name)
    }
    self.constant = constant
    var fields: [String: [[Float]]] = [:]
    for name in Self.names {
      fields[name] = try (0..<recordCount).map { record in
        try records.values(name, record: record).map { Float($0) }
      }
    }
    self.fields = fields
  }

  func values(_ name: String, record: Int) -> [Double] {
    (fields[name]?[record] ?? []).map { Double($0) }
  }

  /// Runs `body` on the shared run, or records why it could not be generated.
  static func check(_ body: (WeatherRun) throws -> Void) throws {
    try body(try shared.get())
  }
}

@Suite struct WeatherTests {
  @Test func precipitationAccumulatesFromZeroAndSomeRainFalls() throws {
    try WeatherRun.check { records in
      var previous: [String: [Double]] = [:]
      var total = [Double](repeating: 0, count: 135 * 80)
      var largestThreeHourly = 0.0
      for record in 0..<records.recordCount {
        var now = [Double](repeating: 0, count: 135 * 80)
        for name in ["RAINC", "RAINNC", "RAINSH", "SNOWNC"] {
          let values = records.values(name, record: record)
          if record == 0 {
            #expect(values.allSatisfy { $0 == 0 }, "\(name) at the first time")
          }
          if let before = previous[name] {
            #expect(zip(before, values).allSatisfy { $0 <= $1 }, "\(name) decreases before record \(record)")
          }
          previous[name] = values
          if name != "SNOWNC" {
            for cell in now.indices { now[cell] += values[cell] }
          }
        }
        for cell in now.indices { largestThreeHourly = max(largestThreeHourly, now[cell] - total[cell]) }
        total = now
      }
      let wet = total.filter { $0 > 1 }.count
      #expect((total.max() ?? 0) > 10, "the front should leave a wet swath")
      #expect(wet > total.count / 10, "rain should fall on a good part of the domain")
      #expect(total.filter { $0 == 0 }.count > total.count / 20, "and leave some of it dry")
      // At most 8 mm in any hour.
      #expect(largestThreeHourly <= 24.001)
      #expect((records.values("RAINSH", record: 24).max() ?? 0) < (total.max() ?? 0) / 5)

      // Snow only on high ground.
      let height = records.constant["HGT"] ?? []
      let snow = records.values("SNOWNC", record: 24)
      #expect(snow.indices.allSatisfy { snow[$0] == 0 || height[$0] > 1500 })
    }
  }

  @Test func rainFallsFromSaturatedCloudyColumns() throws {
    try WeatherRun.check { records in
      let cells = 135 * 80
      var rainyColumns = 0
      for record in stride(from: 1, to: records.recordCount, by: 2) {
        let fraction = records.values("CLDFRA", record: record)
        let rain = records.values("QRAIN", record: record)
        let cloud = records.values("QCLOUD", record: record)
        #expect(fraction.allSatisfy { $0 >= 0 && $0 <= 1 })
        if rain.contains(where: { $0 > 0 }) {
          #expect(fraction.contains { $0 > 0.9 }, "rain should come with overcast skies")
        }
        let clear = (0..<cells).filter { cell in (0..<5).allSatisfy { fraction[$0 * cells + cell] == 0 } }
        #expect(clear.count > cells / 5, "most of a summer domain should be clear")
        var thinnest = 1.0
        for cell in 0..<cells where rain[cell] > 0 {
          rainyColumns += 1
          thinnest = min(thinnest, (0..<5).map { fraction[$0 * cells + cell] }.max() ?? 0)
        }
        #expect(thinnest > 0.8, "rain under a cloud cover of \(thinnest) at record \(record)")
        #expect(cloud.contains { $0 > 0 })
      }
      #expect(rainyColumns > 0)
    }
  }

  @Test func windsBlowFromEveryQuadrantAtSensibleSpeeds() throws {
    try WeatherRun.check { records in
      let cosines = records.constant["COSALPHA"] ?? []
      let sines = records.constant["SINALPHA"] ?? []
      var quadrants = Set<Int>()
      var fastest = 0.0
      for record in 0..<records.recordCount {
        let u = records.values("U10", record: record)
        let v = records.values("V10", record: record)
        for cell in u.indices {
          // WRF's rotation from grid to earth axes.
          let east = u[cell] * cosines[cell] - v[cell] * sines[cell]
          let north = u[cell] * sines[cell] + v[cell] * cosines[cell]
          quadrants.insert((east >= 0 ? 0 : 1) + (north >= 0 ? 0 : 2))
          fastest = max(fastest, (east * east + north * north).squareRoot())
        }
      }
      #expect(quadrants.count == 4)
      #expect(fastest > 5 && fastest <= 15)
    }
  }

  @Test func sunshineFollowsTheSun() throws {
    try WeatherRun.check { records in
      let landmask = records.constant["LANDMASK"] ?? []
      for record in 0..<records.recordCount {
        let hour = (3 * record) % 24
        let sunshine = records.values("SWDOWN", record: record)
        #expect(sunshine.allSatisfy { $0 >= 0 && $0 < 1100 })
        switch hour {
        case 0, 3, 21:
          // Sunset over Portugal in June is after 20 UTC, sunrise before 6 UTC.
          #expect(sunshine.allSatisfy { $0 == 0 }, "SWDOWN at \(hour) UTC")
        case 12:
          #expect(sunshine.allSatisfy { $0 > 150 }, "SWDOWN at noon")
          let clearLand = sunshine.indices.filter { landmask[$0] == 1 }.map { sunshine[$0] }.max() ?? 0
          #expect(clearLand > 850, "clear-sky noon sun in June")
        default:
          #expect(sunshine.contains { $0 > 0 })
        }
      }
    }
  }

  @Test func surfaceFieldsAreThermodynamicallyConsistent() throws {
    try WeatherRun.check { records in
      let height = records.constant["HGT"] ?? []
      let landmask = records.constant["LANDMASK"] ?? []
      #expect(height.indices.allSatisfy { landmask[$0] == 1 ? height[$0] > 0 : height[$0] == 0 })
      #expect((height.max() ?? 0) > 1500 && (height.max() ?? 0) < 2100)
      var landRange = (low: Double.infinity, high: -Double.infinity)
      var seaRange = landRange
      var humidity = landRange
      var reduced = landRange
      var top = landRange
      var inversions = 0
      for record in 0..<records.recordCount {
        let t2 = records.values("T2", record: record)
        let q2 = records.values("Q2", record: record)
        let psfc = records.values("PSFC", record: record)
        let p = records.values("P", record: record)
        let pb = records.values("PB", record: record)
        for cell in t2.indices {
          // Relative humidity from the mixing ratio.
          let vapour = q2[cell] * psfc[cell] / (0.622 + q2[cell])
          let saturation = 611.2 * exp(17.67 * (t2[cell] - 273.15) / (t2[cell] - 29.65))
          humidity = (min(humidity.low, vapour / saturation), max(humidity.high, vapour / saturation))
          // Back to sea level with the barometric formula.
          let seaLevel =
            psfc[cell] * pow(1 - 0.0065 * height[cell] / (t2[cell] + 0.0065 * height[cell]), -5.25588)
          reduced = (min(reduced.low, seaLevel), max(reduced.high, seaLevel))
          var above = psfc[cell] + 1
          for level in 0..<5 {
            let total = p[level * t2.count + cell] + pb[level * t2.count + cell]
            if total >= above { inversions += 1 }
            above = total
          }
          top = (min(top.low, above), max(top.high, above))
          if landmask[cell] == 1 {
            landRange = (min(landRange.low, t2[cell]), max(landRange.high, t2[cell]))
          } else {
            seaRange = (min(seaRange.low, t2[cell]), max(seaRange.high, t2[cell]))
          }
        }
      }
      #expect(humidity.low > 0.2 && humidity.high < 1.02, "relative humidity \(humidity)")
      #expect(reduced.low > 100_000 && reduced.high < 103_000, "sea-level pressure \(reduced)")
      #expect(inversions == 0, "pressure must fall with height")
      #expect(top.low > 45_000 && top.high < 55_000, "top-level pressure \(top)")
      // A summer run: mild sea, hot afternoons and cool nights inland.
      #expect(seaRange.low > 280 && seaRange.high < 300)
      #expect(landRange.high > 300 && landRange.low < 285)
    }
  }

  @Test func diurnalCycleIsLargerInlandAndPeaksInTheAfternoon() throws {
    try WeatherRun.check { records in
      let landmask = records.constant["LANDMASK"] ?? []
      let height = records.constant["HGT"] ?? []
      // Day 2: 03 UTC is record 9, 15 UTC record 13.
      let night = records.values("T2", record: 9)
      let afternoon = records.values("T2", record: 13)
      let land = landmask.indices.filter { landmask[$0] == 1 }
      let sea = landmask.indices.filter { landmask[$0] == 0 }
      func meanSwing(_ cells: [Int]) -> Double {
        cells.map { afternoon[$0] - night[$0] }.reduce(0, +) / Double(cells.count)
      }
      #expect(meanSwing(land) > 6)
      #expect(abs(meanSwing(sea)) < 2)
      // Lapse rate: the highest land is cooler than the lowest land, by day and by night.
      let high = land.filter { height[$0] > 1200 }
      let low = land.filter { height[$0] < 300 }
      func mean(_ field: [Double], _ cells: [Int]) -> Double {
        cells.map { field[$0] }.reduce(0, +) / Double(cells.count)
      }
      #expect(mean(afternoon, low) - mean(afternoon, high) > 4)
      #expect(mean(night, low) - mean(night, high) > 4)
    }
  }
}
