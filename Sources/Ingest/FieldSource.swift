import NetCDF

/// Model fields under WRF's names and units, one step and one range of rows at a time:
/// what `WRFDerivation` reads. WRF files are read as they are; other model conventions
/// (MM5) translate. Reading rows rather than the whole grid keeps a band's ingest within
/// its memory budget: each read is a hyperslab of those rows only.
protocol FieldSource: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// Rows `rows` of a surface field (`south_north × west_east`) at a step, row by row.
  func field(_ name: String, rows: Range<Int>, at step: StepSource) throws(IngestError) -> [Double]
  /// Levels `levels` (every level when nil; those of them the field has otherwise) of rows
  /// `rows` of a `(Time, level, gridRows, columns)` field at a step, level by level.
  /// `gridRows × columns` is the mass grid for most fields, one more column for U and one
  /// more row for V (staggered). Reading only the levels a metric needs keeps ingest
  /// cheap: a lowest-level read is a fraction of the volume.
  func levels(
    _ name: String, _ levels: Range<Int>?, rows: Range<Int>, of gridRows: Int, columns: Int, at step: StepSource
  ) throws(IngestError) -> [Double]
}

extension FieldSource {
  /// A whole surface field at a step: the geometry and terrain, read once per position.
  func field(_ name: String, at step: StepSource) throws(IngestError) -> [Double] {
    try field(name, rows: 0..<height, at: step)
  }

  /// Levels `levels` (all when nil) of rows `rows` of a 3-D field on the mass grid at a
  /// step, level by level.
  func volume(
    _ name: String, _ levels: Range<Int>? = nil, rows: Range<Int>, at step: StepSource
  ) throws(IngestError)
    -> [Double]
  {
    try self.levels(name, levels, rows: rows, of: height, columns: width, at: step)
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
