/// The earlier neighbourhood (whole grid only) behind the harness's interface.
struct Built {
  let neighbourhood: PrecipitationNeighbourhood
  var halo: Int { -1 }
  func whole(_ rain: [Double]) -> [Double] { neighbourhood.percentages(rain: rain) }
  func bands(_ rain: [Double], width: Int, height: Int, rows: Int) -> [[Double]]? { nil }
}

func build(_ latitudes: [Float], _ longitudes: [Float], _ width: Int, _ height: Int) -> Built? {
  (try? PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes)).map(Built.init)
}

func refusal(_ latitudes: [Float], _ longitudes: [Float], _ width: Int, _ height: Int) -> String {
  do {
    _ = try PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes)
    return ""
  } catch { return error.reason }
}
