import Foundation
import Meteorology

/// The metrics read from model levels: cloud layers, visibility, gusts and the lifted
/// index. Each reads only as many levels as it needs (DESIGN §4 has the methods).
extension WRFDerivation {
  /// WRF's gravity, m/s², to turn geopotential into height.
  static let gravity = 9.81
  /// Poisson's exponent Rd/cp of WRF's potential temperature.
  static let kappa = 0.2857

  /// Temperature (K) of a model level from its full pressure P + PB (Pa) and WRF's
  /// perturbation potential temperature T (K).
  static func kelvin(pascal p: Double, perturbationTheta t: Double) -> Double {
    (t + 300) * pow(p / 100_000, kappa)
  }

  /// The cloud fraction (0–1) of every model level, level by level: CLDFRA, or without it
  /// the Sundqvist fraction of the level's relative humidity.
  func cloudPerLevel(_ fields: StepFields) throws(IngestError) -> [Double] {
    guard cloudFromHumidity else { return try fields.volume("CLDFRA") }
    let (q, p, pb, t) = (
      try fields.volume("QVAPOR"), try fields.volume("P"), try fields.volume("PB"), try fields.volume("T")
    )
    var fraction = [Double](repeating: 0, count: q.count)
    for index in q.indices {
      let rh = Thermodynamics.levelHumidity(
        mixingRatio: q[index], pascal: p[index] + pb[index], perturbationTheta: t[index])
      fraction[index] = Thermodynamics.cloudFraction(relativeHumidity: rh)
    }
    return fraction
  }

  /// Low, middle and high cloud (%): the largest fraction among the levels whose full
  /// pressure is above 800 hPa, between 800 (included) and 450 hPa, and at or below
  /// 450 hPa. A layer without levels (high terrain, a low model top) has none.
  func cloudLayers(
    _ fields: StepFields, perLevel fraction: [Double]
  ) throws(IngestError) -> (low: [Double], mid: [Double], high: [Double]) {
    let (p, pb) = (try fields.volume("P"), try fields.volume("PB"))
    let cells = fields.cells
    // Three flat arrays, level by level, written through their buffers: an array of layers
    // paid a uniqueness check and a division per value.
    var low = [Double](repeating: 0, count: cells)
    var mid = low
    var high = low
    low.withUnsafeMutableBufferPointer { low in
      mid.withUnsafeMutableBufferPointer { mid in
        high.withUnsafeMutableBufferPointer { high in
          for start in stride(from: 0, to: fraction.count, by: max(cells, 1)) {
            for index in start..<min(start + cells, fraction.count) {
              let cell = index - start
              let pressure = p[index] + pb[index]
              guard !pressure.isNaN else {
                (low[cell], mid[cell], high[cell]) = (.nan, .nan, .nan)
                continue
              }
              let value = 100 * fraction[index]
              let layer = pressure > Self.lowCloudTop ? low : pressure > Self.highCloudBase ? mid : high
              let current = layer[cell]
              layer[cell] = value.isNaN || current.isNaN ? .nan : max(current, value)
            }
          }
        }
      }
    }
    return (low, mid, high)
  }

  /// Visibility (m): the lower of the hydrometeor extinction at the lowest level and the
  /// haze term of the lowest two levels' larger relative humidity (`Visibility`).
  func visibility(_ fields: StepFields) throws(IngestError) -> [Double] {
    let (q, p, pb, t) = (
      try fields.lowest("QVAPOR", 2), try fields.lowest("P", 2), try fields.lowest("PB", 2),
      try fields.lowest("T", 2)
    )
    func species(_ name: String) throws(IngestError) -> ArraySlice<Double>? {
      hydrometeors.contains(name) ? try fields.lowest(name, 1) : nil
    }
    let (qc, qr, qi, qs) = (try species("QCLOUD"), try species("QRAIN"), try species("QICE"), try species("QSNOW"))
    let cells = fields.cells
    let levels = min(q.count, p.count, pb.count, t.count) / max(cells, 1)
    // Split over the cores (`CellPartition`): the humidity's and extinction's `pow` and
    // `exp` are the larger part of an ingest's arithmetic.
    return CellPartition.map(cells: cells) { range in
      func at(_ values: ArraySlice<Double>?, _ index: Int) -> Double {
        guard let values else { return 0 }
        return values[values.startIndex + index]
      }
      return range.map { cell in
        var rh = -Double.infinity
        // The lowest level's temperature, which the extinction needs too: one `pow` for both.
        var lowestKelvin: Double?
        for level in 0..<levels {
          let index = level * cells + cell
          let pressure = at(p, index) + at(pb, index)
          let kelvin = Self.kelvin(pascal: pressure, perturbationTheta: at(t, index))
          if level == 0 { lowestKelvin = kelvin }
          let humidity = Thermodynamics.levelHumidity(mixingRatio: at(q, index), pascal: pressure, kelvin: kelvin)
          // An unknown level makes the cell unknown (`max` would skip it).
          rh = humidity.isNaN ? .nan : max(rh, humidity)
          if rh.isNaN { break }
        }
        let pressure = at(p, cell) + at(pb, cell)
        let (cloud, rain, ice, snow) = (at(qc, cell), at(qr, cell), at(qi, cell), at(qs, cell))
        // Clear air needs no temperature: CALVIS gives the cap.
        let clear = cloud == 0 && rain == 0 && ice == 0 && snow == 0
        let hydrometeor =
          clear
          ? Visibility.maximum
          : Visibility.hydrometeors(
            cloudWater: cloud, rain: rain, ice: ice, snow: snow, vapour: at(q, cell), pascal: pressure,
            kelvin: lowestKelvin ?? Self.kelvin(pascal: pressure, perturbationTheta: at(t, cell)))
        guard !rh.isNaN, !hydrometeor.isNaN else { return .nan }
        return min(hydrometeor, Visibility.humidity(relativeHumidity: rh))
      }
    }
  }

