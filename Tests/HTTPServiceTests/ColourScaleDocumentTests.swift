import Foundation
import MapTiles
import Meteorology
import Testing
import _TestSupport

/// The colour scales are the ones docs/pictures.md documents: its scale table is read and
/// every metric's scale compared with it, stop by stop, and a few colours between stops
/// worked out here by hand.
@Suite struct ColourScaleDocumentTests {
  /// The documented scales: metric name → (stops as value, hex, alpha; transparent below).
  static func documented() throws -> [String: (stops: [(Double, String, Int)], below: Double?)] {
    let text = try String(contentsOfFile: "\(SampleFiles.packageRoot)/docs/pictures.md", encoding: .utf8)
    var scales: [String: (stops: [(Double, String, Int)], below: Double?)] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| ") && line.contains("#") {
      let columns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard columns.count >= 4 else { continue }
      let metrics = columns[1].split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "`")))
      }
      let stops = try columns[2].split(separator: ",").map { stop -> (Double, String, Int) in
        let parts = stop.trimmingCharacters(in: .whitespaces).split(separator: " ")
        let value = try #require(Double(parts[0].replacingOccurrences(of: "−", with: "-")), "\(line)")
        let colour = parts[1].split(separator: "/")
        return (value, String(colour[0]), colour.count > 1 ? Int(colour[1]) ?? -1 : 255)
      }
      let below = Double(columns[3].replacingOccurrences(of: "−", with: "-"))
      for metric in metrics { scales[metric] = (stops, below) }
    }
    return scales
  }

  @Test func everyNamedScaleIsTheDocumentedOne() throws {
    let documented = try Self.documented()
    #expect(documented.count >= 15, "\(documented.keys.sorted())")
    for (name, scale) in documented {
      let metric = try #require(Metric.named(name), "docs/pictures.md names \(name)")
      let actual = ColourScale.scale(for: metric)
      #expect(actual.stops.count == scale.stops.count, "\(name)")
      for (stop, (value, hex, alpha)) in zip(actual.stops, scale.stops) {
        #expect(stop.value == value && stop.colour.hex == hex && Int(stop.colour.alpha) == alpha, "\(name): \(stop)")
      }
      #expect(actual.transparentBelow == scale.below, "\(name)")
    }
  }

  @Test func theOtherMetricsAreViridisOverTheirRange() throws {
    let documented = try Self.documented()
    let viridis = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"]
    for metric in Metric.queryable where documented[metric.name] == nil {
      let scale = ColourScale.scale(for: metric)
      #expect(scale.stops.map(\.colour.hex) == viridis, "\(metric.name)")
      #expect(scale.stops.first?.value == metric.range.lowerBound && scale.stops.last?.value == metric.range.upperBound)
    }
  }

  @Test func coloursBetweenStopsAreLinearAndTheEndsClamp() throws {
    let temp = ColourScale.scale(for: .temp)
    // Halfway between 0 °C #a6dbf0 and 10 °C #eaf5c8: (166+234)/2, (219+245)/2, (240+200)/2.
    #expect(temp.colour(5) == RGBA(200, 232, 220))
    #expect(temp.colour(-80) == RGBA(hex: 0x5e3c99) && temp.colour(90) == RGBA(hex: 0x5c0016))
    let rain = ColourScale.scale(for: .rain)
    #expect(rain.colour(0) == .transparent && rain.colour(0.099) == .transparent)
    #expect(rain.colour(0.1) == RGBA(hex: 0x9ecae1, alpha: 170))
    // A quarter of the way from 1 mm #2171b5 to 2 mm #41ab5d.
    #expect(rain.colour(1.25) == RGBA(41, 128, 159))
    #expect(rain.colour(.nan) == .transparent)
  }
}
