/// The value of a NetCDF attribute, widened to the three shapes a reader needs.
public enum NCAttribute: Equatable, Sendable {
  case text(String)
  case integers([Int64])
  case reals([Double])

  /// The attribute as text, if it is text.
  public var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// The first element as a number, for numeric attributes.
  public var number: Double? {
    switch self {
    case .text: nil
    case .integers(let values): values.first.map(Double.init)
    case .reals(let values): values.first
    }
  }

  /// All elements as numbers, for numeric attributes.
  public var numbers: [Double] {
    switch self {
    case .text: []
    case .integers(let values): values.map(Double.init)
    case .reals(let values): values
    }
  }
}
