import CubeFormat

/// A run's terrain (height and land mask per cell) from whatever fields its convention
/// found, with a warning naming each missing or unusable input and what it costs queries.
///
/// Both parts come from the first step: terrain does not change within a run.
struct TerrainInput {
  /// The height of each cell in metres, nil when the input has none.
  var heights: [Double]?
  /// Each cell's land fraction or flag (≥ 0.5 is land), nil when the input has none.
  var landFraction: [Double]?
  /// The file read, for warnings.
  let path: String
  /// The variables looked for, as warnings name them (e.g. `HGT`, `LANDMASK or XLAND`).
  let heightNames: String
  let maskNames: String

  /// The terrain to store and the warnings; nil (no terrain section, as before the
  /// section existed) when neither part was found.
  func terrain(cells: Int) -> (terrain: CubeTerrain?, warnings: [String]) {
    var warnings: [String] = []
    if heights == nil {
      warnings.append(
        "no \(heightNames) in \(path): elevation is unknown, and elevation= cannot correct temperature")
    }
    if landFraction == nil {
      warnings.append(
        "no \(maskNames) in \(path): cell_selection=land/sea falls back to the nearest cell")
    }
    guard heights != nil || landFraction != nil else { return (nil, warnings) }
    var terrain = CubeTerrain.unknown(cells: cells)
    if let heights, heights.count == cells {
      var refused = 0
      for cell in 0..<cells {
        let height = Float(heights[cell])
        if CubeTerrain.heightProblem(height) == nil {
          terrain.heights[cell] = height
        } else {
          refused += 1
        }
      }
      if refused > 0 {
        warnings.append(
          "\(refused) of \(cells) \(heightNames) values in \(path) are outside \(CubeTerrain.heightRange.lowerBound)…\(CubeTerrain.heightRange.upperBound) m or missing: their elevation is unknown"
        )
      }
    }
    if let landFraction, landFraction.count == cells {
      for cell in 0..<cells where landFraction[cell].isFinite {
        terrain.landMask[cell] = landFraction[cell] >= 0.5 ? 1 : 0
      }
    }
    return (terrain, warnings)
  }
}
