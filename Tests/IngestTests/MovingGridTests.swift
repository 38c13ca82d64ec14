import CubeFormat
import Foundation
import Ingest
import Meteorology
import NetCDF
import SampleRun
import Testing
import _TestSupport

/// The first "N % of a cell" of a message, as a number.
private func percentage(in text: String) -> Double? {
  guard let range = text.range(of: #"[0-9.]+ % of a cell"#, options: .regularExpression) else { return nil }
  return Double(text[range].prefix { $0 != " " })
}

@Suite struct MovingGridTests {
  @Test func aMovingNestIngestsIntoACubeWhoseEveryStepHasTheFilesCoordinatesAndTerrain() throws {
    let run = try MovingRun.shared.get()
    let (cube, files) = (run.d02, run.files)
    #expect(cube.positionCount == 9, "nine positions in 24 hours, the sixth hour's being the third's")
    #expect(cube.stepPositions.count == files.latitudes.count)
    for step in files.latitudes.indices {
      let position = cube.position(ofStep: step)
      #expect(cube.latitudes(position: position) == files.latitudes[step], "step \(step)")
      #expect(cube.longitudes(position: position) == files.longitudes[step], "step \(step)")
      #expect(cube.terrain(position: position)?.heights == run.heights[step], "step \(step)")
    }
    // d01 does not move: one position, stored as always.
    #expect(run.d01Positions == 1)
  }

  /// The hour's rain at every cell and step of the moving nest equals the files'
  /// accumulation at that cell minus the accumulation an hour earlier at the cell with the
  /// same coordinates, found by searching the earlier file; where no cell had them (the
  /// leading edge), the cube has no value.
  @Test func rainInAMovingNestIsTheAccumulationAtThePlaceMinusThatAtTheSamePlaceAnHourEarlier() throws {
    let run = try MovingRun.shared.get()
    let (report, cube, files) = (run.report, run.d02, run.files)
    let slot = try #require(cube.header.metrics.firstIndex { $0.name == "rain" })
    let rain = cube.header.metrics[slot]
    var (edge, wetAfterMove, compared) = (0, 0, 0)
    for step in 1..<files.rain.count {
      for cell in 0..<(files.width * files.height) {
        let stored = rain.decode(cube.word(metric: slot, cell: cell, step: step))
        guard let earlier = files.cell(at: step - 1, samePlaceAs: cell, of: step) else {
          #expect(stored == nil, "step \(step) cell \(cell) on the leading edge has \(String(describing: stored))")
          edge += 1
          continue
        }
        let expected = max(0, files.rain[step][cell] - files.rain[step - 1][earlier])
        let value = try #require(stored, "step \(step) cell \(cell)")
        #expect(abs(value - expected) <= rain.scale / 2 + 1e-6, "step \(step) cell \(cell): \(value) vs \(expected)")
        if earlier != cell, expected > 0 { wetAfterMove += 1 }
        compared += 1
      }
    }
    #expect(edge > 0 && wetAfterMove > 0 && compared > 0, "edge \(edge), wet after a move \(wetAfterMove)")
    let warning = report.warnings.filter { $0.hasPrefix("d02 moves") }
    #expect(warning.count == 1, "\(report.warnings)")
    #expect(warning.first?.contains("rain") == true && warning.first?.contains("at \(edge) cell-steps") == true)
  }

  @Test func aFirstStepOffByLessThanTheToleranceIngestsWithOneWarningNamingTheOffsetAndTheStep() throws {
    let directory = SampleFiles.temporaryDirectory("first-step-offset")
    defer { SampleFiles.remove(directory) }
    // 0.004° of latitude is 445 m, 4.9 % of a 9 km cell; the two later steps agree.
    let spoilt = try spoiltRun(hours: 2, in: directory) { step, latitude, values in
      if step == 0, latitude { values = values.map { $0 + 0.004 } }
    }
    let report = try Ingestor.run([spoilt], options: .init(store: "\(directory)/store"))
    let warnings = report.warnings.filter { $0.contains("XLAT/XLONG") }
    #expect(warnings.count == 1, "\(report.warnings)")
    let warning = try #require(warnings.first)
    #expect(
      warning.hasPrefix("\(spoilt): XLAT/XLONG at step 0 (2026-06-20T00:00:00Z) are off by up to 0.004"), "\(warning)")
    // 445 m over cells of 9 km on the projection plane, 8.9 to 9.3 km on the sphere.
    #expect(percentage(in: warning).map { (4.7...5.1).contains($0) } == true, "\(warning)")
    // The coordinates stored are those the later steps share.
    let cube = try CubeFile(path: try #require(report.published.first).path)
    let file = try NCFile.open(spoilt)
    defer { file.close() }
    #expect(cube.latitudes == (try file.readFloats("XLAT", start: [1, 0, 0], count: [1, 80, 135])))
  }

  @Test func aFirstStepOffByMoreThanTheToleranceIsRefusedNamingTheFileTheStepAndTheCell() throws {
    let directory = SampleFiles.temporaryDirectory("first-step-far")
    defer { SampleFiles.remove(directory) }
    // 0.02° of latitude is 2.2 km, 25 % of a cell.
    let spoilt = try spoiltRun(hours: 1, in: directory) { step, latitude, values in
      if step == 0, latitude { values = values.map { $0 + 0.02 } }
    }
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith: "\(spoilt): XLAT/XLONG: the grid changes within the run at step 1 (2026-06-20T01:00:00Z): cell (",
      contains: [
        "in \(spoilt) at step 0 of the run (",
        "% of a cell away); neither the same grid (within 10.0 % of a cell) nor a move by whole cells",
      ],
      check: { text in
        // 2.2 km over cells of 8.9 to 9.3 km.
        #expect(percentage(in: text).map { (23...25.5).contains($0) } == true, "\(text)")
      })
  }

  /// Every step must lie within the tolerance of the coordinates its position stores (those
  /// most steps share), not only of the first step's: step 3 is 6 % of a cell from step 0
  /// but 12 % from steps 1 and 2.
  @Test func aStepBeyondTheToleranceOfTheCoordinatesMostStepsShareIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("drift")
    defer { SampleFiles.remove(directory) }
    // 0.0049° of latitude is 545 m, about 6 % of a 9 km cell.
    let spoilt = try spoiltRun(hours: 3, in: directory) { step, latitude, values in
      guard latitude, step == 0 || step == 3 else { return }
      values = values.map { $0 + (step == 0 ? 0.0049 : 0.0098) }
    }
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith: "\(spoilt): XLAT/XLONG: the grid changes within the run at step 3 (2026-06-20T03:00:00Z): cell (",
      contains: ["where most steps at this position have it: beyond the 10.0 % of a cell"])
  }

  /// A warning about a bad input value places its cell in the grid of the value's step,
  /// not the run's first position.
  @Test func aBadValueInAMovedStepIsPlacedWithThatStepsCoordinates() throws {
    let directory = SampleFiles.temporaryDirectory("moved-warning")
    defer { SampleFiles.remove(directory) }
    let run = try nestedRun(hours: 3, in: "\(directory)/run")
    // At 3 h the nest has moved twice; its T2 at cell (5, 4) is NaN.
    let spoilt = "\(directory)/wrfout_d02_2026-06-20_03:00:00"
    try WRFFixture.copy(
      run.d02[3], to: spoilt, format: .classic64BitOffset,
      transform: { name, values in
        name == "T2" ? values.enumerated().map { $0.offset == 4 * 60 + 5 ? .nan : $0.element } : values
      })
    let report = try Ingestor.run(Array(run.d02.prefix(3)) + [spoilt], options: .init(store: "\(directory)/store"))
    let file = try NCFile.open(spoilt)
    defer { file.close() }
    let latitude = try file.readFloats("XLAT", start: [0, 4, 5], count: [1, 1, 1])[0]
    let longitude = try file.readFloats("XLONG", start: [0, 4, 5], count: [1, 1, 1])[0]
    let warning = try #require(report.warnings.first { $0.hasPrefix("T2: 1 value") }, "\(report.warnings)")
    #expect(warning.contains("cell i=5, j=4 (lat \(latitude), lon \(longitude))"), "\(warning)")
    let cube = try CubeFile(path: try #require(report.published.first).path)
    #expect(cube.position(ofStep: 3) != 0)
  }

  @Test func aScrambledGridIsRefusedNamingTheFirstScrambledCell() throws {
    let directory = SampleFiles.temporaryDirectory("scrambled")
    defer { SampleFiles.remove(directory) }
    // Cells (30, 20) and (31, 20) swap places at step 1.
    let spoilt = try spoiltRun(hours: 1, in: directory) { step, _, values in
      if step == 1 { values.swapAt(20 * 135 + 30, 20 * 135 + 31) }
    }
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith:
        "\(spoilt): XLAT/XLONG: the grid changes within the run at step 1 (2026-06-20T01:00:00Z): cell (30, 20) is at",
      contains: ["where a move by 0 columns and 0 rows", "neither the same grid nor a move by whole cells"])
  }

  @Test func aGridMovedByAFractionOfACellIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("half-cell")
    defer { SampleFiles.remove(directory) }
    // Half a cell east at step 1: each cell midway between two of step 0's.
    let spoilt = try spoiltRun(hours: 1, in: directory) { step, _, values in
      guard step == 1 else { return }
      values = values.indices.map { index in
        index % 135 == 134
          ? values[index] + (values[index] - values[index - 1]) / 2 : (values[index] + values[index + 1]) / 2
      }
    }
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith: "\(spoilt): XLAT/XLONG: the grid changes within the run at step 1 (2026-06-20T01:00:00Z): cell (",
      contains: ["at step 0 of the run (", "neither the same grid (within 10.0 % of a cell) nor a move by whole cells"])
  }

  @Test func nanCoordinatesAtALaterStepAreRefusedNamingTheCell() throws {
    let directory = SampleFiles.temporaryDirectory("nan-step")
    defer { SampleFiles.remove(directory) }
    let spoilt = try spoiltRun(hours: 1, in: directory) { step, latitude, values in
      if step == 1, latitude { values[2 * 135 + 3] = .nan }
    }
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith:
        "\(spoilt): XLAT/XLONG: cell (3, 2) at step 1 (2026-06-20T01:00:00Z) is at latitude nan, longitude")
  }

  @Test func aFileOfTheRunWithAGridOfADifferentShapeIsRefusedNamingBothFiles() throws {
    let directory = SampleFiles.temporaryDirectory("other-shape")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 1
    let files = try SampleRunGenerator.write(spec, to: "\(directory)/run")
    spec.westEast = 134
    let narrow = try SampleRunGenerator.write(spec, to: "\(directory)/narrow")
    expectIngestRefused(
      [files[0], narrow[1]], store: "\(directory)/store",
      startsWith:
        "\(narrow[1]): grid is 134×80 at step 0 (2026-06-20T01:00:00Z) but \(files[0]) of the same domain d01 is 135×80"
    )
  }

  /// A real vortex-following nest (wrf-python's Katrina d02, 3-hourly): every step is a
  /// position of its own, with the file's coordinates, and each move is the one a search
  /// of the files' coordinates finds; its rain is de-accumulated by place, an hourly
  /// third of the 3-hour amount, and missing where the place was outside the nest.
  @Test func aRealMovingNestIngestsWithTheMovesOfItsFileAndRainByPlace() throws {
    let directory = SampleFiles.temporaryDirectory("katrina")
    defer { SampleFiles.remove(directory) }
    let path = SampleFiles.grid("wrf/wrf_katrina_moving_d02.nc")
    let report = try Ingestor.run([path], options: .init(store: directory))
    // Its accumulations' float round-off below 0 is no implausible value.
    #expect(!report.warnings.contains { $0.contains("outside its range") }, "\(report.warnings)")
    let cube = try CubeFile(path: try #require(report.published.first).path)
    let file = try NCFile.open(path)
    defer { file.close() }
    let (width, height, steps) = (48, 48, 4)
    let read = { (name: String) in try file.readRaw(name, start: [0, 0, 0], count: [steps, height, width]) }
    let (latitudes, longitudes) = (try read("XLAT"), try read("XLONG"))
    let (rainc, rainnc, rainsh) = (try read("RAINC"), try read("RAINNC"), try read("RAINSH"))
    let cells = width * height
    #expect(cube.positionCount == 4)
    #expect(cube.stepPositions == [0, 1, 2, 3])
    let slot = try #require(cube.header.metrics.firstIndex { $0.name == "rain" })
    let rain = cube.header.metrics[slot]
    var moves: [String] = []
    for step in 0..<steps {
      let position = cube.position(ofStep: step)
      let here = (step * cells)..<((step + 1) * cells)
      #expect(cube.latitudes(position: position) == latitudes[here].map(Float.init), "step \(step)")
      #expect(cube.longitudes(position: position) == longitudes[here].map(Float.init), "step \(step)")
      guard step > 0 else { continue }
      // The earlier step's cell with the same coordinates as each cell, by search.
      var earlierCell: [Int: Int] = [:]
      for cell in 0..<cells {
        let before = ((step - 1) * cells)..<(step * cells)
        earlierCell[cell] = before.first {
          latitudes[$0] == latitudes[step * cells + cell] && longitudes[$0] == longitudes[step * cells + cell]
        }.map { $0 - (step - 1) * cells }
      }
      let centre = 24 * width + 24
      let moved = try #require(earlierCell[centre])
      moves.append("\(moved % width - 24),\(moved / width - 24)")
      for cell in 0..<cells {
        let stored = rain.decode(cube.word(metric: slot, cell: cell, step: step))
        guard let earlier = earlierCell[cell] else {
          #expect(stored == nil, "step \(step) cell \(cell) on the leading edge")
          continue
        }
        let now = step * cells + cell
        let before = (step - 1) * cells + earlier
        let total = (rainc[now] + rainnc[now] + rainsh[now]) - (rainc[before] + rainnc[before] + rainsh[before])
        // RAINC holds a few values of −7.5e-9 mm: float round-off, read as they are.
        let value = try #require(stored, "step \(step) cell \(cell)")
        #expect(abs(value - max(0, total) / 3) <= rain.scale / 2 + 1e-6, "step \(step) cell \(cell)")
      }
    }
    // The place of cell (i, j) was cell (i − 6, j + 3) an output earlier: the nest moved
    // 6 cells west and 3 north, then 3 west and 6 north, then 6 west and 3 north.
    #expect(moves == ["-6,3", "-3,6", "-6,3"])
  }

  /// A real file whose first step's coordinates are off by up to 0.018° (salem's
  /// `wrf_cropped.nc`, 30 km): one warning names the step and the offset, and the cube
  /// stores the coordinates the three later steps share.
  @Test func aRealFileWhoseFirstStepIsSlightlyOffIngestsWithOneWarning() throws {
    let directory = SampleFiles.temporaryDirectory("first-step-real")
    defer { SampleFiles.remove(directory) }
    let path = SampleFiles.grid("wrf/wrf_first_step_offset.nc")
    let report = try Ingestor.run([path], options: .init(store: directory))
    let warnings = report.warnings.filter { $0.contains("XLAT/XLONG") }
    #expect(warnings.count == 1, "\(report.warnings)")
    #expect(
      warnings.first?.hasPrefix("\(path): XLAT/XLONG at step 0 (2008-10-26T12:00:00Z) are off by up to 0.01") == true)
    let cube = try CubeFile(path: try #require(report.published.first).path)
    #expect(cube.positionCount == 1)
    let file = try NCFile.open(path)
    defer { file.close() }
    for step in 1..<4 {
      #expect(cube.latitudes == (try file.readFloats("XLAT", start: [step, 0, 0], count: [1, 26, 26])))
      #expect(cube.longitudes == (try file.readFloats("XLONG", start: [step, 0, 0], count: [1, 26, 26])))
    }
  }

  /// CF grids never move, but their files get the same tolerance: a second file 0.05° off
  /// (7 % of a 1° cell) is the same grid with one warning; 0.2° off is refused.
  @Test func cfFilesWithinTheToleranceOfTheFirstAreOneGridWithOneWarning() throws {
    let directory = SampleFiles.temporaryDirectory("cf-tolerance")
    defer { SampleFiles.remove(directory) }
    let (first, near, far) = ("\(directory)/first.nc", "\(directory)/near.nc", "\(directory)/far.nc")
    try writeSmallCF(first)
    try writeSmallCF(near, lats: [44.05, 43.05, 42.05, 41.05, 40.05], hours: [2, 3])
    try writeSmallCF(far, lats: [44.2, 43.2, 42.2, 41.2, 40.2], hours: [2, 3])
    let report = try Ingestor.run([first, near], options: .init(store: "\(directory)/store"))
    let warnings = report.warnings.filter { $0.contains("lat/lon") }
    #expect(warnings.count == 1, "\(report.warnings)")
    #expect(warnings.first?.hasPrefix("\(near): lat/lon are off by up to 0.0") == true, "\(warnings)")
    // 0.05° of latitude (5.6 km) over the shorter side of a 1° cell at 44° N (80 km).
    #expect(warnings.first.flatMap(percentage(in:)).map { (6.5...7.5).contains($0) } == true, "\(warnings)")
    #expect(warnings.first?.hasSuffix("the first file's are stored") == true, "\(warnings)")
    expectIngestRefused(
      [first, far], store: "\(directory)/refused",
      startsWith: "\(far): lat/lon: the grid changes within the run: cell (0, 0) is at latitude 44.2",
      contains: ["but at 44.0, 350.0 in \(first)", "; ingest one grid at a time"])
  }

  /// The cost ingest predicts for the moving nest covers its cube, positions section
  /// included, and grows with the positions.
  @Test func theDiskIngestPredictsForAMovingNestCoversItsCube() throws {
    let run = try MovingRun.shared.get()
    let cost = try #require(run.report.costs.first { $0.positions > 1 })
    #expect(cost.positions == 9)
    let size = run.d02Size
    #expect(size > 0 && cost.disk >= Double(size), "predicted \(cost.disk), cube \(size)")
    let fixed = IngestCost(
      width: cost.width, height: cost.height, steps: cost.steps, levels: cost.levels, metrics: cost.metrics,
      terrain: true)
    // Eight further positions of 60 × 45 cells: coordinates (8 bytes a cell) and terrain (5).
    #expect(cost.disk - fixed.disk >= 8 * 2700 * 13, "\(cost.disk) vs \(fixed.disk)")
    #expect(cost.summary.contains("9 grid positions"))
  }
}
