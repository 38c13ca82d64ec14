import Forecast
import Meteorology

/// Where an answer's values came from, as JSON: the `cell` and `sources` members and the
/// `unavailable` reasons, which nwpcube's forecast document and Open-Meteo's write alike.
package enum SourceJSON {
  /// `{"i":…,"j":…,"latitude":…,"longitude":…}`: the grid cell a source answered from.
  package static func cell(_ source: Provenance) -> String {
    var out = JSONBytes(capacity: 80)
    out.cell(source)
    return out.text
  }

  /// `{"model":…,"domain":…,"run":…,"cell":{…}}`: one entry of `sources`.
  package static func source(_ source: Provenance) -> String {
    var out = JSONBytes(capacity: 160)
    out.source(source)
    return out.text
  }

  /// For each metric of `asked` (in order, each once) that some of `sources` cannot
  /// answer: why (what it is derived from, or that an older ingest skipped it) and which
  /// cubes lack it, one clause per reason when the cubes lack it for different ones.
  package static func unavailable(_ asked: [Metric], from sources: [Provenance]) -> [(String, String)] {
    // Most answers come from cubes that hold every metric: nothing to look for.
    guard !sources.allSatisfy(\.answersEveryMetric) else { return [] }
    var seen: Set<Metric> = []
    return asked.compactMap { metric in
      guard seen.insert(metric).inserted else { return nil }
      var reasons: [(reason: String, cubes: [String])] = []
      for source in sources where !source.answers(metric) {
        let (reason, cube) = (source.absenceReason(metric), "\(source.model)/\(source.domain) \(source.run)")
        if let index = reasons.firstIndex(where: { $0.reason == reason }) {
          reasons[index].cubes.append(cube)
        } else {
          reasons.append((reason, [cube]))
        }
      }
      guard !reasons.isEmpty else { return nil }
      let text = reasons.map { "\($0.reason); lacking in \($0.cubes.joined(separator: ", "))" }
      return (metric.name, JSONText.string(text.joined(separator: "; ")))
    }
  }
}
