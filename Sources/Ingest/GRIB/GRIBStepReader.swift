/// Derives one step of a GRIB run over one band of rows: each quantity the metrics need
/// is made from its recipe's messages, read one at a time over the band's rows
/// (`GRIBDecodedFields`: a message is decoded once for all bands where it can be), turned
/// to the earth when it is a grid-relative wind, screened, and handed to
/// `QuantityDerivation`. Keeps no state between calls but the decoded fields it shares
/// with later bands, so that the publisher may derive several steps at once on any thread.
struct GRIBStepReader: Sendable {
  let width: Int
  /// Each quantity's recipe at every step.
  let recipes: [String: [GRIBRecipe]]
  /// The turn of grid-relative 10 m winds to the earth; nil when they need none.
  let rotation: WindRotation?
  let derivation: QuantityDerivation
  let steps: [StepSource]
  /// Each quantity's row, as warnings name it.
  let names: [String: String]
  /// Turns implausible values into missing ones and counts them (`InputScreen`).
  let screen = InputScreen()
  /// Reads each band's rows of a message, decoding each message once where it can.
  let fields = GRIBDecodedFields()

  /// The metrics' values at step `index` over `band`'s rows (`[metric][cell of the rows]`).
  func derive(_ index: Int, band: RowBand) throws(IngestError) -> [[Double]] {
    var cache: [String: [Double]] = [:]
    let step = steps[index]
    func screened(_ key: String, _ values: inout [Double]) {
      // A step the recipe cannot make is missing by construction, and planning warned of
      // it: not implausible input, which would count towards refusing the field.
      if case .unknown = recipes[key]?[index] ?? .unknown { return }
      screen.screen(
        names[key] ?? key, quantity: GRIBParameterTable.labels[key], &values, step: step, region: .rows(of: band))
    }
    func read(_ key: String) throws(IngestError) -> [Double] {
      if let cached = cache[key] { return cached }
      if key == "u" || key == "v" {
        var (u, v) = (try values("u", at: index, band: band), try values("v", at: index, band: band))
        if case .perCell(let cosines, let sines) = rotation {
          let first = band.rows.lowerBound * width
          for cell in 0..<min(u.count, v.count) {
            let (c, s) = (cosines[first + cell], sines[first + cell])
            (u[cell], v[cell]) = (u[cell] * c - v[cell] * s, u[cell] * s + v[cell] * c)
          }
        }
        screened("u", &u)
        screened("v", &v)
        cache["u"] = u
        cache["v"] = v
        return key == "u" ? u : v
      }
      var values = try values(key, at: index, band: band)
      screened(key, &values)
      cache[key] = values
      return values
    }
    return try derivation.derive(cells: band.cells, read: read)
  }

  /// A quantity's values at step `index` over the band's rows, in its unit.
  private func values(_ key: String, at index: Int, band: RowBand) throws(IngestError) -> [Double] {
    guard let recipe = recipes[key]?[index] else { return Array(repeating: .nan, count: band.cells) }
    switch recipe {
    case .unknown: return Array(repeating: .nan, count: band.cells)
    case .zero: return Array(repeating: 0, count: band.cells)
    case .sum(let terms):
      var sum = [Double](repeating: 0, count: band.cells)
      let first = band.rows.lowerBound * width
      for term in terms {
        let points = term.field.message.numberOfDataPoints
        guard points >= first + band.cells else {
          throw IngestError(
            path: term.field.file.path, variable: "message \(term.field.message.number)",
            reason: "\(points) values for a grid of \(band.width)×\(band.height) points")
        }
        let rows = try fields.values(of: term.field, points: first..<(first + band.cells))
        let (conversion, weight) = (term.field.conversion, term.weight)
        // An instant (one term, weight 1) is its converted value bit for bit: 0 + 1 · x = x.
        for cell in 0..<band.cells { sum[cell] += weight * conversion.apply(rows[cell]) }
      }
      // A difference of accumulations packed to a step of their own may fall below zero
      // by their packing errors where nothing fell: that is zero, not an implausible value.
      let tolerance = terms.reduce(0) { $0 + abs($1.weight) * $1.field.packingError }
      if tolerance > 0 {
        for cell in 0..<band.cells where sum[cell] < 0 && sum[cell] >= -tolerance { sum[cell] = 0 }
      }
      return sum
    }
  }
}
