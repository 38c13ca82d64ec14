import Foundation

extension CellLocator {
  /// Buckets per cell the build may use, on top of `fixedAllowance`. Real grids use 4–5
  /// (buckets are half a mean spacing wide), 8.3 for a polar-stereographic grid centred on
  /// the pole, whose outer cells the gnomonic plane stretches.
  public static let bucketsPerCell = 64
  /// Bucket positions and cells per cell the build may examine, on top of
  /// `fixedAllowance`. Real grids need 190–380 (the 135 × 80 sample run 198), the polar
  /// grid above 824: 2048 leaves them all more than twice their need.
  public static let workPerCell = 2048
  /// What every grid may use whatever its size, so that small grids are not starved.
  public static let fixedAllowance = 1 << 16

  /// The most buckets the build uses for a grid of `cells` cells.
  public static func bucketLimit(cells: Int) -> Int {
    min(cells, Int(Int32.max) / bucketsPerCell) * bucketsPerCell + fixedAllowance
  }

  /// The most cells and buckets the build examines for a grid of `cells` cells; below
  /// Int32.max, so that candidate indices and offsets always fit their 32-bit tables.
  public static func workLimit(cells: Int) -> Int {
    min(min(cells, Int(Int32.max) / workPerCell) * workPerCell + fixedAllowance, Int(Int32.max))
  }

  /// The grid's neighbour spacing: in the plane (for bucket sizes), and the angular reach
  /// beyond which no point of the grid can be from its nearest cell.
  static func spacing(
    points: [UnitVector], planeX: [Double], planeY: [Double], grid: CurvilinearGrid
  ) -> (plane: Double, reach: Double) {
    var planeSum = 0.0
    var planeCount = 0
    var largestAngle = 0.0
    for j in 0..<grid.height {
      for i in 0..<grid.width {
        let cell = j * grid.width + i
        for neighbour in [i + 1 < grid.width ? cell + 1 : nil, j + 1 < grid.height ? cell + grid.width : nil] {
          guard let neighbour else { continue }
          planeSum += hypot(planeX[neighbour] - planeX[cell], planeY[neighbour] - planeY[cell])
          planeCount += 1
          largestAngle = max(largestAngle, points[cell].angle(to: points[neighbour]))
        }
      }
    }
    // A point inside a quad is within half its diagonal of a corner, and a point in the
    // edge band within about 0.71 cells of an edge cell; 1.5 spacings covers both for
    // any reasonably shaped cell.
    return (planeSum / Double(max(planeCount, 1)), 1.5 * largestAngle)
  }

