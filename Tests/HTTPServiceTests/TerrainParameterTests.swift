import CubeFormat
import Forecast
import Foundation
import NwpcubeFace
import PointQuery
import Store
import Testing
import _TestSupport

@testable import HTTPService

/// `/v1/forecast`'s `elevation` and `cell_selection` against a real server over the sample
/// run: the same documents the library renders with those settings, `land` by default,
/// and one-line errors naming the parameter.
@Suite struct TerrainParameterTests {
  static func get(_ query: String) async throws -> HTTPTestResponse {
    try await SampleService.server().client.get("/v1/forecast?\(query)")
  }

  /// A point in a sea cell next to land in the sample run, found by scanning its mask.
  static func coastalPoint() throws -> (latitude: Double, longitude: Double) {
    let cube = try #require(try ForecastStore(path: SampleService.store).catalog.cubes.first)
    let (width, height) = (cube.header.width, cube.header.height)
    let (latitudes, longitudes) = (cube.file.latitudes, cube.file.longitudes)
    for j in 1..<(height - 1) {
      for i in 1..<(width - 1) where cube.file.isLand(cell: j * width + i) == false {
        let cell = j * width + i
        if cube.file.isLand(cell: cell + 1) == true {
          // A fifth of the way east: nearer the sea cell, with land beside it.
          return (
            Double(latitudes[cell]) + 0.2 * Double(latitudes[cell + 1] - latitudes[cell]),
            Double(longitudes[cell]) + 0.2 * Double(longitudes[cell + 1] - longitudes[cell])
          )
        }
      }
    }
    throw CubeError(path: SampleService.store, reason: "no coastal cell")
  }

  /// What an answer says: its cell, its elevation and its hourly columns.
  struct Said: Equatable {
    var cell: [Int]
    var elevation: Double?
    var columns: [[Double?]]
  }

  @Test func answersAreTheLibrarysWithTheSameSelectionAndElevation() async throws {
    let forecaster = try #require(SampleService.forecaster)
    let (latitude, longitude) = try Self.coastalPoint()
    let point =
      "latitude=\(latitude)&longitude=\(longitude)&hourly=temp,dew_point&start_date=2026-06-21&end_date=2026-06-21"
    /// The library's answer with the same settings, rounded as the route writes it.
    func expected(_ selection: CellSelection, _ elevation: Double?) throws -> Said {
      let request = ForecastRequest(
        latitude: latitude, longitude: longitude, cellSelection: selection, elevation: elevation)
      let hourly = try #require(
        try ForecastQuery(
          request: request, hourly: [.temp, .dewPoint], start: try LocalDate(parsing: "2026-06-21"), days: 1
        ).answer(forecaster).hourly)
      let source = try #require(hourly.provenance.first)
      return Said(
        cell: [source.i, source.j], elevation: request.answerElevation(source).map { ($0 * 10).rounded() / 10 },
        columns: zip(hourly.metrics, hourly.values).map { metric, column in
          let scale = pow(10, Double(metric.decimals))
          return column.map { $0.map { ($0 * scale).rounded() / scale } }
        })
    }
    func said(_ answer: HTTPTestResponse) throws -> Said {
      let object = try #require(answer.json as? [String: Any], "\(answer.body.prefix(300))")
      let cell = try #require(object["cell"] as? [String: Any])
      let hourly = try #require(object["hourly"] as? [String: Any])
      return Said(
        cell: [cell["i"] as? Int ?? -1, cell["j"] as? Int ?? -1], elevation: object["elevation"] as? Double,
        columns: ["temp", "dew_point"].map { name in
          (hourly[name] as? [Any] ?? []).map { ($0 as? NSNumber)?.doubleValue }
        })
    }
    let byDefault = try await Self.get(point)
    #expect(byDefault.status == 200, "\(byDefault.body.prefix(300))")
    #expect(try said(byDefault) == (try expected(.land, nil)))
    #expect(
      try expected(.land, nil).cell != (try expected(.sea, nil)).cell, "a coastal point's land and sea cells differ")
    for selection in CellSelection.allCases {
      let answer = try await Self.get("\(point)&cell_selection=\(selection.rawValue)&elevation=12.5")
      #expect(try said(answer) == (try expected(selection, 12.5)), "\(selection)")
      #expect(answer.body.contains("\"elevation\":12.5,"))
    }
    let off = try await Self.get("\(point)&elevation=nan&cell_selection=sea")
    #expect(try said(off) == (try expected(.sea, nil)))
  }

  @Test func badValuesAreRefusedNamingTheParameter() async throws {
    let point = "latitude=38.1294&longitude=-8.9341&hourly=temp"
    let cases = [
      ("\(point)&cell_selection=coast", "cell_selection: 'coast' is not allowed; give nearest or land or sea"),
      ("\(point)&elevation=high", "elevation: 'high' is not a decimal number; give metres"),
      ("\(point)&elevation=inf", "elevation: 'inf' is not a decimal number"),
      ("\(point)&elevation=12000", "elevation: '12000' is out of range"),
      ("\(point)&elevation=1,2", "elevation: has 2 values for 1 locations"),
    ]
    for (query, reason) in cases {
      let answer = try await Self.get(query)
      #expect(answer.status == 400, "\(query): \(answer.body)")
      #expect(answer.errorMessage?.contains(reason) == true, "\(query): \(answer.body)")
    }
    let two = try await Self.get(
      "latitude=38.1294,41.1579&longitude=-8.9341,-8.6291&hourly=temp&elevation=100,nan"
        + "&start_date=2026-06-21&end_date=2026-06-21")
    let answers = try #require(two.json as? [[String: Any]], "\(two.body.prefix(300))")
    #expect(answers[0]["elevation"] as? Double == 100)
    #expect(answers[1]["elevation"] as? Double != 100)
  }
}
