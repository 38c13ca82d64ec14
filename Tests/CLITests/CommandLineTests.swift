import Foundation
import PointQuery
import Testing
import UTCTime
import _TestSupport

/// Ingests the real allvars file through the CLI into a fresh store; returns (store, cube).
private func ingestAllvars(_ directory: String) throws -> (String, String) {
  let store = "\(directory)/store"
  let outcome = try CommandLineTool.run(["ingest", "--store", store, SampleFiles.allvars])
  #expect(outcome.status == 0, "\(outcome.standardError)")
  return (store, outcome.standardOutput.trimmingCharacters(in: .newlines))
}

/// A failed run must be a clean exit (status 1, not a signal) with one error line that says
/// what is wrong with what.
private func expectCleanFailure(_ arguments: [String], mentions parts: [String]) throws {
  let outcome = try CommandLineTool.run(arguments)
  #expect(outcome.status == 1, "status \(outcome.status) for \(arguments)")
  let lines = outcome.standardError.split(separator: "\n")
  #expect(lines.count == 1, "\(outcome.standardError)")
  for part in parts {
    #expect(outcome.standardError.contains(part), "'\(part)' not in: \(outcome.standardError)")
  }
}

/// A malformed parameter is a usage error (status 64, EX_USAGE): its first line names the
/// parameter and what is wrong, the following lines show the usage.
private func expectUsageError(_ arguments: [String], mentions parts: [String]) throws {
  let outcome = try CommandLineTool.run(arguments)
  #expect(outcome.status == 64, "status \(outcome.status) for \(arguments)")
  let first = outcome.standardError.split(separator: "\n").first.map(String.init) ?? ""
  for part in parts {
    #expect(first.contains(part), "'\(part)' not in: \(first)")
  }
}

