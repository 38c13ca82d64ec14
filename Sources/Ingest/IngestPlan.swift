import CubeFormat
import Meteorology

/// What a convention hands to the cube publisher for one domain: identity, grid, time
/// axis, the metrics it can derive and how to derive them one step at a time.
struct IngestPlan {
  let domain: String
  let steps: [StepSource]
  let stepSeconds: Int64
  let runStart: Int64
  let width: Int
  let height: Int
  /// The grid's coordinates; of its first position when it moves (`motion`).
  let latitudes: [Float]
  let longitudes: [Float]
  let projection: CubeProjection
  /// Nominal grid spacing in metres; nested-domain selection prefers the smallest.
  let gridSpacing: Double
  var metrics: [Metric]
  var warnings: [String]
  /// The model's terrain height and land mask, nil when the input has neither; of the
  /// first position when the grid moves.
  let terrain: CubeTerrain?
  /// The most model levels (staggered included) a 3-D field read has; 0 for none.
  let levels: Int
  /// Screens the inputs and derived values, and counts what it screened out.
  let screen: InputScreen
  /// The values of `metrics` at `steps[index]` over the rows of `band` (`[metric][cell of
  /// the rows]`, row by row, NaN where unknown); the screen counts the band's own cells.
  /// Per-cell work does not depend on the rows, so a band's values equal the whole grid's
  /// for the same cells. The publisher derives several steps at once, in no particular
  /// order, so it keeps no state between calls and may run on any thread.
  var derive: @Sendable (_ index: Int, _ band: RowBand) throws(IngestError) -> [[Double]]
  /// The positions of a grid that moves (a WRF moving nest) and each step's; nil for a
  /// grid that does not, which the cube stores as today.
  var motion: GridMotion? = nil
  /// Rows above and below a band whose values `derive` reads beyond the band's rows (the
  /// precipitation neighbourhood's reach); 0 without a neighbourhood.
  var haloRows = 0
  /// The model the input names (a GRIB run's centre), used in the store path unless the
  /// operator gives one; nil for the convention's name.
  var model: String? = nil
  /// The kind of input, which the cube records so that queries explain a missing metric
  /// in the input's own names; nil records none.
  var inputConvention: InputConvention? = nil
  /// Offered, when the cube is written in several bands, the bytes of the budget that the
  /// plan's cost leaves unused: a convention that decodes fields whole (GRIB) keeps them
  /// there for the bands after the first. Nil for conventions that read by rows.
  var spareMemory: (@Sendable (_ bytes: Int) -> Void)? = nil
  /// Band-sized fields a step holds over its rows besides its 3-D fields, as `IngestCost`
  /// plans them: `IngestCost.wrfStepFields` unless the convention knows what it reads
  /// (GRIB: its quantities).
  var stepFields = IngestCost.wrfStepFields
  /// The bytes the precipitation neighbourhood holds, when they are known
  /// (`PrecipitationNeighbourhood.heldBytes`); nil for `IngestCost`'s bound.
  var neighbourhoodBytes: Double? = nil
  /// Fields the convention decodes whole, which a band after the first decodes again
  /// unless they are kept (`spareMemory`): how many, and the bytes each takes kept.
  var wholeFields: (count: Int, bytes: Double) = (0, 0)
  /// The check of the grid (`InputGrid.validated()`), when it is still running beside the
  /// derivation (a CF run's first file's: a million cells of a global grid, on the path to
  /// the first step otherwise). Its refusal outranks any other error of the domain, and the
  /// cube is published only once it has passed.
  var gridCheck: BackgroundGridCheck? = nil
}

extension IngestPlan {
  /// The coordinates of the grid at `step`: its position's when the grid moves.
  func grid(at step: StepSource) -> (latitudes: [Float], longitudes: [Float]) {
    guard let motion, let index = steps.firstIndex(of: step) else { return (latitudes, longitudes) }
    let position = motion.positions[motion.stepPositions[index]]
    return (position.latitudes, position.longitudes)
  }
}
