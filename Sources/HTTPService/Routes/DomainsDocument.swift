import Hummingbird
import JSONOutput
import MapTiles

/// `/v1/domains`' answer: each domain's extent at a time, and a moving grid's every
/// position with the times it is there.
///
///     {"domains":[{"model_domain":"wrf/d01","south":…,"west":…,"north":…,"east":…}]}
///
/// A moving domain adds `time` (the step its extent is given at) and `positions`, each an
/// extent with its `times`.
struct DomainsDocument: ResponseEncodable {
  /// South, west, north and east edges, to 4 decimals (11 m): members of the object that
  /// holds them, not an object of their own.
  struct Extent: Encodable {
    let south: JSONDecimal
    let west: JSONDecimal
    let north: JSONDecimal
    let east: JSONDecimal

    init(_ bounds: DomainBounds) {
      south = JSONDecimal(bounds.south, places: 4)
      west = JSONDecimal(bounds.west, places: 4)
      north = JSONDecimal(bounds.north, places: 4)
      east = JSONDecimal(bounds.east, places: 4)
    }
  }

  /// One domain, as its newest run covers it.
  struct Domain: Encodable {
    /// `model/domain`.
    let modelDomain: String
    let extent: Extent
    /// A moving grid's step the extent is given at, ISO 8601; nil for a fixed grid.
    var time: String? = nil
    /// A moving grid's every position; nil for a fixed grid.
    var positions: [Position]? = nil

    private enum CodingKeys: String, CodingKey {
      case modelDomain = "model_domain"
      case time, positions
    }

    /// `model_domain`, the extent's four edges, then a moving grid's `time` and `positions`.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(modelDomain, forKey: .modelDomain)
      try extent.encode(to: encoder)
      try container.encodeIfPresent(time, forKey: .time)
      try container.encodeIfPresent(positions, forKey: .positions)
    }
  }

  /// One position of a moving grid: its extent and the times (ISO 8601) it is there.
  struct Position: Encodable {
    let extent: Extent
    let times: [String]

    private enum CodingKeys: String, CodingKey {
      case times
    }

    /// The extent's four edges, then `times`.
    func encode(to encoder: any Encoder) throws {
      try extent.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(times, forKey: .times)
    }
  }

  let domains: [Domain]
}
