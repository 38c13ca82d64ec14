import Forecast
import Foundation
import Meteogram
import Meteorology
import Testing
import _TestSupport

@testable import HTTPService

/// `/v1/meteogram.svg` read back as a reader of the picture would: the SVG parses as XML,
/// the axes' scales come from their drawn ticks (`data-value` and `data-time` beside each
/// tick's position), and the points of the lines and the tops of the bars, mapped back
/// through those scales, are the library's hourly values at the same point.
@Suite struct MeteogramEndpointTests {
  static let query = "latitude=38.1294&longitude=-8.9341&days=3&timezone=Europe/Lisbon"
  /// Today at the sample server's clock (2026-06-21 10:07 UTC) in Lisbon.
  static let today = LocalDate(year: 2026, month: 6, day: 21)

  /// A linear axis read from its ticks: pixel = offset + slope · value.
  struct Axis {
    let offset: Double
    let slope: Double

    func value(at pixel: Double) -> Double { (pixel - offset) / slope }
  }

  /// The scale of the axis with `id`, fitted through its ticks' `key` values and `coordinate`
  /// pixels; every tick must lie on the fitted line.
  static func axis(_ svg: XMLTree, id: String, key: String, coordinate: String) throws -> Axis {
    let group = try #require(svg.root.descendants.first { $0.attributes["id"] == id }, "no element \(id)")
    let ticks = group.descendants.filter { $0.attributes["class"] == "tick" }.compactMap { tick -> (Double, Double)? in
      guard let value = tick.attributes[key].flatMap(Double.init),
        let pixel = tick.attributes[coordinate].flatMap(Double.init)
      else { return nil }
      return (value, pixel)
    }
    try #require(ticks.count >= 2, "\(id) has \(ticks.count) readable ticks")
    let (first, last) = (ticks[0], ticks[ticks.count - 1])
    let slope = (last.1 - first.1) / (last.0 - first.0)
    let axis = Axis(offset: first.1 - slope * first.0, slope: slope)
    for (value, pixel) in ticks {
      #expect(abs(axis.offset + slope * value - pixel) < 0.02, "\(id): tick \(value) at \(pixel) is off the line")
    }
    return axis
  }

  /// The points of the lines (and lone points) of `series`, as (x, y) pixels.
  static func points(_ svg: XMLTree, series: String) -> [(x: Double, y: Double)] {
    var points: [(x: Double, y: Double)] = []
    for element in svg.root.descendants where element.attributes["data-series"] == series {
      if element.name == "polyline", let text = element.attributes["points"] {
        for pair in text.split(separator: " ") {
          let numbers = pair.split(separator: ",").compactMap { Double($0) }
          if numbers.count == 2 { points.append((numbers[0], numbers[1])) }
        }
      } else if element.name == "circle", let x = element.attributes["cx"].flatMap(Double.init),
        let y = element.attributes["cy"].flatMap(Double.init)
      {
        points.append((x, y))
      }
    }
    return points
  }

