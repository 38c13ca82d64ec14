import NetCDF

/// Model fields under WRF's names and units, one step at a time: what `WRFDerivation`
/// reads. WRF files are read as they are; other model conventions (MM5) translate.
protocol FieldSource: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// A surface field (`south_north × west_east`) at a step.
  func field(_ name: String, at step: StepSource) throws(IngestError) -> [Double]
  /// Levels `levels` (every level when nil; those of them the field has otherwise) of a
  /// `(Time, level, rows, columns)` field at a step, level by level. `rows × columns` is the mass grid for most fields, one more
  /// column for U and one more row for V (staggered). Reading only the levels a metric
  /// needs keeps ingest cheap: a lowest-level read is a fraction of the volume.
  func levels(
    _ name: String, _ levels: Range<Int>?, rows: Int, columns: Int, at step: StepSource
  ) throws(IngestError) -> [Double]
}

extension FieldSource {
  /// All levels of a 3-D field on the mass grid at a step, level by level.
  func volume(_ name: String, at step: StepSource) throws(IngestError) -> [Double] {
    try levels(name, nil, rows: height, columns: width, at: step)
  }

  /// Levels `levels` of a 3-D field on the mass grid at a step, level by level.
  func volume(_ name: String, _ levels: Range<Int>, at step: StepSource) throws(IngestError) -> [Double] {
    try self.levels(name, levels, rows: height, columns: width, at: step)
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
