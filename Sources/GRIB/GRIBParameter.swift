/// A GRIB2 parameter: `discipline/parameterCategory/parameterNumber` (code tables 0.0,
/// 4.1 and 4.2), the identity the parameter table maps from.
public struct GRIBParameter: Sendable, Hashable, CustomStringConvertible {
  /// Code table 0.0 (0 meteorological, 2 land surface, 10 oceanographic …).
  public let discipline: Int
  /// Code table 4.1, within the discipline.
  public let category: Int
  /// Code table 4.2, within the category.
  public let number: Int

  /// A parameter from its three codes.
  public init(discipline: Int, category: Int, number: Int) {
    self.discipline = discipline
    self.category = category
    self.number = number
  }

  /// `discipline/category/number`, as the docs and messages write it.
  public var description: String { "\(discipline)/\(category)/\(number)" }
}