  /// The library's hourly values at the test point for the same days, zone and units.
  static func expected(_ units: UnitSystem, _ metrics: [Metric]) throws -> HourlySeries {
    let forecaster = try #require(SampleService.forecaster)
    let request = ForecastRequest(
      latitude: SampleService.latitude, longitude: SampleService.longitude,
      timeZone: try LocalTimeZone.named("Europe/Lisbon"),
      units: units, cellSelection: .land)
    return try forecaster.days(request, metrics: metrics, from: try #require(today), count: 3)
  }

  /// Checks that the points of `series`, read through the time axis and the `axisID`
  /// axis, are `values` at their hours: one point per hour with a value, none elsewhere.
  static func expectLine(
    _ svg: XMLTree, series: String, axisID: String, hours: [LocalHour], values: [Double?], tolerance: Double
  ) throws {
    let time = try axis(svg, id: "axis-time", key: "data-time", coordinate: "x1")
    let scale = try axis(svg, id: axisID, key: "data-value", coordinate: "y1")
    let points = points(svg, series: series)
    let byInstant = Dictionary(zip(hours.map(\.instant), values), uniquingKeysWith: { first, _ in first })
    var seen: Set<Int64> = []
    for point in points {
      let read = time.value(at: point.x)
      let instant = Int64((read / 3_600).rounded()) * 3_600
      #expect(abs(read - Double(instant)) < 60, "\(series): x \(point.x) is \(read), not on an hour")
      let value = scale.value(at: point.y)
      guard let entry = byInstant[instant], let want = entry else {
        Issue.record("\(series): a point at \(instant) where the forecast has no value")
        continue
      }
      #expect(abs(value - want) <= tolerance, "\(series) at \(instant): drawn \(value), forecast \(want)")
      #expect(seen.insert(instant).inserted, "\(series): two points at \(instant)")
    }
    let covered = zip(hours, values).filter { $0.1 != nil }.count
    #expect(points.count == covered, "\(series): \(points.count) points for \(covered) hours with values")
  }

  @Test(arguments: ["metric", "imperial"])
  func temperatureAndFeelsLikeLinesReadBackAsTheForecastsHourlyValues(units: String) async throws {
    let client = try await SampleService.server().client
    let answer = try await client.get("/v1/meteogram.svg?\(Self.query)&units=\(units)")
    #expect(answer.status == 200, "\(answer.body.prefix(300))")
    #expect(answer.mediaType == "image/svg+xml")
    let svg = try #require(XMLTree.parse(answer.body), "the meteogram is not well-formed XML")
    #expect(svg.root.name == "svg")
    let system: UnitSystem = units == "metric" ? .si : .us
    let series = try Self.expected(system, [.temp, .apparentTemp])
    #expect(
      svg.root.descendants.first { $0.attributes["id"] == "axis-temperature" }?.attributes["data-unit"]
        == system.label(of: .temp))
    // Values are drawn to 0.01 px on an axis of at least 20 px per unit: well within 0.01.
    for (name, column) in [("temperature", 0), ("apparent_temperature", 1)] {
      try Self.expectLine(
        svg, series: name, axisID: "axis-temperature", hours: series.hours, values: series.values[column],
        tolerance: 0.01)
    }
    #expect(series.values[0].compactMap { $0 }.count >= 40, "the sample run covers most of the three days")
  }

  /// The same temperatures as `/v1/forecast` prints for the point, zone and days.
  @Test func temperatureLineReadsBackAsV1ForecastsTemperatures() async throws {
    let client = try await SampleService.server().client
    let svg = try #require(XMLTree.parse(try await client.get("/v1/meteogram.svg?\(Self.query)").body))
    let forecast = try await client.get(
      "/v1/forecast?\(Self.query.replacingOccurrences(of: "days=", with: "forecast_days="))"
        + "&hourly=temperature_2m&timeformat=unixtime")
    let hourly = try #require((forecast.json as? [String: Any])?["hourly"] as? [String: Any])
    let times = try #require(hourly["time"] as? [Int]).map { LocalHour(instant: Int64($0), utcOffset: 3_600) }
    let values = try #require(hourly["temperature_2m"] as? [Any]).map { $0 as? Double }
    // /v1/forecast prints two decimals.
    try Self.expectLine(
      svg, series: "temperature", axisID: "axis-temperature", hours: times, values: values, tolerance: 0.006)
  }

  /// Each precipitation bar spans the hour its amount fell in, and its top reads back as
  /// the amount; hours without rain have no bar.
  @Test func precipitationBarsReadBackAsTheHourlyAmounts() async throws {
    let client = try await SampleService.server().client
    let svg = try #require(XMLTree.parse(try await client.get("/v1/meteogram.svg?\(Self.query)").body))
    let time = try Self.axis(svg, id: "axis-time", key: "data-time", coordinate: "x1")
    let scale = try Self.axis(svg, id: "axis-precipitation", key: "data-value", coordinate: "y1")
    let series = try Self.expected(.si, [.rain])
    let amounts = Dictionary(
      zip(series.hours.map(\.instant), series.values[0]), uniquingKeysWith: { first, _ in first })
    let bars = svg.root.descendants.filter { $0.attributes["data-series"] == "precipitation" }
    var seen: Set<Int64> = []
    for bar in bars {
      let numbers = ["x", "y", "width", "height"].map { bar.attributes[$0].flatMap(Double.init) ?? .nan }
      let middle = time.value(at: numbers[0] + numbers[2] / 2)
      // The amount of the hour ending at the step is drawn over that hour.
      let instant = Int64(((middle + 1_800) / 3_600).rounded()) * 3_600
      #expect(abs(middle + 1_800 - Double(instant)) < 60, "a bar centred at \(middle) is not over an hour")
      let top = scale.value(at: numbers[1])
      let bottom = scale.value(at: numbers[1] + numbers[3])
      #expect(abs(bottom) < 0.001, "the bar at \(instant) does not stand on 0 (\(bottom))")
      let want = try #require(amounts[instant] ?? nil, "a bar at \(instant), where there is no amount")
      #expect(abs(top - want) < 0.005, "precipitation at \(instant): drawn \(top), forecast \(want)")
      seen.insert(instant)
    }
    let wet = amounts.filter { ($0.value ?? 0) > 0 }.keys
    #expect(Set(wet) == seen, "hours with rain \(wet.count), bars \(seen.count)")
    #expect(!seen.isEmpty, "the sample run rains at the point in three days")
  }

