import Meteorology
import NetCDF
import UTCTime

/// Derives the stored metrics of DESIGN §4 from one step of WRF-named fields at a time
/// (WRF files directly, MM5 through a translating `FieldSource`).
///
/// Built once per domain from the variables of its first file: a metric whose inputs are
/// missing is left out with a warning naming them and the metric; a required input (T2)
/// is checked by the inventory.
struct WRFDerivation {
  /// The metrics this domain can provide, in cube order.
  let metrics: [Metric]
  /// Why other metrics were left out, or derived by a fallback.
  let warnings: [String]
  /// The wind's rotation at each grid position (one unless the grid moves); nil where
  /// COSALPHA/SINALPHA are read from the file.
  private let rotations: [WindRotation]?
  private let rainInputs: [String]
  private let showerInputs: [String]
  private let bucketInputs: [String]
  private let bucketMillimetres: Double
  /// Cloud per model level from humidity, CLDFRA being missing.
  let cloudFromHumidity: Bool
  /// The hydrometeor species visibility counts; missing ones count as none.
  let hydrometeors: [String]
  private let hasShortwave: Bool
  private let hasHail: Bool
  private let hasLiftedIndex: Bool
  /// The 3-D fields some metric reads at every level.
  private let wholeVolumes: Set<String>
  private let deaccumulator: Deaccumulator
  /// The positions of a moving grid: accumulations are de-accumulated by place.
  private let motion: GridMotion?
  /// Turns implausible input values into missing ones and counts them (`InputScreen`).
  let screen = InputScreen()

  /// Snow depth per water equivalent, cm/mm: Open-Meteo's 7:1 ratio.
  static let snowfallRatio = 0.7
  /// The pressures (Pa) dividing low from middle and middle from high cloud.
  static let lowCloudTop = 80_000.0
  static let highCloudBase = 45_000.0

  /// `longitudes` are those of each grid position (one unless the grid moves, `motion`).
  init(_ input: DerivationInput, longitudes: [[Float]], motion: GridMotion? = nil) throws(IngestError) {
    let has = { (name: String) in input.available.contains(name) }
    let file = input.label
    var metrics: [Metric] = [.temp]
    var warnings: [String] = []
    func missing(_ inputs: [String]) -> String {
      let names = inputs.filter { !has($0) }
      return "\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") missing in \(file)"
    }
    func need(_ metric: Metric, _ inputs: [String]) {
      if inputs.allSatisfy(has) {
        metrics.append(metric)
      } else {
        warnings.append("no \(metric.name): \(missing(inputs))")
      }
    }
    need(.hum, ["Q2", "PSFC"])
    need(.dewPoint, ["Q2", "PSFC"])

    rainInputs = ["RAINC", "RAINNC", "RAINSH"].filter(has)
    let hasRain = rainInputs.contains { $0 != "RAINSH" }
    if hasRain {
      metrics.append(.rain)
    } else {
      warnings.append("no rain: RAINC and RAINNC are missing in \(file)")
    }
    // Bucketed accumulations (BUCKET_MM > 0) count whole buckets in I_RAINC/I_RAINNC.
    bucketMillimetres = input.attributes["BUCKET_MM"]?.number ?? -1
    bucketInputs = bucketMillimetres > 0 ? ["I_RAINC", "I_RAINNC"].filter(has) : []
    need(.snow, ["SNOWNC"])
    // Without CLDFRA, cloud follows from the humidity of every model level (the fallback
    // documented with the metric); without those either, there is no cloud.
    let humidityInputs = ["QVAPOR", "P", "PB", "T"]
    cloudFromHumidity = !has("CLDFRA") && humidityInputs.allSatisfy(has)
    if has("CLDFRA") {
      metrics.append(.cloud)
    } else if cloudFromHumidity {
      metrics.append(.cloud)
      warnings.append("cloud from model-level relative humidity: CLDFRA is missing in \(file)")
    } else {
      let missing = (["CLDFRA"] + humidityInputs.filter { !has($0) }).joined(separator: ", ")
      warnings.append("no cloud: \(missing) missing in \(file)")
    }

