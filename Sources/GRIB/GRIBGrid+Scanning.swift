extension GRIBGrid {
  /// The scanning mode (GRIB2 flag table 3.4, edition 1's table 8): the directions rows
  /// and columns run in, which the coordinates follow. Points consecutive along columns
  /// and rows that alternate in direction are refused by name: no model nwpcube serves
  /// writes them, and honouring them would reorder every decoded field.
  struct Scanning {
    /// Points run east to west along a row (`iScansNegatively`).
    let iNegative: Bool
    /// Rows run south to north (`jScansPositively`).
    let jPositive: Bool

    init(_ handle: GRIBHandle) throws(GRIBError) {
      iNegative = try handle.optionalLong("iScansNegatively") == 1
      jPositive = try handle.optionalLong("jScansPositively") == 1
      if try handle.optionalLong("jPointsAreConsecutive") == 1 {
        throw GRIBError(
          reason: "jPointsAreConsecutive = 1 (values run along columns, not rows) is not supported", path: handle.path,
          message: handle.message, key: "jPointsAreConsecutive")
      }
      if try handle.optionalLong("alternativeRowScanning") == 1 {
        throw GRIBError(
          reason: "alternativeRowScanning = 1 (every other row runs backwards) is not supported", path: handle.path,
          message: handle.message, key: "alternativeRowScanning")
      }
    }
  }
}
