import Meteorology

extension IngestPlan {
  /// This plan with `precip_neighbourhood` computed from its `rain` at every step, for
  /// every convention alike: the neighbourhood needs only the hour's amount and the grid.
  /// A plan without rain, or with a cell without coordinates, is returned with a warning
  /// naming what is missing, and `precipitation_probability` is then unavailable from its
  /// cubes. `rainStep` is the precision rain is stored at.
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
        latitudes: latitudes, longitudes: longitudes, width: width, height: height, rainStep: rainStep)
    } catch {
      return with(warning: "no \(names): \(error.reason) (\(label))")
    }
    // A convention that ever lists the metric itself gets its values replaced, not doubled.
    let existing = metrics.firstIndex(of: .precipitationNeighbourhood)
    let derive = self.derive
    let halo = neighbourhood.haloRows
    // A copy of this plan with the metric, its derivation and its halo: every other
    // property (the model, the memory hooks, the recorded input) carries over as it is.
    var plan = self
    if existing == nil { plan.metrics.append(.precipitationNeighbourhood) }
    plan.haloRows = halo
    plan.neighbourhoodBytes = neighbourhood.heldBytes
    plan.derive = { (index, band) throws(IngestError) in
      // The band's rows' neighbourhoods reach `halo` rows beyond them: those rows are
      // derived too (their cells counted by the bands that own them), then dropped.
      let wide = band.widened(by: halo)
      var values = try derive(index, wide)
      let percentages = values[rainSlot].withUnsafeBufferPointer {
        neighbourhood.percentages(rain: $0, rows: wide.rows, owned: band.rows)
      }
      let first = (band.rows.lowerBound - wide.rows.lowerBound) * band.width
      let kept = first..<(first + band.cells)
      if kept != values[rainSlot].indices {
        values = values.map { $0.isEmpty ? $0 : Array($0[kept]) }
      }
      if let existing { values[existing] = percentages } else { values.append(percentages) }
      return values
    }
    return plan
  }

  private func with(warning: String) -> IngestPlan {
    var plan = self
    plan.warnings.append(warning)
    return plan
  }
}