    let missingWind = ["U10", "V10"].filter { !has($0) }
    if missingWind.isEmpty {
      if has("COSALPHA"), has("SINALPHA") {
        rotations = nil  // read from the file at each step
        metrics += [.windU, .windV]
      } else {
        do {
          var perPosition: [WindRotation] = []
          for position in longitudes {
            perPosition.append(try WindRotation.fromProjection(attributes: input.attributes, longitudes: position))
          }
          rotations = perPosition
          metrics += [.windU, .windV]
        } catch {
          rotations = nil
          warnings.append("no wind: U10/V10 cannot be made earth-relative (\(error.reason)) in \(file)")
        }
      }
    } else {
      rotations = nil
      warnings.append("no wind: \(missingWind.joined(separator: ", ")) missing in \(file)")
    }
    need(.atmPress, ["PSFC", "HGT"])
    need(.sfcPress, ["PSFC"])
    hasShortwave = has("SWDOWN")
    need(.shortwave, ["SWDOWN"])

    need(.apparentTemp, ["Q2", "PSFC", "U10", "V10"])
    if metrics.contains(.apparentTemp), !hasShortwave {
      warnings.append("apparent_temp without sunshine (Q = 0, as in shade): SWDOWN is missing in \(file)")
    }
    let species = ["QCLOUD", "QRAIN", "QICE", "QSNOW"]
    hydrometeors = species.filter(has)
    need(.visibility, humidityInputs)
    if metrics.contains(.visibility) {
      if hydrometeors.isEmpty {
        warnings.append("visibility from relative humidity only: \(missing(species))")
      } else if hydrometeors.count < species.count {
        warnings.append(
          "visibility counts no \(species.filter { !has($0) }.joined(separator: ", ")): \(missing(species))")
      }
    }
    showerInputs = ["RAINC", "RAINSH"].filter(has)
    if showerInputs.isEmpty {
      warnings.append("no showers: RAINC and RAINSH are missing in \(file)")
    } else {
      metrics.append(.showers)
    }
    need(.snowfall, ["SNOWNC"])
    let layers = "cloud_low, cloud_mid, cloud_high"
    if has("CLDFRA"), has("P"), has("PB") {
      metrics += [.cloudLow, .cloudMid, .cloudHigh]
    } else if cloudFromHumidity {
      metrics += [.cloudLow, .cloudMid, .cloudHigh]
      warnings.append("\(layers) from model-level relative humidity: CLDFRA is missing in \(file)")
    } else {
      let inputs = has("CLDFRA") ? ["P", "PB"] : ["CLDFRA"] + humidityInputs
      warnings.append("no \(layers): \(missing(inputs))")
    }
    need(.windGusts, ["PBLH", "U", "V", "PH", "PHB", "U10", "V10"])
    need(.snowDepth, ["SNOWH"])
    hasHail = has("HAILNC")
    let liftedInputs = ["Q2", "PSFC", "T", "P", "PB"]
    hasLiftedIndex = liftedInputs.allSatisfy(has)
    // Last: the weather code reads the cloud and visibility derived before it.
    if hasRain {
      metrics.append(.weatherCode)
      if !hasLiftedIndex {
        warnings.append("weather_code without thunderstorms (no lifted index): \(missing(liftedInputs))")
      }
    } else {
      warnings.append("no weather_code: RAINC and RAINNC are missing in \(file)")
    }

