/// A unit conversion as the arithmetic it takes, one exact IEEE operation after another.
///
/// Kept as steps rather than folded into one `x · scale + offset`: `(x − 32) · 5 / 9` and
/// `x / 100` are not `x · a + b` for any doubles `a`, `b` (the rounding differs in the last
/// bit, and a stored word with it), so the steps are those of the formula as written.
/// Applied to a whole read, one pass a step over the buffer: no call per value.
struct CFConversion: Sendable, Equatable {
  /// One operation, applied to every value.
  enum Step: Sendable, Equatable {
    case add(Double)
    case subtract(Double)
    case multiply(Double)
    case divide(Double)
  }

  let steps: [Step]

  init(_ steps: Step...) { self.steps = steps }

  /// No conversion: the file's unit is the stored one.
  static let identity = CFConversion()

  /// One value converted (the steps in order).
  func callAsFunction(_ value: Double) -> Double {
    var value = value
    for step in steps {
      switch step {
      case .add(let c): value = value + c
      case .subtract(let c): value = value - c
      case .multiply(let c): value = value * c
      case .divide(let c): value = value / c
      }
    }
    return value
  }

  /// Every value converted in place, one tight pass a step.
  func apply(to values: inout [Double]) {
    guard !steps.isEmpty else { return }
    values.withUnsafeMutableBufferPointer { buffer in
      for step in steps {
        switch step {
        case .add(let c): for index in buffer.indices { buffer[index] = buffer[index] + c }
        case .subtract(let c): for index in buffer.indices { buffer[index] = buffer[index] - c }
        case .multiply(let c): for index in buffer.indices { buffer[index] = buffer[index] * c }
        case .divide(let c): for index in buffer.indices { buffer[index] = buffer[index] / c }
        }
      }
    }
  }
}
