import Meteorology

extension IngestPlan {
  /// This plan with `precip_neighbourhood` computed from its `rain` at every step, for
  /// every convention alike: the neighbourhood needs only the hour's amount and the grid.
  /// A plan without rain, or whose grid is beyond the neighbourhood's bound on work, is
  /// returned with a warning naming what is missing, and `precipitation_probability` is
  /// then unavailable from its cubes. `rainStep` is the precision rain is stored at.
  func addingPrecipitationNeighbourhood(rainStep: Double = Metric.rain.step ?? 0.1) -> IngestPlan {
    let names = "\(Metric.precipitationNeighbourhood.name), \(Metric.precipitationProbability.name)"
    let label = steps.first?.path ?? domain
    guard let rainSlot = metrics.firstIndex(of: .rain) else {
      return with(warning: "no \(names): rain is missing in \(label)")
    }
    // A moving grid's positions are whole-cell shifts of one grid in one projection: the
    // cells within the radius of a cell are the same index offsets at every position, up
    // to the map factor's change across the shift (well under 1 % for a nest's moves), so
    // the first position's neighbourhoods serve every step.
    let neighbourhood: PrecipitationNeighbourhood
    do {
      neighbourhood = try PrecipitationNeighbourhood(
        latitudes: latitudes, longitudes: longitudes, rainStep: rainStep)
    } catch {
      return with(warning: "no \(names): \(error.reason) (\(label))")
    }
    // A convention that ever lists the metric itself gets its values replaced, not doubled.
    let existing = metrics.firstIndex(of: .precipitationNeighbourhood)
    let derive = self.derive
    let halo = Self.haloRows(of: neighbourhood, height: height)
    var plan = IngestPlan(
      domain: domain, steps: steps, stepSeconds: stepSeconds, runStart: runStart, width: width, height: height,
      latitudes: latitudes, longitudes: longitudes, projection: projection, gridSpacing: gridSpacing,
      metrics: existing == nil ? metrics + [.precipitationNeighbourhood] : metrics, warnings: warnings,
      terrain: terrain, levels: levels, screen: screen,
      derive: { (index, band) throws(IngestError) in
        // The band's rows' neighbourhoods reach `halo` rows beyond them: those rows are
        // derived too (their cells counted by the bands that own them), then dropped.
        let wide = band.widened(by: halo)
        var values = try derive(index, wide)
        let percentages = Self.percentages(
          neighbourhood, rain: values[rainSlot], rows: wide.rows, owned: band.rows, height: band.height)
        let first = (band.rows.lowerBound - wide.rows.lowerBound) * band.width
        let kept = first..<(first + band.cells)
        if kept != values[rainSlot].indices {
          values = values.map { $0.isEmpty ? $0 : Array($0[kept]) }
        }
        if let existing { values[existing] = percentages } else { values.append(percentages) }
        return values
      }, motion: motion)
    plan.haloRows = halo
    return plan
  }

  /// Rows above and below a band of rows that its cells' neighbourhoods reach.
  private static func haloRows(of neighbourhood: PrecipitationNeighbourhood, height: Int) -> Int {
    height
  }

  /// The percentages of rows `owned` from the rain of rows `rows` (which contain them).
  private static func percentages(
    _ neighbourhood: PrecipitationNeighbourhood, rain: [Double], rows: Range<Int>, owned: Range<Int>, height: Int
  ) -> [Double] {
    let whole = neighbourhood.percentages(rain: rain)
    let width = rain.count / max(rows.count, 1)
    return Array(whole[((owned.lowerBound - rows.lowerBound) * width)..<((owned.upperBound - rows.lowerBound) * width)])
  }

  private func with(warning: String) -> IngestPlan {
    IngestPlan(
      domain: domain, steps: steps, stepSeconds: stepSeconds, runStart: runStart, width: width, height: height,
      latitudes: latitudes, longitudes: longitudes, projection: projection, gridSpacing: gridSpacing,
      metrics: metrics, warnings: warnings + [warning], terrain: terrain, levels: levels, screen: screen,
      derive: derive, motion: motion)
  }
}