  /// What the picture shows besides the lines: icons from the weather codes, wind arrows,
  /// cloud layers, night shading, a legend, and the run and domain in the caption.
  @Test func theMeteogramShowsIconsWindCloudNightAndItsCaption() async throws {
    let client = try await SampleService.server().client
    let answer = try await client.get("/v1/meteogram.svg?\(Self.query)")
    let svg = try #require(XMLTree.parse(answer.body))
    let all = svg.root.descendants
    let caption = try #require(all.first { $0.attributes["id"] == "caption" }?.text)
    let run = try #require(try Self.expected(.si, [.temp]).provenance.first)
    let runText = "\(run.run.prefix(4))-\(run.run.dropFirst(4).prefix(2))-\(run.run.dropFirst(6).prefix(2))"
    #expect(caption.contains(runText) && caption.contains("\(run.model)/\(run.domain)"), "\(caption)")
    #expect(caption.contains("Europe/Lisbon"), "\(caption)")
    let icons = all.filter { $0.attributes["class"] == "icon" }
    #expect(icons.count >= 10, "\(icons.count) icons")
    for icon in icons {
      let uses = icon.descendants.filter { $0.name == "use" }.compactMap { $0.attributes["href"] }
      #expect(!uses.isEmpty && uses.allSatisfy { href in all.contains { "#" + ($0.attributes["id"] ?? "") == href } })
    }
    #expect(all.filter { $0.attributes["class"] == "arrow" }.count >= 10)
    #expect(!all.filter { $0.attributes["data-series"] == "wind_speed" }.isEmpty)
    #expect(!all.filter { $0.attributes["data-series"] == "wind_gusts" }.isEmpty)
    for layer in ["cloud_low", "cloud_mid", "cloud_high"] {
      #expect(all.contains { $0.attributes["data-series"] == layer }, "no \(layer) row")
    }
    let night = try #require(all.first { $0.attributes["id"] == "night" })
    #expect(night.children.count >= 2, "two nights in three days")
    #expect(all.first { $0.attributes["id"] == "legend" }?.descendants.contains { $0.text == "Feels like" } == true)
    #expect(answer.headers["cache-control"]?.contains("max-age=") == true)
  }

  /// The ETag names the picture: asking again with it gets 304 and no body.
  @Test func aClientWithTheTagGetsNotModified() async throws {
    let client = try await SampleService.server().client
    let first = try await client.get("/v1/meteogram.svg?\(Self.query)")
    let tag = try #require(first.headers["etag"])
    func ask(_ tags: String) async throws -> HTTPTestResponse {
      let request =
        "GET /v1/meteogram.svg?\(Self.query) HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(tags)\r\n"
        + "Connection: close\r\n\r\n"
      return try await client.send(Array(request.utf8))
    }
    // The tag alone, in a list, weakly and `*` all revalidate (RFC 9110's weak comparison).
    for tags in [tag, "\"other\", \(tag)", "W/\(tag)", "*"] {
      let again = try await ask(tags)
      #expect(again.status == 304 && again.body.isEmpty, "\(tags)")
    }
    #expect(try await ask("\"other\"").status == 200)
    #expect(try await client.get("/v1/meteogram.svg?\(Self.query)").headers["etag"] == tag)
  }

