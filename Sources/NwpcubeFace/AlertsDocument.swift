import FaceKit
import UTCTime
import Warnings

/// `/v1/alerts`'s answer: the warnings a point's forecast triggers, with everything CAP's
/// `info` block says and the link to the CAP document (docs/alerts.md).
public struct AlertsDocument: Sendable {
  public let latitude: Double
  public let longitude: Double
  public let evaluation: WarningEvaluation
  /// The URL of the point's CAP document, `…/v1/alerts.cap?latitude=…&longitude=…`.
  public let capURL: String

  public init(latitude: Double, longitude: Double, evaluation: WarningEvaluation, capURL: String) {
    self.latitude = latitude
    self.longitude = longitude
    self.evaluation = evaluation
    self.capURL = capURL
  }

  /// The JSON text, UTF-8.
  public var jsonBytes: [UInt8] {
    var json = JSONBytes(capacity: 512 + 1_024 * evaluation.warnings.count)
    json.byte(UInt8(ascii: "{"))
    json.key("latitude", first: true)
    json.number(latitude, decimals: 6)
    json.key("longitude")
    json.number(longitude, decimals: 6)
    json.key("start")
    json.string(UTC.iso8601(evaluation.start))
    json.key("start_unix")
    json.integer(evaluation.start)
    json.key("hours")
    json.integer(Int64(evaluation.hours))
    json.key("cap")
    json.string(capURL)
    json.key("alerts")
    json.array(evaluation.warnings) { json, warning in write(warning, into: &json) }
    json.byte(UInt8(ascii: "}"))
    return json.bytes
  }

  private func write(_ warning: Warning, into json: inout JSONBytes) {
    let rule = warning.rule
    json.byte(UInt8(ascii: "{"))
    json.key("id", first: true)
    json.string(rule.id)
    for name in ["title", "event", "headline"] {
      json.key(name)
      json.string(rule.title)
    }
    json.key("severity")
    json.string(rule.severity.rawValue)
    json.key("urgency")
    json.string(rule.urgency.rawValue)
    json.key("certainty")
    json.string(rule.certainty.rawValue)
    json.key("onset")
    json.string(UTC.iso8601(warning.onset))
    json.key("onset_unix")
    json.integer(warning.onset)
    json.key("expires")
    json.string(UTC.iso8601(warning.expires))
    json.key("expires_unix")
    json.integer(warning.expires)
    json.key("description")
    json.string(rule.description)
    if let instruction = rule.instruction {
      json.key("instruction")
      json.string(instruction)
    }
    json.key("metric")
    json.string(rule.metric.name)
    json.key("comparison")
    json.string(rule.comparison.rawValue)
    json.key("threshold")
    json.number(rule.threshold, decimals: 4)
    json.key("unit")
    json.string(rule.unitLabel)
    json.key("duration_hours")
    json.integer(Int64(rule.durationHours))
    json.key("peak")
    json.number(warning.peak, decimals: 2)
    json.key("area")
    json.string(warning.areaDescription)
    let cell = warning.cell
    json.key("cell")
    json.byte(UInt8(ascii: "{"))
    json.key("model", first: true)
    json.string(cell.provenance.model)
    json.key("domain")
    json.string(cell.provenance.domain)
    json.key("run")
    json.string(cell.provenance.run)
    json.key("i")
    json.integer(Int64(cell.i))
    json.key("j")
    json.integer(Int64(cell.j))
    json.key("latitude")
    json.number(cell.latitude, decimals: 4)
    json.key("longitude")
    json.number(cell.longitude, decimals: 4)
    json.key("polygon")
    json.array(warning.cell.corners + warning.cell.corners.prefix(1)) { json, corner in
      json.byte(UInt8(ascii: "["))
      json.number(corner.latitude, decimals: 4)
      json.byte(UInt8(ascii: ","))
      json.number(corner.longitude, decimals: 4)
      json.byte(UInt8(ascii: "]"))
    }
    json.byte(UInt8(ascii: "}"))
    json.key("uri")
    json.string(capURL)
    json.byte(UInt8(ascii: "}"))
  }
}