  /// Gusts (m/s) by UPP's CALGUST: the wind of the model level whose layer (between its
  /// interfaces, PH + PHB over g, above the terrain interface) contains PBLH, mixed down
  /// to the 10 m wind. U and V are averaged from their staggered points to the cell, and
  /// read only up to the highest level any cell needs.
  func windGusts(_ fields: StepFields) throws(IngestError) -> [Double] {
    let cells = fields.cells
    let (pblh, u10, v10) = (try fields.field("PBLH"), try fields.field("U10"), try fields.field("V10"))
    let (ph, phb) = (try fields.volume("PH"), try fields.volume("PHB"))
    let interfaces = ph.count / max(cells, 1)
    guard interfaces >= 2, phb.count == ph.count else {
      throw IngestError(
        path: fields.step.path, variable: "PH",
        reason: "expected PH and PHB on the same staggered levels, at least two, for wind_gusts")
    }
    var level = [Int](repeating: 0, count: cells)
    var highest = 0
    for cell in 0..<cells {
      let ground = (ph[cell] + phb[cell]) / Self.gravity
      var k = 0
      while k < interfaces - 2,
        (ph[(k + 1) * cells + cell] + phb[(k + 1) * cells + cell]) / Self.gravity - ground <= pblh[cell]
      {
        k += 1
      }
      level[cell] = k
      highest = max(highest, k)
    }
    // U has a column more than the mass grid, V a row more: a row range's V reads the
    // row above its last too.
    let (width, gridHeight, rows) = (fields.source.width, fields.source.height, fields.rows)
    let height = rows.count
    let u = try fields.staggered("U", 0..<(highest + 1), rows: rows, of: gridHeight, columns: width + 1)
    let v = try fields.staggered(
      "V", 0..<(highest + 1), rows: rows.lowerBound..<(rows.upperBound + 1), of: gridHeight + 1, columns: width)
    guard u.count >= (highest + 1) * height * (width + 1), v.count >= (highest + 1) * (height + 1) * width else {
      throw IngestError(
        path: fields.step.path, variable: "U/V",
        reason: "have fewer levels than PH (\(interfaces - 1)), so the boundary layer's top is not in them")
    }
    var gusts = [Double](repeating: .nan, count: cells)
    for cell in 0..<cells {
      let (j, i, k) = (cell / width, cell % width, level[cell])
      let uRow = (k * height + j) * (width + 1)
      let east = (u[uRow + i] + u[uRow + i + 1]) / 2
      let vRow = (k * (height + 1) + j) * width
      let north = (v[vRow + i] + v[vRow + width + i]) / 2
      gusts[cell] = WindGust.speed(
        surface: (u10[cell] * u10[cell] + v10[cell] * v10[cell]).squareRoot(),
        boundaryLayerTop: (east * east + north * north).squareRoot(), boundaryLayerHeight: pblh[cell])
    }
    return gusts
  }

  /// The surface-based lifted index at 500 hPa (K) of the cells `needed` says; NaN
  /// elsewhere and where the model levels do not reach 500 hPa. Every input is read
  /// (and screened) whichever cells need it, so that what a run reads does not depend on
  /// its weather.
  func liftedIndex(
    _ fields: StepFields, where needed: @Sendable (Int) -> Bool
  ) throws(IngestError) -> [Double] {
    let cells = fields.cells
    let (t2, q2, psfc) = (try fields.field("T2"), try fields.field("Q2"), try fields.field("PSFC"))
    let (p, pb, t) = (try fields.volume("P"), try fields.volume("PB"), try fields.volume("T"))
    let levels = min(p.count, pb.count, t.count) / max(cells, 1)
    // Split over the cores (`CellPartition`): the parcel's ascent is the costliest per-cell work.
    return CellPartition.map(cells: cells) { range in
      range.map { cell in
        guard needed(cell) else { return .nan }
        let environment = LiftedIndex.environmentTemperature(
          levels: levels, pressure: { p[$0 * cells + cell] + pb[$0 * cells + cell] },
          temperature: { k in
            Self.kelvin(pascal: p[k * cells + cell] + pb[k * cells + cell], perturbationTheta: t[k * cells + cell])
          })
        guard let environment else { return .nan }
        return LiftedIndex.index(
          surfaceKelvin: t2[cell], mixingRatio: q2[cell], pascal: psfc[cell], environmentKelvin: environment)
      }
    }
  }
}

extension [Double] {
  /// The maximum over levels of a field stored level by level, `cells` values a level;
  /// NaN at any level makes the column unknown.
  func columnMaximum(cells: Int) -> [Double] {
    var maximum = [Double](repeating: -.infinity, count: cells)
    // Level by level through the buffer, without a division or a uniqueness check per value.
    maximum.withUnsafeMutableBufferPointer { maximum in
      for start in stride(from: 0, to: count, by: Swift.max(cells, 1)) {
        for index in start..<Swift.min(start + cells, count) {
          let cell = index - start
          maximum[cell] = self[index].isNaN || maximum[cell].isNaN ? .nan : Swift.max(maximum[cell], self[index])
        }
      }
    }
    return maximum
  }
}
