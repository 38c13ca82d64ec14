/// Precisions chosen at ingest: `nwpcube ingest --precision temp=0.01,rain=0.05`.
extension Metric {
  /// What is wrong with storing this metric at `step` (in its unit), nil when the step is
  /// usable: a stored, non-categorical metric, a finite positive step no coarser than the
  /// metric's whole range, and fine enough only as far as its 65535 words reach from its
  /// offset past the top of its range.
  public func precisionProblem(_ step: Double) -> String? {
    guard origin == .stored else { return "\(name) is computed at query time, not stored" }
    guard temporal != .category else { return "\(name) is a category, stored exactly (step 1)" }
    guard step.isFinite, step > 0 else { return "\(name)=\(step) is not a positive step" }
    let width = range.upperBound - range.lowerBound
    guard step <= width else {
      return "\(name)=\(step) is coarser than its whole range \(range.lowerBound)…\(range.upperBound) \(unit)"
    }
    let top = offset + step * 65534
    guard top >= range.upperBound else {
      return
        "\(name)=\(step) is too fine: 65535 steps of \(step) \(unit) from \(offset) reach \(top), short of its range's top \(range.upperBound)"
    }
    return nil
  }

  /// The steps every metric was stored at before precisions were chosen per metric (cube
  /// format version 1): 0.01 in its unit, but for `sfc_press` (0.02), `shortwave` (0.1) and
  /// `visibility` (1). `ingest --precision v1` stores at these, for comparisons with cubes
  /// of earlier builds and for checks of derivations to that resolution.
  public static let versionOneSteps: [Metric: Double] = Dictionary(
    uniqueKeysWithValues: stored.filter { $0.temporal != .category }.map { metric in
      let step: Double =
        switch metric {
        case .sfcPress: 0.02
        case .shortwave: 0.1
        case .visibility: 1
        default: 0.01
        }
      return (metric, step)
    })

  /// The precisions of `text`, `name=step` pairs separated by commas (`temp=0.01,rain=0.05`),
  /// or the one-line reason they are not usable: an unknown or repeated metric, a step that
  /// is not a number, or a step `precisionProblem` refuses.
  /// `v1` is every metric at `versionOneSteps`.
  public static func precisions(_ text: String) -> Result<[Metric: Double], PrecisionError> {
    if text == "v1" { return .success(versionOneSteps) }
    var chosen: [Metric: Double] = [:]
    for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty else {
        return .failure(PrecisionError("'\(pair)' is not name=step, e.g. temp=0.05"))
      }
      let name = String(parts[0]).trimmingSpaces
      guard let metric = named(name) else {
        return .failure(
          PrecisionError("unknown metric '\(name)'; stored metrics: \(stored.map(\.name).joined(separator: ", "))"))
      }
      guard let step = Double(String(parts[1]).trimmingSpaces) else {
        return .failure(PrecisionError("\(name)=\(parts[1]) is not a number"))
      }
      if let problem = metric.precisionProblem(step) { return .failure(PrecisionError(problem)) }
      guard chosen.updateValue(step, forKey: metric) == nil else {
        return .failure(PrecisionError("\(name) is given twice"))
      }
    }
    return .success(chosen)
  }

  /// Why a `--precision` list was refused, in one line.
  public struct PrecisionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
  }
}

extension String {
  /// Without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
