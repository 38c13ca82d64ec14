import CubeFormat
import Dispatch
import Meteorology
import Synchronization

/// Ingests a run's NetCDF or GRIB files into cubes, one per domain, published atomically in a store.
public enum Ingestor {
  /// What to ingest into, and how to read the input.
  public struct Options: Sendable {
    /// The store's root directory.
    public var store: String
    /// The model name used in the store path; nil uses the input's (a GRIB run's centre:
    /// `ncep`, `ecmwf` …) or else the convention's name (`wrf`, `cf`).
    public var model: String?
    /// How to read the files.
    public var convention: Convention
    /// Variables (and units) to use for metrics, ahead of discovery (CF files), or GRIB
    /// parameters (`shortName` or `d/c/n`, with `:typeOfLevel:level`) ahead of the table.
    public var map: VariableMap?
    /// Quantization steps that replace the metric table's (`Metric.precisions`, checked
    /// with `Metric.precisionProblem`).
    public var precision: [Metric: Double]
    /// The memory budget (bytes) each domain's ingest plans within (`IngestCost`: the
    /// band of cells it writes at a time); a run whose smallest band would need more is
    /// refused before it reads a field. Nil: `IngestCost.defaultMaxMemory()`, 512 MiB.
    public var maxMemory: Int?

    public init(
      store: String, model: String? = nil, convention: Convention = .auto, map: VariableMap? = nil,
      precision: [Metric: Double] = [:], maxMemory: Int? = nil
    ) {
      self.store = store
      self.model = model
      self.convention = convention
      self.map = map
      self.precision = precision
      self.maxMemory = maxMemory
    }
  }

  /// One published cube.
  public struct Published: Sendable, Equatable {
    /// Where the cube now is.
    public let path: String
    /// The domain, e.g. `d01`.
    public let domain: String
    /// The run, `yyyyMMddHH`.
    public let run: String
    /// The stored metrics.
    public let metrics: [String]
    /// Number of time steps.
    public let steps: Int
  }

  /// The outcome of an ingest.
  public struct Report: Sendable {
    /// The convention the files were read with.
    public let convention: Convention
    /// The cubes published, one per domain, in domain order.
    public let published: [Published]
    /// Metrics left out and other things an operator should know.
    public let warnings: [String]
    /// Temporary files of killed or crashed writers that were removed from the store first.
    public let removedTemporaryFiles: [TemporaryFiles.Leftover]
    /// What each domain was predicted to cost (checked against the limits before it was
    /// read), in domain order.
    public let costs: [IngestCost]
  }

  /// Reads `paths` (in any order; one file with many steps or one file per step), derives
  /// the metrics and publishes one cube per domain. Nothing is published for a domain
  /// whose input has an error; a domain published before the error stays published.
  ///
  /// First removes the store's stale temporary files (see `TemporaryFiles`): every ingest
  /// killed while writing leaves one as large as its cube.
  ///
  /// Refuses, before reading any field, a domain whose smallest band's predicted memory
  /// (`IngestCost`) exceeds `options.maxMemory` or whose cube would not fit on the store's
  /// disk; refuses
  /// a domain in which more than `InputScreen.refusedShare` of a field is implausible.
  public static func run(_ paths: [String], options: Options) throws(IngestError) -> Report {
    guard let first = paths.first else {
      throw IngestError(path: "ingest", reason: "no input files given")
    }
    let convention = options.convention == .auto ? try Convention.detect(first) : options.convention
    if let model = options.model, !StoreLayout.isValidComponent(model, maxBytes: 31) {
      throw IngestError(
        path: "--model", reason: "'\(model)' is not a valid model name (letters, digits, _ - ., at most 31 bytes)")
    }
    if let map = options.map, convention != .cf, convention != .grib {
      throw IngestError(
        path: map.path, reason: "a variable map applies to CF and GRIB files; these were read as \(convention.rawValue)"
      )
    }
    for (metric, step) in options.precision {
      if let problem = metric.precisionProblem(step) { throw IngestError(path: "--precision", reason: problem) }
    }
    let removed = TemporaryFiles.removeStale(in: options.store)
    let maxMemory = options.maxMemory ?? IngestCost.defaultMaxMemory()
    let plans: [IngestPlan]
    switch convention {
    case .wrf, .auto: plans = try WRFConvention.plans(paths, maxMemory: maxMemory)
    case .mm5: plans = try MM5Convention.plans(paths, maxMemory: maxMemory)
    case .cf: plans = try CFConvention.plans(paths, map: options.map, maxMemory: maxMemory)
    case .grib: plans = try GRIBConvention.plans(paths, map: options.map, maxMemory: maxMemory)
    }
    var published: [Published] = []
    var warnings: [String] = []
    var costs: [IngestCost] = []
    for plan in plans {
      do {
        let domain = try ingest(plan, convention: convention, options: options, maxMemory: maxMemory)
        published.append(domain.published)
        warnings += domain.warnings
        costs.append(domain.cost)
      } catch {
        // A refusal of the grid by its check, which may still be running beside the
        // derivation, outranks the domain's other errors, as when the check came first.
        throw plan.gridCheck?.preferring(error) ?? error
      }
    }
    return Report(
      convention: convention, published: published, warnings: warnings, removedTemporaryFiles: removed,
      costs: costs)
  }

