/// The ranges every field of a cube must lie in: one table for the reader, which refuses a
/// cube outside them, and for the writers (ingest, `CubeWriter`), which must not produce
/// one. docs/cube-format.md lists the same numbers.
///
/// The limits are generous for real model output and tight enough that no product or sum
/// of fields a reader forms (cells × steps × 2 bytes, first step + (steps − 1) × step
/// length, offset + scale × 65534) can overflow or leave the finite numbers.
public enum CubeLimits {
  /// Cells west–east and south–north, each: a global grid at 0.004° fits.
  public static let sides: ClosedRange<Int> = 1...100_000
  /// Cells in all: the locators index cells with `Int32`.
  public static let cells: ClosedRange<Int> = 1...Int(Int32.max)
  /// Time steps: a century of hourly output, or a year of one-minute output, fits.
  public static let stepCount: ClosedRange<Int> = 1...1_000_000
  /// Metrics in the table.
  public static let metrics: ClosedRange<Int> = 1...256
  /// Seconds between steps: 1 s to 31 days.
  public static let stepSeconds: ClosedRange<Int64> = 1...(31 * 86_400)
  /// Valid times and the run start, Unix seconds: 1900-01-01T00:00:00Z to
  /// 2200-12-31T23:59:59Z, the years ingest accepts.
  public static let times: ClosedRange<Int64> = -2_208_988_800...7_289_654_399
  /// The nominal grid spacing in metres (0 when unknown): at most a little more than half
  /// the Earth's circumference, the greatest distance between two points.
  public static let gridSpacing: ClosedRange<Double> = 0...21_000_000
  /// Positions of a moving grid (docs/cube-format.md, *Positions*): a u16's worth, and
  /// never more than the steps, each of which uses one.
  public static let positions: ClosedRange<Int> = 1...65_535
  /// The largest stored word that is a value; `CubeMetric.missing` is the one above it.
  public static let largestWord = 65_534

  /// What is wrong with `header` (without the "corrupted: " a reader puts first), nil when
  /// every field is within the limits. The text names the field and its allowed range.
  public static func problem(in header: CubeHeader) -> String? {
    if let problem = shapeProblem(width: header.width, height: header.height, stepCount: header.stepCount) {
      return problem
    }
    guard metrics.contains(header.metrics.count) else {
      return "metric count \(header.metrics.count) is not in \(metrics.lowerBound)…\(metrics.upperBound)"
    }
    return timeProblem(header) ?? identityProblem(header) ?? metricProblem(header.metrics)
  }

  /// What is wrong with a shape: each side, the cells and the steps against their limits.
  public static func shapeProblem(width: Int, height: Int, stepCount: Int) -> String? {
    guard sides.contains(width) else { return "width \(width) is not in \(range(sides)) cells" }
    guard sides.contains(height) else { return "height \(height) is not in \(range(sides)) cells" }
    // Both sides are at most 100 000 here, so the product cannot overflow.
    guard cells.contains(width * height) else {
      return "\(width) × \(height) = \(width * height) cells is not in \(range(cells))"
    }
    guard self.stepCount.contains(stepCount) else {
      return "step count \(stepCount) is not in \(range(self.stepCount))"
    }
    return nil
  }

  /// What is wrong with a table of each step's position for `positionCount` positions
  /// (without "corrupted: " or "cannot write: "), nil when it is canonical: step 0 uses
  /// position 0, every step uses a position used before or the next one after the highest
  /// used so far, and every position is used. One numbering per grid motion, so that two
  /// cubes of the same motion store the same table, and a reader can refuse anything else.
  public static func stepPositionsProblem(_ table: some Sequence<Int>, positionCount: Int) -> String? {
    var highest = -1
    for (step, position) in table.enumerated() {
      guard position >= 0, position < positionCount else {
        return "step \(step) uses position \(position), not one of the \(positionCount) positions"
      }
      guard position <= highest + 1 else {
        return
          "step \(step) uses position \(position) before position \(highest + 1) (positions are numbered in order of first use)"
      }
      highest = max(highest, position)
    }
    guard highest == positionCount - 1 else {
      return "no step uses position \(highest + 1) of the \(positionCount) positions"
    }
    return nil
  }

