import CubeFormat
import FaceKit
import Forecast
import Foundation
import Meteorology
import NwpcubeFace
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// `cell_selection` and `elevation` on the generated sample run, whose land mask has sea
/// to the west, checked against brute force over the mask and formulas computed here.
@Suite struct TerrainForecastTests {
  static let start = "2026-06-20_00:00:00"

  static func store() throws -> (store: String, cube: Cube) {
    let store = SampleFiles.temporaryDirectory("terrain-forecast")
    let path = try TestStores.publish(TestStores.spec(start: start, hours: 24, seed: 5), into: store)
    return (store, try Cube(path: path))
  }

  /// The cell of `kinds` nearest to a point over the whole grid, by the haversine distance
  /// computed here.
  static func bruteNearest(_ cube: Cube, latitude: Double, longitude: Double, land: Bool?) -> Int? {
    let (latitudes, longitudes) = (cube.file.latitudes, cube.file.longitudes)
    let cells = latitudes.indices.filter { land == nil || cube.file.isLand(cell: $0) == land }
    guard !cells.isEmpty else { return nil }
    let found = BruteForce.nearest(
      latitude: latitude, longitude: longitude, latitudes: cells.map { latitudes[$0] },
      longitudes: cells.map { longitudes[$0] })
    return cells[found.index]
  }

  /// Points just inside a cell of one kind, 40 % of the way towards an edge neighbour of
  /// the other kind: coastal points where the nearest cell and the selected one differ.
  static func coastalPoints(_ cube: Cube, nearestIsLand: Bool) -> [(latitude: Double, longitude: Double)] {
    let (width, height) = (cube.header.width, cube.header.height)
    let (latitudes, longitudes) = (cube.file.latitudes, cube.file.longitudes)
    var points: [(Double, Double)] = []
    for j in 1..<(height - 1) {
      for i in 1..<(width - 1) where cube.file.isLand(cell: j * width + i) == nearestIsLand {
        let cell = j * width + i
        for other in [cell - 1, cell + 1, cell - width, cell + width]
        where cube.file.isLand(cell: other) == !nearestIsLand {
          let latitude = Double(latitudes[cell]) + 0.4 * Double(latitudes[other] - latitudes[cell])
          let longitude = Double(longitudes[cell]) + 0.4 * Double(longitudes[other] - longitudes[cell])
          points.append((latitude, longitude))
        }
      }
    }
    return points
  }

  @Test func landAndSeaPickTheNearestCellOfTheirKindAtCoastalPoints() throws {
    let (store, cube) = try Self.store()
    defer { SampleFiles.remove(store) }
    let catalog = try ForecastStore(path: store).catalog
    let width = cube.header.width
    let landCells = (0..<cube.header.cells).filter { cube.file.isLand(cell: $0) == true }.count
    #expect(landCells > 0 && landCells < cube.header.cells, "the sample run has both land and sea")
    var checked = 0
    for nearestIsLand in [false, true] {
      for (latitude, longitude) in Self.coastalPoints(cube, nearestIsLand: nearestIsLand) {
        let nearest = try #require(Self.bruteNearest(cube, latitude: latitude, longitude: longitude, land: nil))
        guard cube.file.isLand(cell: nearest) == nearestIsLand else { continue }
        func selected(_ selection: CellSelection) throws -> Int {
          let location = try catalog.sources(
            latitude: latitude, longitude: longitude, method: .nearest, cellSelection: selection
          ).sources[0].location
          return location.j * width + location.i
        }
        let (land, sea) = (try selected(.land), try selected(.sea))
        let expectedLand = try #require(Self.bruteNearest(cube, latitude: latitude, longitude: longitude, land: true))
        let expectedSea = try #require(Self.bruteNearest(cube, latitude: latitude, longitude: longitude, land: false))
        #expect(land == expectedLand, "land at \(latitude), \(longitude)")
        #expect(sea == expectedSea, "sea at \(latitude), \(longitude)")
        #expect(land != sea)
        #expect(try selected(.nearest) == nearest)
        #expect(cube.file.isLand(cell: land) == true && cube.file.isLand(cell: sea) == false)
        checked += 1
      }
    }
    #expect(checked >= 4, "\(checked) coastal points")

    // Through the forecast: the cell and the elevation are the land cell's.
    let (latitude, longitude) = try #require(Self.coastalPoints(cube, nearestIsLand: false).first)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let request = ForecastRequest(latitude: latitude, longitude: longitude, cellSelection: .land)
    let hourly = try forecaster.hourly(request, metrics: [.temp], instants: [cube.firstTime])
    let source = try #require(hourly.provenance.first)
    let landCell = try #require(Self.bruteNearest(cube, latitude: latitude, longitude: longitude, land: true))
    #expect(source.j * width + source.i == landCell)
    #expect(source.elevation == cube.file.terrainHeight(cell: landCell))
    #expect((cube.file.terrainHeight(cell: landCell) ?? 0) > 0, "land is above sea level in the sample")
  }

  /// Bolton's saturation vapour pressure, hPa, and the dew point at which air of
  /// temperature `t` has relative humidity `rh` (0–1): written out here, apart from the
  /// code under test.
  static func bolton(_ celsius: Double) -> Double { 6.112 * exp(17.67 * celsius / (celsius + 243.5)) }
  static func dewPoint(temperature t: Double, humidity rh: Double) -> Double {
    let l = log(rh * bolton(t) / 6.112)
    return 243.5 * l / (17.67 - l)
  }