  /// PNG through rsvg-convert when it is installed; when the server has none, 503 with a
  /// JSON error that names the missing program.
  @Test func pngComesFromRsvgConvertOr503WhenItIsMissing() async throws {
    var settings = SampleService.settings
    settings.rsvgConvert = "/nonexistent/rsvg-convert"
    let without = try await LiveServer.start(settings).client
    let refused = try await without.get("/v1/meteogram.svg?\(Self.query)&format=png")
    #expect(refused.status == 503)
    #expect(refused.openMeteoReason?.contains("rsvg-convert") == true, "\(refused.body)")
    #expect(try await without.get("/v1/meteogram.svg?\(Self.query)").status == 200, "SVG is served without it")

    guard SVGProbe.rsvgConvertInstalled else {
      print("MeteogramEndpointTests: rsvg-convert is not on PATH (apt-get install librsvg2-bin); PNG not checked")
      return
    }
    let client = try await SampleService.server().client
    let bytes = try await client.raw("GET", "/v1/meteogram.svg?\(Self.query)&format=png")
    let head = String(decoding: bytes.prefix(400), as: UTF8.self).lowercased()
    #expect(head.hasPrefix("http/1.1 200") && head.contains("content-type: image/png"), "\(head)")
    let separator = Array("\r\n\r\n".utf8)
    let end = try #require(bytes.indices.first { bytes[$0...].starts(with: separator) })
    #expect(bytes[(end + 4)...].starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // Revalidating a PNG needs no renderer: the server without one answers this PNG's tag
    // with 304, and the SVG's tag is another.
    let tag = try #require(
      head.split(separator: "\r\n").first { $0.hasPrefix("etag:") }.map {
        $0.dropFirst(5).trimmingCharacters(in: .whitespaces)
      })
    let revalidation =
      "GET /v1/meteogram.svg?\(Self.query)&format=png HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \(tag)\r\n"
      + "Connection: close\r\n\r\n"
    #expect(try await without.send(Array(revalidation.utf8)).status == 304)
    #expect(try await without.get("/v1/meteogram.svg?\(Self.query)").headers["etag"] != tag)
  }

  /// A renderer that never finishes is stopped at the time limit, and the request gets an
  /// error naming it rather than waiting for ever: here a program that sleeps for ten
  /// minutes stands where rsvg-convert would be.
  @Test func aRendererThatHangsIsStoppedAtTheTimeLimit() throws {
    let directory = SampleFiles.temporaryDirectory("hanging-renderer")
    defer { SampleFiles.remove(directory) }
    let program = directory + "/rsvg-convert"
    try "#!/bin/sh\nexec sleep 600\n".write(toFile: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
    let rasterizer = SVGRasterizer(path: program, timeLimit: 0.5)
    #expect(rasterizer.executable == program)
    #expect(
      throws: RasterizerError.failed(
        program: program, reason: "did not finish within 0.5 s and was stopped (signal 9)")
    ) {
      try rasterizer.png("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
    }
  }

  /// `nwpcube meteogram` draws the picture the server serves for the same day.
  /// The command and the server draw the same picture of today (the server's clock) and of
  /// a `start_date` before it, which is not today's picture.
  @Test func theCommandDrawsTheSamePictureAsTheServer() async throws {
    let client = try await SampleService.server().client
    var pictures: [String] = []
    for (parameter, day) in [("", "2026-06-21"), ("&start_date=2026-06-20", "2026-06-20")] {
      let served = try await client.get("/v1/meteogram.svg?\(Self.query)\(parameter)")
      #expect(served.status == 200, "\(parameter): \(served.body.prefix(300))")
      let file = SampleFiles.temporaryDirectory("meteogram") + "/chart.svg"
      let outcome = try CommandLineTool.run([
        "meteogram", "--store", SampleService.store, "--lat", "38.1294", "--lon", "-8.9341", "--days", "3",
        "--timezone", "Europe/Lisbon", "--start-date", day, "--out", file,
      ])
      #expect(outcome.status == 0, "\(outcome.standardError)")
      #expect(try String(contentsOfFile: file, encoding: .utf8) == served.body, "\(day)")
      pictures.append(served.body)
    }
    #expect(pictures[0] != pictures[1])
  }
}

/// Whether the machine has rsvg-convert, for the PNG test.
enum SVGProbe {
  static var rsvgConvertInstalled: Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/rsvg-convert")
    }
  }
}
