/// What a NetCDF file says about one of its variables.
public struct NCVariable: Sendable {
  /// The variable's name.
  public let name: String
  /// The libnetcdf variable id within its file.
  public let id: Int32
  /// The external type of the stored values.
  public let type: NCType
  /// The names of the variable's dimensions, slowest-varying first.
  public let dimensions: [String]
  /// The length of each dimension, in the same order.
  public let shape: [Int]
  /// The variable's attributes by name.
  public let attributes: [String: NCAttribute]

  /// The number of values in the whole variable; `Int.max` when the declared dimensions'
  /// product overflows (a file may declare any lengths).
  public var count: Int { shape.checkedProduct ?? .max }
}

extension Sequence<Int> {
  /// The product of the lengths, nil when it overflows `Int`: a file may declare any
  /// lengths, and every count made from them goes through here.
  var checkedProduct: Int? {
    var total = 1
    for length in self {
      let (product, overflow) = total.multipliedReportingOverflow(by: length)
      if overflow { return nil }
      total = product
    }
    return total
  }
}

/// A NetCDF dimension.
public struct NCDimension: Sendable, Equatable {
  /// The dimension's name.
  public let name: String
  /// Its current length (for an unlimited dimension, the number of records written).
  public let length: Int
  /// Whether the dimension is the record (unlimited) dimension.
  public let isUnlimited: Bool
}