  /// The last step's valid time, nil when it is not a representable time; `stepCount` must
  /// be positive.
  public static func lastTime(firstTime: Int64, stepSeconds: Int64, stepCount: Int) -> Int64? {
    let (span, spanOverflow) = Int64(stepCount - 1).multipliedReportingOverflow(by: stepSeconds)
    let (last, lastOverflow) = firstTime.addingReportingOverflow(span)
    return spanOverflow || lastOverflow ? nil : last
  }

  private static func timeProblem(_ header: CubeHeader) -> String? {
    guard stepSeconds.contains(header.stepSeconds) else {
      return "step length \(header.stepSeconds) s is not in 1 s…31 days (\(stepSeconds.upperBound) s)"
    }
    guard times.contains(header.firstTime) else {
      return "first step \(header.firstTime) is not a time in \(timeRange)"
    }
    guard times.contains(header.runStart) else {
      return "run start \(header.runStart) is not a time in \(timeRange)"
    }
    let last = lastTime(firstTime: header.firstTime, stepSeconds: header.stepSeconds, stepCount: header.stepCount)
    guard let last, times.contains(last) else {
      return
        "last step (first step \(header.firstTime) + \(header.stepCount - 1) × \(header.stepSeconds) s) is not a time in \(timeRange)"
    }
    return nil
  }

  private static func identityProblem(_ header: CubeHeader) -> String? {
    guard gridSpacing.contains(header.gridSpacing) else {
      return "grid spacing \(header.gridSpacing) m is not in \(range(gridSpacing)) m"
    }
    guard StoreLayout.isValidComponent(header.model, maxBytes: 31) else {
      return "model name '\(printable(header.model))' is not 1…31 letters, digits, _ - or . (not starting with .)"
    }
    guard StoreLayout.isValidComponent(header.domain, maxBytes: 15) else {
      return "domain '\(printable(header.domain))' is not 1…15 letters, digits, _ - or . (not starting with .)"
    }
    return nil
  }

  private static func metricProblem(_ table: [CubeMetric]) -> String? {
    var seen: Set<String> = []
    for (index, metric) in table.enumerated() {
      // Made only for a message: made for every metric, the label was a sixth of reading a
      // header, which the command line does for every run kept.
      var label: String { "metric \(index) (\(printable(metric.name)))" }
      guard isText(metric.name, maxBytes: 23), !metric.name.isEmpty else {
        return "metric \(index) name '\(printable(metric.name))' is not 1…23 bytes of printable text"
      }
      guard seen.insert(metric.name).inserted else { return "\(label) appears twice in the metric table" }
      guard isText(metric.unit, maxBytes: 15) else {
        return "\(label) unit '\(printable(metric.unit))' is not at most 15 bytes of printable text"
      }
      guard metric.temporal <= 2 else {
        return
          "\(label) temporal kind \(metric.temporal) is not 0 (instantaneous), 1 (hourly amount) or 2 (category)"
      }
      guard metric.scale.isFinite, metric.scale > 0 else {
        return "\(label) scale \(metric.scale) is not a finite positive number"
      }
      guard metric.offset.isFinite else { return "\(label) offset \(metric.offset) is not a finite number" }
      let top = metric.offset + metric.scale * Double(largestWord)
      guard top.isFinite else {
        return
          "\(label) decodes up to offset \(metric.offset) + scale \(metric.scale) × \(largestWord), not a finite number"
      }
    }
    return nil
  }

  /// Whether `text` fits `maxBytes` of UTF-8 and has no control characters (which would
  /// break one-line messages and the CLI's tables).
  static func isText(_ text: String, maxBytes: Int) -> Bool {
    text.utf8.count <= maxBytes && !text.unicodeScalars.contains(where: isControl)
  }

  /// Whether `scalar` is a control character (general category Cc). Unicode fixes Cc as
  /// U+0000–U+001F and U+007F–U+009F, so the range test equals asking the property table,
  /// which cost the command line about 15 µs per cube header read.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// `text` with control characters shown as `?`, so that a message stays on one line.
  static func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
  }

  private static var timeRange: String { "1900-01-01T00:00:00Z…2200-12-31T23:59:59Z" }

  private static func range<T>(_ bounds: ClosedRange<T>) -> String { "\(bounds.lowerBound)…\(bounds.upperBound)" }
}