  /// Publishes the cube of one domain's `plan`; its cost and warnings.
  private static func ingest(
    _ conventionPlan: IngestPlan, convention: Convention, options: Options, maxMemory: Int
  ) throws(IngestError) -> (published: Published, warnings: [String], cost: IngestCost) {
    // The neighbourhood share of rain is computed alike for every convention, from the
    // plan's own rain; its reach is part of each band's rows. The projection is checked
    // once: the warning, the cube's record and its locator index share the outcome.
    var (plan, geometry) = prepared(
      conventionPlan, rainStep: options.precision[.rain] ?? Metric.rain.step ?? 0.1, names: .of(convention))
    plan.inputConvention = convention.input
    if let problem = geometry.unlocatable {
      throw IngestError(
        path: plan.steps[0].path,
        reason:
          "no locator can find points on this grid: it is not a latitude/longitude lattice, no map projection locates it, and the generic locator refuses it: \(problem)"
      )
    }
    let cost = IngestCost(
      width: plan.width, height: plan.height, steps: plan.steps.count, levels: plan.levels,
      metrics: plan.metrics.count, positions: plan.motion?.positions.count ?? 1, terrain: plan.terrain != nil,
      haloRows: plan.haloRows, budget: maxMemory,
      chunked: IngestCost.isChunked(plan.steps[0].path),
      wholeFieldReads: convention == .grib ? IngestCost.gribFieldsDecoded : 0, stepFields: plan.stepFields,
      neighbourhood: plan.neighbourhoodBytes, wholeFields: plan.wholeFields)
    try cost.require(store: options.store, path: plan.steps[0].path)
    // The fields the plan keeps, and whatever else the budget leaves.
    if cost.bands > 1 {
      plan.spareMemory?(Swift.max(0, Int(Double(maxMemory) - cost.memory + cost.keptBytes)))
    }
    var warnings = plan.warnings
    if let warning = geometry.warning { warnings.append(warning) }
    let published = try CubePublisher.publish(
      plan, store: options.store, model: options.model ?? plan.model ?? convention.rawValue,
      precision: options.precision, cost: cost, geometry: geometry)
    warnings += plan.screen.warnings(width: plan.width, grid: plan.grid(at:))
    return (published, warnings, cost)
  }

  /// `plan` with its precipitation neighbourhood, and the check of its projection, made at
  /// once on two threads: each looks at every cell of the grid before the first step is
  /// read, neither needs the other, and either alone kept one core of two busy. Neither
  /// throws, so an error still comes from the first step that has one.
  private static func prepared(
    _ plan: IngestPlan, rainStep: Double, names: ProjectionCheck.Names
  ) -> (IngestPlan, ProjectionCheck.Outcome) {
    let results = Mutex<(plan: IngestPlan?, geometry: ProjectionCheck.Outcome?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        let widened = plan.addingPrecipitationNeighbourhood(rainStep: rainStep)
        results.withLock { $0.plan = widened }
      } else {
        let geometry = ProjectionCheck.check(plan, names: names)
        results.withLock { $0.geometry = geometry }
      }
    }
    // `concurrentPerform` returns once both have run, so both are set.
    let (widened, geometry) = results.withLock { ($0.plan, $0.geometry) }
    return (
      widened ?? plan.addingPrecipitationNeighbourhood(rainStep: rainStep),
      geometry ?? ProjectionCheck.check(plan, names: names)
    )
  }
}
