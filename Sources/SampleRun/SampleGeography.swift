/// The surface under a sample run's grid: land and sea, distance to the coast, terrain
/// and the direction a sea breeze blows in from.
struct SampleGeography: Sendable {
  /// Whether each cell is land (`LANDMASK` 1).
  let isLand: [Bool]
  /// Kilometres from each cell's centre to the nearest coast, on whichever side it is.
  let coastDistance: [Double]
  /// Terrain height in metres (`HGT`), exactly 0 over the sea.
  let height: [Double]
  /// The earth-relative unit vector pointing inland across the nearest coast, (0, 0) far
  /// from any coast or where the grid has none.
  let onshoreEast: [Double]
  let onshoreNorth: [Double]

  init(grid: SampleGrid, dx: Double, seed: UInt64) {
    let count = grid.count
    let isLand = (0..<count).map {
      IberianCoast.isLand(latitude: grid.latitudes[$0], longitude: grid.longitudes[$0])
    }
    let toSea = Self.chamferDistance(grid: grid, sources: isLand.map { !$0 })
    let toLand = Self.chamferDistance(grid: grid, sources: isLand)
    // A cell next to the other kind is half a cell from the coastline between them.
    let cellKilometres = dx / 1000
    let coastDistance = (0..<count).map { cell in
      max(0, (isLand[cell] ? toSea[cell] : toLand[cell]) - 0.5) * cellKilometres
    }
    let roughness = SmoothNoise(seed: seed ^ 0x7E44_A1B0, spacing: 22)
    height = (0..<count).map { cell in
      guard isLand[cell] else { return 0 }
      let relief = IberianRelief.elevation(
        latitude: grid.latitudes[cell], longitude: grid.longitudes[cell],
        coastDistance: coastDistance[cell])
      let detail =
        70 * roughness.value(east: grid.east[cell], north: grid.north[cell])
        * IberianRelief.smoothstep(coastDistance[cell] / 20)
      // Land stays above sea level so that HGT alone tells land from sea.
      return max(1, relief + detail)
    }
    self.isLand = isLand
    self.coastDistance = coastDistance

    // The onshore direction is the gradient of the signed distance to the coast, taken
    // on the grid and then turned to earth axes like a wind.
    let signed = (0..<count).map { isLand[$0] ? coastDistance[$0] : -coastDistance[$0] }
    var onshoreEast = [Double](repeating: 0, count: count)
    var onshoreNorth = [Double](repeating: 0, count: count)
    let nx = grid.westEast
    let ny = grid.southNorth
    for j in 0..<ny {
      for i in 0..<nx {
        let cell = j * nx + i
        let gx = signed[j * nx + min(i + 1, nx - 1)] - signed[j * nx + max(i - 1, 0)]
        let gy = signed[min(j + 1, ny - 1) * nx + i] - signed[max(j - 1, 0) * nx + i]
        let length = (gx * gx + gy * gy).squareRoot()
        guard length > 0 else { continue }
        let (u, v) = (gx / length, gy / length)
        onshoreEast[cell] = u * grid.cosAlpha[cell] - v * grid.sinAlpha[cell]
        onshoreNorth[cell] = u * grid.sinAlpha[cell] + v * grid.cosAlpha[cell]
      }
    }
    self.onshoreEast = onshoreEast
    self.onshoreNorth = onshoreNorth
  }

  /// Distance in cells from every cell to the nearest source cell, by a two-pass
  /// 8-neighbour chamfer transform; within a few percent of Euclidean, which is all a
  /// coastal taper needs, and linear in the grid size.
  private static func chamferDistance(grid: SampleGrid, sources: [Bool]) -> [Double] {
    let nx = grid.westEast
    let ny = grid.southNorth
    // Farther than any grid reaches, so that a grid without sources reads "far away".
    let far = Double(nx + ny) * 4 + 1000
    var distance = sources.map { $0 ? 0 : far }
    let diagonal = 2.0.squareRoot()
    let forward: [(Int, Int, Double)] = [(-1, 0, 1), (-1, -1, diagonal), (0, -1, 1), (1, -1, diagonal)]
    let backward: [(Int, Int, Double)] = [(1, 0, 1), (1, 1, diagonal), (0, 1, 1), (-1, 1, diagonal)]
    for j in 0..<ny {
      for i in 0..<nx {
        relax(&distance, i, j, nx, ny, forward)
      }
    }
    for j in stride(from: ny - 1, through: 0, by: -1) {
      for i in stride(from: nx - 1, through: 0, by: -1) {
        relax(&distance, i, j, nx, ny, backward)
      }
    }
    return distance
  }

  private static func relax(
    _ distance: inout [Double], _ i: Int, _ j: Int, _ nx: Int, _ ny: Int, _ offsets: [(Int, Int, Double)]
  ) {
    var best = distance[j * nx + i]
    for (di, dj, step) in offsets {
      let ni = i + di
      let nj = j + dj
      guard ni >= 0, ni < nx, nj >= 0, nj < ny else { continue }
      best = min(best, distance[nj * nx + ni] + step)
    }
    distance[j * nx + i] = best
  }
}
