import NetCDF

/// Model fields under WRF's names and units, one step at a time: what `WRFDerivation`
/// reads. WRF files are read as they are; other model conventions (MM5) translate.
protocol FieldSource: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// A surface field (`south_north × west_east`) at a step.
  func field(_ name: String, at step: StepSource) throws(IngestError) -> [Double]
  /// All levels of a 3-D field at a step, level by level.
  func volume(_ name: String, at step: StepSource) throws(IngestError) -> [Double]
}

extension FieldSource {
  /// The maximum over vertical levels of a 3-D field; NaN at any level makes the column
  /// unknown.
  func columnMaximum(_ name: String, at step: StepSource) throws(IngestError) -> [Double] {
    let values = try volume(name, at: step)
    let cells = width * height
    var maximum = [Double](repeating: -.infinity, count: cells)
    for level in 0..<(values.count / cells) {
      for cell in 0..<cells {
        let value = values[level * cells + cell]
        maximum[cell] = value.isNaN || maximum[cell].isNaN ? .nan : max(maximum[cell], value)
      }
    }
    return maximum
  }
}

/// What a derivation needs to know about its input besides the fields.
struct DerivationInput {
  /// The WRF names of the fields the source can provide.
  let available: Set<String>
  /// WRF-style projection attributes (MAP_PROJ, TRUELAT1, STAND_LON, …, BUCKET_MM).
  let attributes: [String: NCAttribute]
  let stepSeconds: Int64
  let startsAtRunStart: Bool
  /// The file named in warnings.
  let label: String
}
