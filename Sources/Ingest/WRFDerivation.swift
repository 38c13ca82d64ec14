import Meteorology
import NetCDF
import UTCTime

/// Derives the stored metrics of DESIGN §4 from one step of WRF-named fields at a time
/// (WRF files directly, MM5 through a translating `FieldSource`).
///
/// Built once per domain from the variables of its first file: a metric whose inputs are
/// missing is left out with a warning; a required input (T2) is checked by the inventory.
struct WRFDerivation {
  /// The metrics this domain can provide, in cube order.
  let metrics: [Metric]
  /// Why other metrics were left out.
  let warnings: [String]
  private let rotation: WindRotation?
  private let rainInputs: [String]
  private let bucketInputs: [String]
  private let bucketMillimetres: Double
  private let cloudFromHumidity: Bool
  private var rain: Deaccumulator
  private var snow: Deaccumulator

  init(_ input: DerivationInput, longitudes: [Float]) throws(IngestError) {
    let has = { (name: String) in input.available.contains(name) }
    let file = input.label
    var metrics: [Metric] = [.temp]
    var warnings: [String] = []
    func need(_ metric: Metric, _ inputs: [String]) {
      let missing = inputs.filter { !has($0) }
      if missing.isEmpty {
        metrics.append(metric)
      } else {
        warnings.append(
          "no \(metric.name): \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing in \(file)"
        )
      }
    }
    need(.hum, ["Q2", "PSFC"])
    need(.dewPoint, ["Q2", "PSFC"])

    rainInputs = ["RAINC", "RAINNC", "RAINSH"].filter(has)
    if rainInputs.contains(where: { $0 != "RAINSH" }) {
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
        rotation = nil  // read from the file at the first step
        metrics += [.windU, .windV]
      } else {
        do {
          rotation = try WindRotation.fromProjection(attributes: input.attributes, longitudes: longitudes)
          metrics += [.windU, .windV]
        } catch {
          rotation = nil
          warnings.append("no wind: U10/V10 cannot be made earth-relative (\(error.reason)) in \(file)")
        }
      }
    } else {
      rotation = nil
      warnings.append("no wind: \(missingWind.joined(separator: ", ")) missing in \(file)")
    }
    need(.atmPress, ["PSFC", "HGT"])
    need(.sfcPress, ["PSFC"])
    need(.shortwave, ["SWDOWN"])

    self.metrics = metrics
    self.warnings = warnings
    rain = Deaccumulator(stepSeconds: input.stepSeconds, startsAtRunStart: input.startsAtRunStart)
    snow = rain
  }

  /// The metrics' values at one step (`[metric][cell]`, NaN where unknown), in `metrics` order.
  mutating func derive(_ step: StepSource, reader: some FieldSource) throws(IngestError) -> [[Double]] {
    var fields: [String: [Double]] = [:]
    func field(_ name: String) throws(IngestError) -> [Double] {
      if let cached = fields[name] { return cached }
      let values = try reader.field(name, at: step)
      fields[name] = values
      return values
    }
    let cells = reader.width * reader.height
    var output: [[Double]] = []
    var windCache: (u: [Double], v: [Double])?
    for metric in metrics {
      switch metric {
      case .temp:
        output.append(try field("T2").map { $0 - Thermodynamics.kelvinOffset })
      case .hum:
        let (t, q, p) = (try field("T2"), try field("Q2"), try field("PSFC"))
        output.append(
          (0..<cells).map { Thermodynamics.relativeHumidity(kelvin: t[$0], mixingRatio: q[$0], pascal: p[$0]) })
      case .dewPoint:
        let (q, p) = (try field("Q2"), try field("PSFC"))
        output.append((0..<cells).map { Thermodynamics.dewPoint(mixingRatio: q[$0], pascal: p[$0]) })
      case .rain:
        var total = [Double](repeating: 0, count: cells)
        for name in rainInputs { total = zip(total, try field(name)).map(+) }
        for name in bucketInputs {
          total = zip(total, try field(name)).map { $0 + $1 * bucketMillimetres }
        }
        output.append(rain.next(total))
      case .snow:
        output.append(snow.next(try field("SNOWNC")))
      case .cloud where cloudFromHumidity:
        let (q, p, pb, t) = (
          try reader.volume("QVAPOR", at: step), try reader.volume("P", at: step),
          try reader.volume("PB", at: step), try reader.volume("T", at: step)
        )
        var cloud = [Double](repeating: 0, count: cells)
        for index in q.indices {
          let rh = Thermodynamics.levelHumidity(
            mixingRatio: q[index], pascal: p[index] + pb[index], perturbationTheta: t[index])
          let cell = index % cells
          let fraction = Thermodynamics.cloudFraction(relativeHumidity: rh)
          cloud[cell] = fraction.isNaN || cloud[cell].isNaN ? .nan : max(cloud[cell], 100 * fraction)
        }
        output.append(cloud)
      case .cloud:
        output.append(try reader.columnMaximum("CLDFRA", at: step).map { 100 * $0 })
      case .windU, .windV:
        if windCache == nil { windCache = try earthRelativeWind(field: field, cells: cells) }
        output.append(metric == .windU ? windCache?.u ?? [] : windCache?.v ?? [])
      case .atmPress:
        let (p, h, t) = (try field("PSFC"), try field("HGT"), try field("T2"))
        output.append((0..<cells).map { Thermodynamics.seaLevelPressure(pascal: p[$0], height: h[$0], kelvin: t[$0]) })
      case .sfcPress:
        output.append(try field("PSFC").map { $0 / 100 })
      case .shortwave:
        output.append(try field("SWDOWN"))
      case .apparentTemp, .visibility, .weatherCode, .showers, .snowfall, .cloudLow, .cloudMid, .cloudHigh,
        .windGusts, .precipitationNeighbourhood:
        // Not derived yet: never offered in `metrics`.
        output.append(Array(repeating: .nan, count: cells))
      case .windVel, .windDir, .isDay, .precipitationProbability:
        preconditionFailure("\(metric.name) is computed at query time, never stored")
      }
    }
    return output
  }

  private func earthRelativeWind(
    field: (String) throws(IngestError) -> [Double], cells: Int
  ) throws(IngestError) -> (u: [Double], v: [Double]) {
    let u = try field("U10")
    let v = try field("V10")
    let (cosines, sines): ([Double], [Double])
    switch rotation {
    case .perCell(let c, let s): (cosines, sines) = (c, s)
    case .aligned: return (u, v)
    case nil: (cosines, sines) = (try field("COSALPHA"), try field("SINALPHA"))
    }
    var east = [Double](repeating: 0, count: cells)
    var north = [Double](repeating: 0, count: cells)
    for cell in 0..<cells {
      (east[cell], north[cell]) = Wind.earthRelative(
        u: u[cell], v: v[cell], cosAlpha: cosines[cell], sinAlpha: sines[cell])
    }
    return (east, north)
  }
}