    var whole: Set<String> = cloudFromHumidity ? Set(humidityInputs) : []
    if metrics.contains(.cloudLow) { whole.formUnion(["P", "PB"]) }
    if metrics.contains(.weatherCode), hasLiftedIndex { whole.formUnion(["P", "PB", "T"]) }
    wholeVolumes = whole
    self.metrics = metrics
    self.warnings = warnings
    deaccumulator = Deaccumulator(stepSeconds: input.stepSeconds, startsAtRunStart: input.startsAtRunStart)
    self.motion = motion
  }

  /// What a moving grid costs the accumulated metrics, as warnings naming `domain`: the
  /// cells on the leading edge of a move, whose place has no earlier accumulation in the
  /// grid, and how many steps have them.
  func movingWarnings(_ motion: GridMotion, domain: String, steps: [StepSource]) -> [String] {
    let names = [Metric.rain, .showers, .snow, .snowfall, .weatherCode].filter(metrics.contains).map(\.name)
    guard !names.isEmpty else { return [] }
    var cells = 0
    var edgeSteps = 0
    for index in steps.indices {
      guard let earlier = deaccumulator.earlierStep(of: index) else { continue }
      let edge = motion.leadingEdge(from: earlier, to: index)
      if edge > 0 {
        cells += edge
        edgeSteps += 1
      }
    }
    guard cells > 0 else { return [] }
    return [
      "\(domain) moves (\(motion.positions.count) positions): \(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") missing at \(cells) cell-steps on the leading edge of its moves (\(edgeSteps) steps), where the place was outside the nest an hour earlier and has no earlier accumulation in it to subtract; queries and tiles answer those hours from the parent domain"
    ]
  }

  /// The hour's precipitation amounts at a step (mm), nil where not derived.
  struct HourAmounts {
    var total: [Double]?
    var convective: [Double]?
    var snow: [Double]?
    var hail: [Double]?
  }

  /// The metrics' values at `steps[index]` over `band`'s rows (`[metric][cell of the
  /// rows]`, NaN where unknown), in `metrics` order. Depends on nothing but the files, so
  /// steps and bands may be derived in any order and at once.
  func derive(
    _ index: Int, of steps: [StepSource], band: RowBand, reader: some FieldSource
  ) throws(IngestError) -> [[Double]] {
    let fields = StepFields(reader, step: steps[index], band: band, screen: screen, whole: wholeVolumes)
    let earlierIndex = deaccumulator.earlierStep(of: index)
    let earlier = earlierIndex.map { earlierIndex in
      guard earlierIndex != index else { return fields }
      // A moving grid's earlier accumulations at the band's places lie in rows shifted
      // with the motion.
      let rows = motion?.earlierRows(band.rows, of: earlierIndex, at: index) ?? band.rows
      return StepFields(reader, step: steps[earlierIndex], band: band.reading(rows), screen: screen)
    }
    let hour = try hourAmounts(fields, since: earlier, steps: earlierIndex.map { (earlier: $0, now: index) })
    var derived: [Metric: [Double]] = [:]
    var perLevel: [Double]?
    var layers: (low: [Double], mid: [Double], high: [Double])?
    // Both components come from one rotation.
    var wind: (u: [Double], v: [Double])?
    for metric in metrics {
      let values: [Double]
      switch metric {
      case .temp:
        values = try fields.field("T2").map { $0 - Thermodynamics.kelvinOffset }
      case .hum:
        values = try relativeHumidity(fields)
      case .dewPoint:
        let (q, p) = (try fields.field("Q2"), try fields.field("PSFC"))
        values = (0..<fields.cells).map { Thermodynamics.dewPoint(mixingRatio: q[$0], pascal: p[$0]) }
      case .rain: values = hour.total ?? []
      case .snow: values = hour.snow ?? []
      case .showers: values = hour.convective ?? []
      case .snowfall: values = (hour.snow ?? []).map { $0 * Self.snowfallRatio }
      case .snowDepth: values = try fields.field("SNOWH").map { $0.isNaN ? $0 : max($0, 0) }
      case .cloud:
        if perLevel == nil { perLevel = try cloudPerLevel(fields) }
        values = (perLevel ?? []).columnMaximum(cells: fields.cells).map { 100 * $0 }
      case .cloudLow, .cloudMid, .cloudHigh:
        if perLevel == nil { perLevel = try cloudPerLevel(fields) }
        if layers == nil { layers = try cloudLayers(fields, perLevel: perLevel ?? []) }
        values = metric == .cloudLow ? layers?.low ?? [] : metric == .cloudMid ? layers?.mid ?? [] : layers?.high ?? []
      case .windU, .windV:
        let rotated: (u: [Double], v: [Double])
        if let wind {
          rotated = wind
        } else {
          rotated = try earthRelativeWind(fields, rotation: rotations?[motion?.stepPositions[index] ?? 0])
        }
        wind = rotated
        values = metric == .windU ? rotated.u : rotated.v
      case .atmPress:
        let (p, h, t) = (try fields.field("PSFC"), try fields.field("HGT"), try fields.field("T2"))
        values = (0..<fields.cells).map {
          Thermodynamics.seaLevelPressure(pascal: p[$0], height: h[$0], kelvin: t[$0])
        }
      case .sfcPress:
        values = try fields.field("PSFC").map { $0 / 100 }
      case .shortwave:
        values = try fields.field("SWDOWN")
      case .apparentTemp:
        // The humidity derived above, when it was (an `exp` per cell).
        values = try apparentTemperature(fields, relativeHumidity: derived[.hum])
      case .visibility:
        values = try visibility(fields)
      case .windGusts:
        values = try windGusts(fields)
      case .weatherCode:
        values = try weatherCodes(fields, hour: hour, derived: derived)
      case .precipitationNeighbourhood:
        // Derived from the stored rain after every convention's derivation
        // (`IngestPlan+Neighbourhood`): never offered in `metrics` here.
        values = Array(repeating: .nan, count: fields.cells)
      case .windVel, .windDir, .isDay, .precipitationProbability:
        preconditionFailure("\(metric.name) is computed at query time, never stored")
      }
      derived[metric] = values
    }
    return metrics.map { derived[$0] ?? [] }
  }

  /// The hour's amounts of every accumulation in use, whichever metrics read it, from the
  /// step's accumulations and those of its earlier step (nil when the amounts cannot be
  /// known there).
  /// `steps` are the indices of the two steps, for a moving grid.
  private func hourAmounts(
    _ fields: StepFields, since earlier: StepFields?, steps: (earlier: Int, now: Int)?
  ) throws(IngestError) -> HourAmounts {
    func amounts(
      _ names: [String], _ accumulated: (StepFields) throws(IngestError) -> [Double]
    ) throws(IngestError) -> [Double] {
      guard let earlier else { return Deaccumulator.unknown(cells: fields.cells) }
      var before = try accumulated(earlier)
      // In a moving grid the hour's amount at a place is the accumulation there now minus
      // the accumulation at the same place earlier, which may be in another cell: never a
      // difference of two places. A place the grid has just reached has none (NaN).
      if let motion, let steps {
        before = motion.atPlaces(before, rows: earlier.rows, of: steps.earlier, at: steps.now, rows: fields.rows)
      }
      let (values, falls) = deaccumulator.amounts(
        try accumulated(fields), since: before, counting: ReadRegion.rows(of: fields.band))
      screen.record(
        names.joined(separator: "+"), falls, step: fields.step, region: .rows(of: fields.band),
        why:
          "falling by more than \(InputRange.accumulationRoundOff) mm since \(UTC.iso8601(earlier.step.time)) (not round-off, not a bucket reset)"
      )
      return values
    }
    func sum(_ names: [String], buckets: [String]) -> (StepFields) throws(IngestError) -> [Double] {
      { (fields) throws(IngestError) in
        var total = [Double](repeating: 0, count: fields.cells)
        for name in names {
          let values = try fields.field(name)
          for cell in total.indices { total[cell] += values[cell] }
        }
        for name in buckets {
          let values = try fields.field(name)
          for cell in total.indices { total[cell] += values[cell] * bucketMillimetres }
        }
        return total
      }
    }
    var hour = HourAmounts()
    if metrics.contains(.rain) {
      hour.total = try amounts(rainInputs + bucketInputs, sum(rainInputs, buckets: bucketInputs))
    }
    if metrics.contains(.showers) {
      let buckets = bucketInputs.filter { $0 == "I_RAINC" }
      hour.convective = try amounts(showerInputs + buckets, sum(showerInputs, buckets: buckets))
    }
    if metrics.contains(.snow) {
      hour.snow = try amounts(["SNOWNC"]) { (fields) throws(IngestError) in try fields.field("SNOWNC") }
    }
    if hasHail, metrics.contains(.weatherCode) {
      hour.hail = try amounts(["HAILNC"]) { (fields) throws(IngestError) in try fields.field("HAILNC") }
    }
    return hour
  }

  private func relativeHumidity(_ fields: StepFields) throws(IngestError) -> [Double] {
    let (t, q, p) = (try fields.field("T2"), try fields.field("Q2"), try fields.field("PSFC"))
    return (0..<fields.cells).map {
      Thermodynamics.relativeHumidity(kelvin: t[$0], mixingRatio: q[$0], pascal: p[$0])
    }
  }

  /// `relativeHumidity` is the step's `relativeHumidity(fields)` when already derived.
  private func apparentTemperature(
    _ fields: StepFields, relativeHumidity known: [Double]?
  ) throws(IngestError) -> [Double] {
    let t = try fields.field("T2")
    let rh: [Double]
    if let known { rh = known } else { rh = try relativeHumidity(fields) }
    let (u, v) = (try fields.field("U10"), try fields.field("V10"))
    let shortwave = hasShortwave ? try fields.field("SWDOWN") : nil
    return (0..<fields.cells).map { cell in
      ApparentTemperature.celsius(
        temperature: t[cell] - Thermodynamics.kelvinOffset, relativeHumidity: rh[cell],
        windSpeed10m: (u[cell] * u[cell] + v[cell] * v[cell]).squareRoot(), shortwave: shortwave?[cell])
    }
  }

  /// `rotation` is that of the step's grid position, nil to read COSALPHA/SINALPHA.
  private func earthRelativeWind(
    _ fields: StepFields, rotation: WindRotation?
  ) throws(IngestError) -> (u: [Double], v: [Double]) {
    let u = try fields.field("U10")
    let v = try fields.field("V10")
    let (cosines, sines): (ArraySlice<Double>, ArraySlice<Double>)
    switch rotation {
    case .perCell(let c, let s):
      // The projection's rotation is the whole grid's: the rows' part of it.
      let rows = (fields.rows.lowerBound * fields.band.width)..<(fields.rows.upperBound * fields.band.width)
      (cosines, sines) = (c[rows], s[rows])
    case .aligned: return (u, v)
    case nil: (cosines, sines) = (try fields.field("COSALPHA")[...], try fields.field("SINALPHA")[...])
    }
    var east = [Double](repeating: 0, count: fields.cells)
    var north = [Double](repeating: 0, count: fields.cells)
    let (first, second) = (cosines.startIndex, sines.startIndex)
    for cell in 0..<fields.cells {
      (east[cell], north[cell]) = Wind.earthRelative(
        u: u[cell], v: v[cell], cosAlpha: cosines[first + cell], sinAlpha: sines[second + cell])
    }
    return (east, north)
  }

  /// The weather code of every cell from the hour's amounts, the derived cloud and
  /// visibility, T2 and the lifted index; NaN where the hour's precipitation is unknown.
  private func weatherCodes(
    _ fields: StepFields, hour: HourAmounts, derived: [Metric: [Double]]
  ) throws(IngestError) -> [Double] {
    let t = try fields.field("T2")
    // The index, the costliest input, is computed only where the code reads it: a wet hour
    // whose convective part could make a thunderstorm (95–99).
    let lifted =
      hasLiftedIndex
      ? try liftedIndex(fields) { cell in
        guard let total = hour.total, cell < total.count else { return false }
        return WeatherCode.readsLiftedIndex(precipitation: total[cell], convective: hour.convective?[cell])
      } : nil
    // A parcel of screened-out input has no index: the code would miss a thunderstorm it
    // cannot rule out, so it is missing rather than a guess.
    let parcel = hasLiftedIndex ? (try fields.field("Q2"), try fields.field("PSFC")) : nil
    func known(_ values: [Double]?, _ cell: Int) -> Double? {
      guard let value = values?[cell], !value.isNaN else { return nil }
      return value
    }
    // Looked up once, not per cell: hashing the key was 4 % of an ingest.
    let (visibility, cloud) = (derived[.visibility], derived[.cloud])
    var codes = [Double](repeating: .nan, count: fields.cells)
    for cell in codes.indices {
      guard let precipitation = known(hour.total, cell), !t[cell].isNaN else { continue }
      if let parcel, precipitation > 0, parcel.0[cell].isNaN || parcel.1[cell].isNaN { continue }
      let conditions = WeatherConditions(
        precipitation: precipitation, convective: known(hour.convective, cell), snow: known(hour.snow, cell),
        temperature: t[cell] - Thermodynamics.kelvinOffset, visibility: known(visibility, cell),
        cloud: known(cloud, cell), liftedIndex: known(lifted, cell), hail: known(hour.hail, cell))
      // A code that would rest on a guess (a dry hour of unknown cloud) is stored missing.
      codes[cell] = WeatherCode.classifyIfKnown(conditions).map { Double($0.rawValue) } ?? .nan
    }
    return codes
  }
}