  /// For every bucket, the cells that can be nearest to some point in it (CSR layout), and
  /// the cells and buckets examined; nil as soon as that would exceed `workLimit`.
  static func buildCandidates(
    frame: GnomonicFrame, points: [UnitVector], planeX: [Double], planeY: [Double],
    origin: (x: Double, y: Double), bucketSize: Double, columns: Int, rows: Int, reach: Double, workLimit: Int
  ) -> ([Int32], [Int32], Int)? {
    // Cells by the bucket they fall in.
    var cellStart = [Int](repeating: 0, count: columns * rows + 1)
    let home = (0..<points.count).map { cell in
      let column = min(max(Int((planeX[cell] - origin.x) / bucketSize), 0), columns - 1)
      let row = min(max(Int((planeY[cell] - origin.y) / bucketSize), 0), rows - 1)
      return row * columns + column
    }
    for bucket in home { cellStart[bucket + 1] += 1 }
    for bucket in 0..<(columns * rows) { cellStart[bucket + 1] += cellStart[bucket] }
    var fill = cellStart
    var cellsByBucket = [Int](repeating: 0, count: points.count)
    for (cell, bucket) in home.enumerated() {
      cellsByBucket[fill[bucket]] = cell
      fill[bucket] += 1
    }

    // An angle is at least this fraction of the plane distance: the gnomonic projection's
    // radial scale 1/(1+ρ²) is its smallest, and ρ is largest at a corner of the bucket grid.
    let far = [origin.x, origin.x + Double(columns) * bucketSize].flatMap { x in
      [origin.y, origin.y + Double(rows) * bucketSize].map { y in x * x + y * y }
    }
    let scaleFloor = 1 / (1 + (far.max() ?? 0))

    var starts: [Int32] = [0]
    starts.reserveCapacity(columns * rows + 1)
    var list: [Int32] = []
    // Every bucket and cell a ring search looks at is counted against the limit, which also
    // bounds the candidate list (each candidate is a cell looked at).
    var work = 0
    for row in 0..<rows {
      for column in 0..<columns {
        let cx = origin.x + (Double(column) + 0.5) * bucketSize
        let cy = origin.y + (Double(row) + 0.5) * bucketSize
        let centre = frame.unproject(x: cx, y: cy)
        var radius = 0.0
        for (dx, dy) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
          let corner = frame.unproject(x: cx + dx * bucketSize, y: cy + dy * bucketSize)
          radius = max(radius, centre.angle(to: corner))
        }
        radius = radius * (1 + 1e-9) + 1e-12

        // d₀: the exact distance from the bucket centre to its nearest cell, by rings of
        // buckets until no unseen ring can hold anything nearer.
        var nearest = Double.infinity
        var ring = 0
        while ring <= max(columns, rows) {
          let finished = forEachCell(
            inRing: ring, column: column, row: row, columns: columns, rows: rows,
            cellStart: cellStart, cells: cellsByBucket, work: &work, workLimit: workLimit
          ) { cell in
            nearest = min(nearest, centre.angle(to: points[cell]))
          }
          guard finished else { return nil }
          if (Double(ring) + 0.5) * bucketSize * scaleFloor > nearest { break }
          // Beyond reach + r every point of the bucket is outside the grid, so the bucket
          // keeps no candidates and the search may stop: without this, buckets in the empty
          // corners of a grid that is rotated in the plane searched quadratically far.
          if (Double(ring) + 0.5) * bucketSize * scaleFloor > reach + radius { break }
          ring += 1
        }
        // Points of this bucket farther than `reach` from every cell are outside the grid,
        // so the candidate radius never needs to exceed reach + r.
        let limit = min(nearest + 2 * radius, reach + radius)
        if nearest - radius <= reach {
          ring = 0
          while ring <= max(columns, rows), (Double(ring) - 0.5) * bucketSize * scaleFloor <= limit {
            let finished = forEachCell(
              inRing: ring, column: column, row: row, columns: columns, rows: rows,
              cellStart: cellStart, cells: cellsByBucket, work: &work, workLimit: workLimit
            ) { cell in
              if centre.angle(to: points[cell]) <= limit { list.append(Int32(truncatingIfNeeded: cell)) }
            }
            guard finished else { return nil }
            ring += 1
          }
        }
        starts.append(Int32(truncatingIfNeeded: list.count))
      }
    }
    return (starts, list, work)
  }

  /// Calls `body` for every cell in the buckets at Chebyshev distance `ring` from a bucket,
  /// counting each bucket and cell in `work`; false, having stopped, when the count would
  /// pass `workLimit`.
  private static func forEachCell(
    inRing ring: Int, column: Int, row: Int, columns: Int, rows: Int,
    cellStart: [Int], cells: [Int], work: inout Int, workLimit: Int, _ body: (Int) -> Void
  ) -> Bool {
    for r in max(row - ring, 0)...min(row + ring, rows - 1) {
      let onEdgeRow = r == row - ring || r == row + ring
      let step = onEdgeRow ? 1 : 2 * ring
      var c = column - ring
      while c <= column + ring {
        // Every position counts, inside the table or not, so that rings reaching far
        // beyond it are paid for too.
        work += 1
        if c >= 0, c < columns {
          let bucket = r * columns + c
          work += cellStart[bucket + 1] - cellStart[bucket]
          guard work <= workLimit else { return false }
          for k in cellStart[bucket]..<cellStart[bucket + 1] { body(cells[k]) }
        } else if work > workLimit {
          return false
        }
        c += max(step, 1)
      }
    }
    return true
  }
}
