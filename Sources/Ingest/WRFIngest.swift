import CubeFormat
import GridGeometry
import Meteorology
import NetCDF
import UTCTime

/// Ingests WRF wrfout files into cubes, one per domain, published atomically in a store.
public enum WRFIngest {
  /// What to ingest into.
  public struct Options: Sendable {
    /// The store's root directory.
    public var store: String
    /// The model name used in the store path.
    public var model: String

    public init(store: String, model: String = "wrf") {
      self.store = store
      self.model = model
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
    /// The cubes published, one per domain, in domain order.
    public let published: [Published]
    /// Metrics left out and other things an operator should know.
    public let warnings: [String]
  }

  /// Reads `paths` (in any order; one file with many steps or one file per step), derives
  /// the metrics and publishes one cube per domain. Nothing is published for a domain
  /// whose input has an error; a domain published before the error stays published.
  public static func run(_ paths: [String], options: Options) throws(IngestError) -> Report {
    guard StoreLayout.isValidComponent(options.model, maxBytes: 31) else {
      throw IngestError(
        path: "--model",
        reason: "'\(options.model)' is not a valid model name (letters, digits, _ - ., at most 31 bytes)")
    }
    var published: [Published] = []
    var warnings: [String] = []
    for inventory in try WRFInventory.scan(paths) {
      let (cube, domainWarnings) = try ingest(inventory, options: options)
      published.append(cube)
      warnings += domainWarnings
    }
    return Report(published: published, warnings: warnings)
  }

  private static func ingest(
    _ inventory: WRFInventory, options: Options
  ) throws(IngestError) -> (Published, [String]) {
    let reader = WRFFieldReader(width: inventory.width, height: inventory.height)
    let first = inventory.steps[0]
    let latitudes = try reader.field("XLAT", at: first).map(Float.init)
    let longitudes = try reader.field("XLONG", at: first).map(Float.init)
    do {
      _ = try CurvilinearGrid(
        width: inventory.width, height: inventory.height, latitudes: latitudes, longitudes: longitudes)
    } catch {
      throw IngestError(path: first.path, variable: "XLAT/XLONG", reason: error.description)
    }
    var derivation = try WRFDerivation(inventory: inventory, longitudes: longitudes)
    let attributes = inventory.globalAttributes
    let run = UTC.runIdentifier(inventory.runStart)
    let header = CubeHeader(
      width: inventory.width, height: inventory.height, steps: inventory.steps.count,
      firstStep: first.time, stepSeconds: inventory.stepSeconds, runStart: inventory.runStart,
      model: options.model, domain: inventory.domain,
      gridSpacing: attributes["DX"]?.number ?? 0,
      projection: CubeProjection(
        code: UInt32(attributes["MAP_PROJ"]?.number ?? 0),
        parameters: ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"]
          .map { attributes[$0]?.number ?? .nan }),
      metrics: derivation.metrics.map {
        CubeMetric(name: $0.name, unit: $0.unit, temporal: $0.temporal.rawValue, scale: $0.step ?? 1, offset: $0.offset)
      })
    let destination = StoreLayout.path(store: options.store, model: options.model, domain: inventory.domain, run: run)
    let writer: CubeWriter
    do {
      writer = try CubeWriter(header: header, latitudes: latitudes, longitudes: longitudes, destination: destination)
    } catch {
      throw IngestError(path: error.path, reason: error.reason)
    }
    for (index, step) in inventory.steps.enumerated() {
      let values = try derivation.derive(step, reader: reader)
      for (slot, metric) in derivation.metrics.enumerated() {
        if let cell = writer.write(metric: slot, step: index, values: values[slot]) {
          writer.abandon()
          throw IngestError(
            path: step.path, variable: metric.name,
            reason:
              "value \(values[slot][cell]) \(metric.unit) at cell i=\(cell % inventory.width), j=\(cell / inventory.width) on \(UTC.iso8601(step.time)) is outside the storable range \(metric.offset)…\(metric.maximum)"
          )
        }
      }
    }
    do {
      let path = try writer.publish()
      return (
        Published(
          path: path, domain: inventory.domain, run: run, metrics: derivation.metrics.map(\.name),
          steps: inventory.steps.count),
        derivation.warnings
      )
    } catch {
      throw IngestError(path: error.path, reason: error.reason)
    }
  }
}
