/// The neighbourhood behind the harness's interface; `detail` comes from Detail-new.swift or
/// Detail-revision.swift.
struct Built {
  let neighbourhood: PrecipitationNeighbourhood
  var halo: Int { neighbourhood.haloRows }
  func whole(_ rain: [Double]) -> [Double] { neighbourhood.percentages(rain: rain) }
  func bands(_ rain: [Double], width: Int, height: Int, rows: Int) -> [[Double]]? {
    stride(from: 0, to: height, by: rows).map { first in
      let owned = first..<min(first + rows, height)
      let band = max(first - halo, 0)..<min(owned.upperBound + halo, height)
      return rain[band.lowerBound * width..<band.upperBound * width].withUnsafeBufferPointer {
        neighbourhood.percentages(rain: $0, rows: band, owned: owned)
      }
    }
  }
}

func build(_ latitudes: [Float], _ longitudes: [Float], _ width: Int, _ height: Int) -> Built? {
  (try? PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes, width: width, height: height))
    .map(Built.init)
}

func refusal(_ latitudes: [Float], _ longitudes: [Float], _ width: Int, _ height: Int) -> String {
  do {
    _ = try PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes, width: width, height: height)
    return ""
  } catch { return error.reason }
}