  @Test func elevationCorrectsTemperatureDewPointAndApparentTemperature() throws {
    let (store, cube) = try Self.store()
    defer { SampleFiles.remove(store) }
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    // An inland cell well above the sea.
    let cell = try #require(
      (0..<cube.header.cells).max {
        (cube.file.terrainHeight(cell: $0) ?? 0) < (cube.file.terrainHeight(cell: $1) ?? 0)
      })
    let height = try #require(cube.file.terrainHeight(cell: cell))
    let (latitude, longitude) = (Double(cube.file.latitudes[cell]), Double(cube.file.longitudes[cell]))
    let target = height - 250.5
    let metrics: [Metric] = [.temp, .dewPoint, .apparentTemp, .hum, .rain]
    let instants = (0..<24).map { cube.firstTime + Int64($0) * 3600 }
    let plain = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude), metrics: metrics, instants: instants)
    let corrected = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude, elevation: target), metrics: metrics,
      instants: instants)
    let off = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude, elevation: nil), metrics: metrics, instants: instants)
    #expect(off.values == plain.values)
    let shift = 0.0065 * (height - target)
    #expect(abs(shift - 1.62825) < 1e-12)
    for hour in instants.indices {
      let t = try #require(plain.values[0][hour])
      let td = try #require(plain.values[1][hour])
      let at = try #require(plain.values[2][hour])
      let rh = try #require(plain.values[3][hour])
      // Temperature: exactly the shift added.
      #expect(corrected.values[0][hour] == t + shift)
      // Dew point: the relative humidity es(Td)/es(T) kept at the new temperature.
      let expectedDew = Self.dewPoint(temperature: t + shift, humidity: Self.bolton(td) / Self.bolton(t))
      #expect(abs(try #require(corrected.values[1][hour]) - expectedDew) < 1e-9, "hour \(hour)")
      // Apparent temperature: Steadman's vapour-pressure term at the new temperature.
      let e = { (c: Double) in rh / 100 * 6.105 * exp(17.27 * c / (237.7 + c)) }
      let expectedApparent = at + shift + 0.348 * (e(t + shift) - e(t))
      #expect(abs(try #require(corrected.values[2][hour]) - expectedApparent) < 1e-9, "hour \(hour)")
      // Humidity and everything else unchanged.
      #expect(corrected.values[3][hour] == rh)
      #expect(corrected.values[4][hour] == plain.values[4][hour])
    }
    // Daily summaries take the corrected values too.
    let date = try LocalDate(parsing: "2026-06-20")
    let request = ForecastRequest(latitude: latitude, longitude: longitude, elevation: target)
    let days = try forecaster.daily(request, metrics: [.temp], from: date, days: 1)
    let hours = corrected.values[0].compactMap { $0 }
    #expect(days[0].statistics(of: .temp)?.maximum == hours.max())
    #expect(days[0].statistics(of: .temp)?.minimum == hours.min())

    // The answer's elevation: the target when corrected, the cell's height otherwise.
    for (elevation, expected) in [(Double?.some(target), target), (nil, height)] {
      let query = ForecastQuery(
        request: ForecastRequest(latitude: latitude, longitude: longitude, elevation: elevation), hourly: [.temp],
        start: date, days: 1)
      let json = try query.answer(forecaster).json()
      #expect(json.contains("\"elevation\":\(JSONText.number(expected, decimals: 1)),"), "\(json.prefix(200))")
    }
  }

  @Test func aCubeWrittenBeforeTerrainIsAnsweredAsBefore() throws {
    // The fuzz corpus's WRF cube was written before the terrain section existed.
    let old = SampleFiles.packageRoot + "/Fuzz/Corpus/cube_open/wrf.cube"
    let file = try CubeFile(path: old)
    #expect(!file.hasTerrain && file.terrain == nil)
    let store = SampleFiles.temporaryDirectory("terrain-old")
    defer { SampleFiles.remove(store) }
    let header = file.header
    let path = StoreLayout.path(
      store: store, model: header.model, domain: header.domain, run: UTC.runIdentifier(header.runStart))
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: old, toPath: path)
    let cube = try Cube(path: path)
    let cell = header.cells / 2
    let (latitude, longitude) = (Double(file.latitudes[cell]) + 0.01, Double(file.longitudes[cell]) - 0.01)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let metrics = cube.availableMetrics.map(\.metric).filter { $0 != .precipitationProbability }
    let instants = [cube.firstTime]
    let before = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude), metrics: metrics, instants: instants)
    for selection in CellSelection.allCases {
      let after = try forecaster.hourly(
        ForecastRequest(latitude: latitude, longitude: longitude, cellSelection: selection, elevation: 1_234),
        metrics: metrics, instants: instants)
      #expect(after.values == before.values, "\(selection)")
      #expect(after.provenance.map(\.i) == before.provenance.map(\.i))
      #expect(after.provenance.map(\.j) == before.provenance.map(\.j))
      #expect(after.provenance.first?.elevation == nil)
    }
    let query = ForecastQuery(
      request: ForecastRequest(latitude: latitude, longitude: longitude, elevation: 1_234), hourly: [metrics[0]],
      start: try LocalDate(parsing: String(UTC.iso8601(cube.firstTime).prefix(10))), days: 1)
    #expect(try query.answer(forecaster).json().contains("\"elevation\":null,"))
  }
}