@Suite struct CommandLineTests {
  /// bench reports the analytic and the generic locator side by side, each kind in the same
  /// JSON shape as the others (no timings are checked), and leaves out a kind a grid cannot
  /// have, with a note.
  @Test func benchReportsBothLocatorsInTheSameShape() throws {
    let directory = SampleFiles.temporaryDirectory("cli-bench")
    defer { SampleFiles.remove(directory) }
    let (store, _) = try ingestAllvars(directory)
    let outcome = try CommandLineTool.run([
      "bench", "--store", store, "--queries", "2000", "--json", "--kinds", "locate,locate_analytic,locate_generic",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: [String: Double]])
    #expect(Set(json.keys) == ["locate", "locate_analytic", "locate_generic"])
    for (kind, figures) in json {
      #expect(Set(figures.keys) == ["p50_ns", "p90_ns", "p99_ns", "max_ns", "per_second"], "\(kind)")
    }

    let gfs = "\(directory)/gfs"
    #expect(try CommandLineTool.run(["ingest", "--store", gfs, SampleFiles.grid("cf/gfs_1deg_subset.nc")]).status == 0)
    let lattice = try CommandLineTool.run([
      "bench", "--store", gfs, "--queries", "2000", "--json", "--kinds", "locate_analytic,locate_generic",
    ])
    #expect(lattice.status == 0, "\(lattice.standardError)")
    #expect(
      lattice.standardError.contains("locate_analytic left out: the grid is a regular latitude/longitude lattice"))
    #expect(lattice.standardOutput.contains("locate_generic") && !lattice.standardOutput.contains("locate_analytic"))
  }

  @Test func ingestPrintsTheCubeAndQueryAnswersWithItsProvenance() throws {
    let directory = SampleFiles.temporaryDirectory("cli")
    defer { SampleFiles.remove(directory) }
    let (store, cube) = try ingestAllvars(directory)
    #expect(cube == "\(store)/wrf/d01/2005092012.cube")
    let outcome = try CommandLineTool.run([
      "query", "--store", store, "--lat", "30.1348", "--lon", "86.844", "--time", "2005-09-21T03:00:00Z",
      "--metrics", "temp,wind_dir,rain",
    ])
    #expect(outcome.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    #expect(json["time"] as? String == "2005-09-21T03:00:00Z")
    #expect(json["method"] as? String == "nearest")
    #expect(json["run"] as? String == "2005092012")
    #expect(json["domain"] as? String == "d01")
    let cell = try #require(json["cell"] as? [String: Any])
    #expect(cell["i"] as? Int == 4 && cell["j"] as? Int == 4)
    let values = try #require(json["values"] as? [String: Any])
    #expect(Set(values.keys) == ["temp", "wind_dir", "rain"])
    // T2 at (4, 4), step 1, read with ncdump: 277.6399 K.
    let file = try NCFileProbe.value(SampleFiles.allvars, "T2", index: 1 * 80 + 4 * 10 + 4)
    #expect(abs((values["temp"] as? Double ?? .nan) - (file - 273.15)) <= 0.01)
  }

  @Test func aMetricLeftOutAtIngestIsNullWithItsReason() throws {
    let directory = SampleFiles.temporaryDirectory("cli-unavailable")
    defer { SampleFiles.remove(directory) }
    let store = "\(directory)/store"
    let ingest = try CommandLineTool.run(["ingest", "--store", store, SampleFiles.tipD1])
    #expect(ingest.status == 0)
    #expect(
      ingest.standardError.contains("warning: no cloud: CLDFRA, QVAPOR, P, PB, T missing in \(SampleFiles.tipD1)"))
    let outcome = try CommandLineTool.run([
      "query", "--store", store, "--lat", "30", "--lon", "87", "--time", "2005-09-21T00:00Z", "--metrics", "temp,cloud",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    let values = try #require(json["values"] as? [String: Any])
    #expect(values["temp"] is Double)
    #expect(values["cloud"] is NSNull)
    let unavailable = try #require(json["unavailable"] as? [String: String])
    #expect(
      unavailable["cloud"]
        == "not in this cube: derived from CLDFRA, or QVAPOR, P, PB, T, which the WRF input lacked (the ingest warning named the missing ones)"
    )
    #expect(unavailable["temp"] == nil)

    // The forecast names the cube lacking each metric, for new metrics as for old.
    let forecast = try CommandLineTool.run([
      "forecast", "--store", store, "--lat", "30", "--lon", "87", "--start-date", "2005-09-21", "--days", "1",
      "--hourly", "temp,wind_gusts,visibility,is_day", "--daily", "weather_code,precipitation_hours,daylight_duration",
    ])
    #expect(forecast.status == 0, "\(forecast.standardError)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(forecast.standardOutput.utf8)) as? [String: Any])
    let reasons = try #require(document["unavailable"] as? [String: String])
    #expect(Set(reasons.keys) == ["wind_gusts", "visibility", "weather_code", "rain"])
    #expect(reasons["wind_gusts"]?.hasPrefix("not in this cube: derived from PBLH, U, V, PH, PHB") == true)
    #expect(reasons["rain"]?.hasSuffix("lacking in wrf/d01 2005092012") == true, "\(reasons)")
    let hourly = try #require(document["hourly"] as? [String: Any])
    // The run covers 00–03 UTC of the day; the sun rises at 30° N, 87° E just after 00 UTC.
    let isDay = try #require(hourly["is_day"] as? [Any])
    #expect(isDay.prefix(4).compactMap { $0 as? Double } == [0, 1, 1, 1], "is_day needs no input")
    let daily = try #require(document["daily"] as? [String: Any])
    let daylight = try #require((daily["daylight_duration"] as? [Double])?.first)
    #expect(daylight > 11 * 3600 && daylight < 13 * 3600, "near the equinox at 30° N")
  }

  @Test func seriesPrintsCSVWithOneRowPerStep() throws {
    let directory = SampleFiles.temporaryDirectory("cli-series")
    defer { SampleFiles.remove(directory) }
    let (store, _) = try ingestAllvars(directory)
    let outcome = try CommandLineTool.run([
      "series", "--store", store, "--lat", "30", "--lon", "87", "--from", "2005-09-21T00:00Z", "--to",
      "2005-09-21T06:00Z", "--metrics", "temp,rain", "--format", "csv",
    ])
    let lines = outcome.standardOutput.split(separator: "\n")
    #expect(lines.first == "time,temp,rain")
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix("2005-09-21T00:00:00Z,") && lines[1].hasSuffix(","))  // rain unknown at step 0
  }

  @Test func badInputsExitCleanlyWithOneLineNamingTheFileAndTheProblem() throws {
    let directory = SampleFiles.temporaryDirectory("cli-bad")
    defer { SampleFiles.remove(directory) }
    let (store, cube) = try ingestAllvars(directory)
    let good = try Data(contentsOf: URL(fileURLWithPath: cube))

    let truncated = "\(directory)/truncated.cube"
    try good.prefix(good.count - 17).write(to: URL(fileURLWithPath: truncated))
    try expectCleanFailure(["info", truncated], mentions: [truncated, "truncated"])

    let flipped = "\(store)/wrf/d01/2005092013.cube"  // newer run name: the store picks it
    var damaged = good
    damaged[good.count - 40] ^= 0x10
    try damaged.write(to: URL(fileURLWithPath: flipped))
    try expectCleanFailure(["info", flipped], mentions: [flipped, "corrupted: checksum", "does not match"])
    try expectCleanFailure(
      ["query", "--store", store, "--lat", "30", "--lon", "87", "--time", "2005-09-21T03:00Z"],
      mentions: [flipped, "corrupted: checksum", "does not match"])

    let text = "\(directory)/readme.nc"
    try "hello".write(toFile: text, atomically: true, encoding: .utf8)
    try expectCleanFailure(["ingest", "--store", store, text], mentions: [text, "not a NetCDF file"])

    let noT2 = "\(directory)/wrfout_d01_no_t2.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: noT2, dropping: ["T2"])
    try expectCleanFailure(["ingest", "--store", store, noT2], mentions: [noT2, "T2", "required variable is missing"])

    let nowhere = "\(directory)/nowhere/wrfout_d01"
    try expectCleanFailure(["ingest", "--store", store, nowhere], mentions: [nowhere, "no such file"])
    try expectCleanFailure(["info", nowhere], mentions: [nowhere, "No such file"])
  }

  @Test func badQueryParametersNameTheParameter() throws {
    let directory = SampleFiles.temporaryDirectory("cli-params")
    defer { SampleFiles.remove(directory) }
    let (store, _) = try ingestAllvars(directory)
    let base = ["query", "--store", store, "--time", "2005-09-21T03:00Z"]
    try expectCleanFailure(
      base + ["--lat", "45", "--lon", "87"], mentions: ["point 45.0, 87.0 is outside the domain wrf/d01"])
    // A negative longitude is a value, not a flag; here it is simply outside the domain.
    try expectCleanFailure(base + ["--lat", "-30", "--lon", "-87"], mentions: ["point -30.0, -87.0 is outside"])
    try expectUsageError(base + ["--lat", "95", "--lon", "87"], mentions: ["--lat 95.0 is not a latitude in −90…90"])
    try expectUsageError(base + ["--lat", "nan", "--lon", "87"], mentions: ["--lat"])
    try expectUsageError(base + ["--lat", "30", "--lon", "87", "--method", "cubic"], mentions: ["--method"])
    try expectCleanFailure(
      base + ["--lat", "30", "--lon", "87", "--metrics", "temp,tmp"], mentions: ["unknown metric 'tmp'"])
    try expectUsageError(
      ["query", "--store", store, "--lat", "30", "--lon", "87", "--time", "yesterday"],
      mentions: ["--time 'yesterday' is not an ISO 8601 time"])
    try expectCleanFailure(
      ["query", "--store", store, "--lat", "30", "--lon", "87", "--time", "2005-09-23T00:00Z"],
      mentions: ["outside run 2005092012"])
    try expectCleanFailure(
      ["query", "--store", "\(directory)/empty", "--lat", "30", "--lon", "87", "--time", "2005-09-21T00:00Z"],
      mentions: ["no cubes in this store"])
  }

  @Test func runsListsTheStoreAndPruneRemovesWhatNewerRunsCover() throws {
    let directory = SampleFiles.temporaryDirectory("cli-runs")
    defer { SampleFiles.remove(directory) }
    let store = "\(directory)/store"
    let old = try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1), into: store)
    let new = try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2), into: store)
    let listed = try CommandLineTool.run(["runs", "--store", store, "--json"])
    #expect(listed.status == 0, "\(listed.standardError)")
    let runs = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
    #expect(runs.map { $0["run"] as? String } == ["2026062006", "2026062000"])
    #expect(runs.map { $0["path"] as? String } == [new, old])
    #expect(
      runs[0]["first"] as? String == "2026-06-20T06:00:00Z" && runs[0]["last"] as? String == "2026-06-20T12:00:00Z")
    #expect(runs[0]["steps"] as? Int == 7)

    let dry = try CommandLineTool.run(["prune", "--store", store, "--keep", "1", "--dry-run"])
    #expect(dry.standardOutput.contains("wrf/d01 2026062000 would delete \(old)"), "\(dry.standardOutput)")
    #expect(FileManager.default.fileExists(atPath: old))
    let pruned = try CommandLineTool.run(["prune", "--store", store, "--keep", "1"])
    #expect(pruned.status == 0)
    #expect(pruned.standardOutput.contains("wrf/d01 2026062000 deleted \(old)"), "\(pruned.standardOutput)")
    #expect(!FileManager.default.fileExists(atPath: old) && FileManager.default.fileExists(atPath: new))
    try expectUsageError(["prune", "--store", store, "--keep", "0"], mentions: ["--keep 0 must be at least 1"])
    try expectCleanFailure(["runs", "--store", "\(directory)/empty"], mentions: ["empty", "no cubes in this store"])
    try expectUsageError(
      ["sample-run", "--out", "\(directory)/run", "--start", "2026-06-19T12:30Z"],
      mentions: ["--start '2026-06-19T12:30Z' is not a whole UTC hour"])
  }

  @Test func forecastGivesLocalDaysStitchedFromRunsAsJSONAndCSV() throws {
    let directory = SampleFiles.temporaryDirectory("cli-forecast")
    defer { SampleFiles.remove(directory) }
    let store = "\(directory)/store"
    let old = try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 72, seed: 11), into: store)
    let new = try TestStores.publish(TestStores.spec(start: "2026-03-29_06:00:00", hours: 12, seed: 12), into: store)
    let point = ["--lat", "39.4", "--lon", "-8.1"]
    let arguments =
      ["forecast", "--store", store] + point + [
        "--timezone", "Europe/Lisbon", "--start-date", "2026-03-29", "--days", "1", "--hourly", "temp",
        "--daily", "temp_max,temp_min,rain_sum,sunrise",
      ]
    let outcome = try CommandLineTool.run(arguments)
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    let hourly = try #require(json["hourly"] as? [String: Any])
    let times = try #require(hourly["time"] as? [String])
    // Spring forward: 23 local hours, 00:00 WET to 23:00 WEST.
    #expect(times.count == 23 && times.first == "2026-03-29T00:00+00:00" && times.last == "2026-03-29T23:00+01:00")
    #expect(!times.contains { $0.hasPrefix("2026-03-29T01:00") })
    // Each hour's temperature is the newer run's where it covers the hour (06–18 UTC),
    // else the older run's, read here from the cube files themselves.
    let (oldCube, newCube) = (try Cube(path: old), try Cube(path: new))
    let dayStart = try #require(UTC.parseISO8601("2026-03-29T00:00:00Z"))
    func temperature(_ cube: Cube, hour: Int) throws -> Double {
      let location = try cube.locate(latitude: 39.4, longitude: -8.1, method: .nearest)
      return try #require(try cube.value(try cube.metric("temp"), at: location, time: dayStart + Int64(hour) * 3600))
    }
    let temps = try #require(hourly["temp"] as? [Double])
    let sources = try #require(json["sources"] as? [[String: Any]]).map { $0["run"] as? String }
    let hourSources = try #require(json["hourly_sources"] as? [Int])
    for hour in 0..<23 {
      // Lisbon's local day starts at 00 UTC and runs 23 UTC hours.
      let fromNew = hour >= 6 && hour <= 18
      let expected = try temperature(fromNew ? newCube : oldCube, hour: hour)
      #expect(abs(temps[hour] - expected) < 0.006, "hour \(hour)")
      #expect(sources[hourSources[hour]] == (fromNew ? "2026032906" : "2026032800"), "hour \(hour)")
    }
    let daily = try #require(json["daily"] as? [String: Any])
    #expect(daily["time"] as? [String] == ["2026-03-29"])
    #expect((daily["temp_max"] as? [Double])?.first == temps.max())
    #expect((daily["temp_min"] as? [Double])?.first == temps.min())

    // The same in US units, as CSV: rows begin with the local time; °F by the exact factor.
    let csv = try CommandLineTool.run(arguments + ["--units", "us", "--format", "csv"])
    #expect(csv.status == 0, "\(csv.standardError)")
    let lines = csv.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex(of: "time,temp (°F)"))
    let rows = lines[(header + 1)..<(header + 24)]
    for (row, celsius) in zip(rows, temps) {
      let fields = row.split(separator: ",")
      #expect(fields.count == 2)
      #expect(abs((Double(fields[1]) ?? .nan) - (celsius * 9 / 5 + 32)) < 0.011, "\(row)")
    }
    #expect(rows.first?.hasPrefix("2026-03-29T00:00+00:00,") == true)
    #expect(lines.contains("date,temp_max (°F),temp_min (°F),rain_sum (in),sunrise (iso8601)"))

    try expectUsageError(arguments + ["--days", "17"], mentions: ["--days 17 is out of range; allowed: 1…16"])
    try expectUsageError(arguments + ["--timezone", "Europe/Lisbn"], mentions: ["--timezone", "Europe/Lisbn"])
    try expectUsageError(arguments + ["--daily", "temp_maxx"], mentions: ["--daily", "temp_maxx"])
    try expectUsageError(arguments + ["--start-date", "2026-13-40"], mentions: ["--start-date", "2026-13-40"])
    try expectUsageError(arguments + ["--units", "imperial"], mentions: ["--units", "imperial", "si, us, uk, canada"])
    try expectCleanFailure(
      ["forecast", "--store", store, "--lat", "38.1294", "--lon", "8.9341"],
      mentions: ["outside the domain", "did you mean longitude -8.9341"])
  }
}
