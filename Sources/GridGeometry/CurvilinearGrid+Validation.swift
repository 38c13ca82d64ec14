import Foundation

extension CurvilinearGrid {
  /// How many times longer than the one before it the step from a cell to the next along a
  /// row or column may be. Model grids change spacing smoothly (a few per cent per cell even
  /// on stretched grids; exactly not at all along the rows and columns of a latitude/longitude
  /// grid, poles included), so a jump by this factor marks a cell that is not where its
  /// neighbours put it.
  public static let spacingJumpLimit = 4.0

  /// How close, as a chord of the unit sphere, two cells may be before they count as the
  /// same point: about 6 mm on the ground, far below any model's spacing.
  static let samePoint = 1e-9

  /// Checks that the coordinates describe a grid a model could have: on top of what
  /// `init` checks (finite, latitudes in −90…90, longitudes in −360…360), that
  /// - no two neighbouring cells are at the same point (which also refuses a row or column
  ///   whose cells all coincide, and a row repeated in the next), except cells on a pole,
  ///   where every longitude of a latitude/longitude grid's polar row meets;
  /// - along every row and column, the step from one cell to the next is never more than
  ///   `spacingJumpLimit` times the step before or after it (an isolated cell far from
  ///   where its neighbours put it);
  /// - every quad of four neighbouring cells turns the same way as the rest of the grid at
  ///   each corner, seen in the plane tangent to the sphere at its centre (no fold, no
  ///   reversed or crossed row or column, no quad that is not convex).
  ///
  /// Throws `invalidGrid` naming the first bad cell (i, j), its coordinates and why. Costs
  /// a few dozen floating-point operations per cell.
  public func validate() throws(GeometryError) {
    let points = (0..<count).map { UnitVector(latitude: Double(latitudes[$0]), longitude: Double(longitudes[$0])) }
    try checkCoincidence(points)
    try checkSpacing(points)
    try checkOrientation(points)
  }

  /// "cell (i, j) at latitude φ, longitude λ", for messages.
  func describe(_ cell: Int) -> String {
    "cell (\(cell % width), \(cell / width)) at latitude \(latitudes[cell]), longitude \(longitudes[cell])"
  }

  /// "(i, j)" of a flat index, for messages.
  func indices(_ cell: Int) -> String { "(\(cell % width), \(cell / width))" }

  private func onPole(_ cell: Int) -> Bool { abs(latitudes[cell]) == 90 }

  private func checkCoincidence(_ points: [UnitVector]) throws(GeometryError) {
    func requireApart(_ cell: Int, _ neighbour: Int) throws(GeometryError) {
      guard points[cell].minus(points[neighbour]).length <= Self.samePoint, !(onPole(cell) && onPole(neighbour))
      else { return }
      throw .invalidGrid(
        "\(describe(cell)) is at the same point as its neighbour \(indices(neighbour)): duplicated or collapsed coordinates"
      )
    }
    for cell in 0..<count {
      if cell % width + 1 < width { try requireApart(cell, cell + 1) }
      if cell / width + 1 < height { try requireApart(cell, cell + width) }
    }
  }

  /// The spacing test along every row (stride 1) and every column (stride `width`).
  private func checkSpacing(_ points: [UnitVector]) throws(GeometryError) {
    var firstBad: (cell: Int, reason: String)?
    func line(first: Int, stride: Int, length: Int, along: String) {
      var previous = -1.0
      for k in 0..<(length - 1) {
        let a = first + k * stride
        let step = points[a].minus(points[a + stride]).length
        defer { previous = step }
        // Steps between cells on a pole are zero and say nothing.
        guard k > 0, previous > Self.samePoint, step > Self.samePoint else { continue }
        let culprit: Int
        let (from, to): (Double, Double)
        if step > Self.spacingJumpLimit * previous {
          (culprit, from, to) = (a + stride, previous, step)
        } else if previous > Self.spacingJumpLimit * step {
          (culprit, from, to) = (a - stride, step, previous)
        } else {
          continue
        }
        guard culprit < (firstBad?.cell ?? .max) else { continue }
        firstBad = (
          culprit,
          "\(describe(culprit)) is \(Self.kilometres(to)) from its neighbour \(indices(a)) along the \(along), while the adjacent step is \(Self.kilometres(from)): the spacing jumps more than \(Int(Self.spacingJumpLimit))-fold, so the cell is not where its neighbours put it"
        )
      }
    }
    if width > 2 {
      for j in 0..<height { line(first: j * width, stride: 1, length: width, along: "row") }
    }
    if height > 2 {
      for i in 0..<width { line(first: i, stride: width, length: height, along: "column") }
    }
    if let firstBad { throw .invalidGrid(firstBad.reason) }
  }

  /// The orientation test: the turn at every corner of every quad, signed against the
  /// quad's own outward normal, must have the sign most corners have. One pass, remembering
  /// the first corner of either sign and the first that does not turn at all.
  ///
  /// A quad's cells are a tuple, not an array: an array a quad was a million allocations
  /// on a global grid, most of the check's time, and the check runs before the first step.
  private func checkOrientation(_ points: [UnitVector]) throws(GeometryError) {
    var counts = (positive: 0, negative: 0)
    var first:
      (positive: (quad: Int, corner: Int)?, negative: (quad: Int, corner: Int)?, flat: (quad: Int, corner: Int)?)
    points.withUnsafeBufferPointer { points in
      for row in 0..<Swift.max(height - 1, 0) {
        for column in 0..<Swift.max(width - 1, 0) {
          let quad = row * (width - 1) + column
          let corners = quadCorners(quad)
          let p = (points[corners.0], points[corners.1], points[corners.2], points[corners.3])
          let normal = p.0.plus(p.1).plus(p.2).plus(p.3)
          // The corner `k` at `here`, between `previous` and `next` counter-clockwise.
          func corner(_ k: Int, _ previous: UnitVector, _ here: UnitVector, _ next: UnitVector) {
            let incoming = here.minus(previous)
            let outgoing = next.minus(here)
            // A side between two cells on a pole has no direction; its corners say nothing.
            guard incoming.length > Self.samePoint, outgoing.length > Self.samePoint else { return }
            let turn = incoming.cross(outgoing).dot(normal)
            if turn > 0 {
              counts.positive += 1
              first.positive = first.positive ?? (quad, k)
            } else if turn < 0 {
              counts.negative += 1
              first.negative = first.negative ?? (quad, k)
            } else {
              first.flat = first.flat ?? (quad, k)
            }
          }
          corner(0, p.3, p.0, p.1)
          corner(1, p.0, p.1, p.2)
          corner(2, p.1, p.2, p.3)
          corner(3, p.2, p.3, p.0)
        }
      }
    }
    let wrong = counts.positive >= counts.negative ? first.negative : first.positive
    let candidates = [wrong, first.flat].compactMap { $0 }
    guard let bad = candidates.min(by: { ($0.quad, $0.corner) < ($1.quad, $1.corner) }) else { return }
    let corners = quadCorners(bad.quad)
    let here = [corners.0, corners.1, corners.2, corners.3][bad.corner]
    throw .invalidGrid(
      "\(describe(here)) folds the grid: the quad \(indices(corners.0))–\(indices(corners.2)) turns the other way there than the rest of the grid (a reversed, crossed or misplaced row or column)"
    )
  }

  /// Quad `quad`'s cells (quads numbered like cells, `width − 1` a row) counter-clockwise
  /// in index space: (i, j), (i+1, j), (i+1, j+1), (i, j+1).
  private func quadCorners(_ quad: Int) -> (Int, Int, Int, Int) {
    let southWest = (quad / (width - 1)) * width + quad % (width - 1)
    return (southWest, southWest + 1, southWest + width + 1, southWest + width)
  }

  /// A chord of the unit sphere as a distance on the Earth, for messages.
  static func kilometres(_ chord: Double) -> String {
    String(format: "%.4g km", 2 * asin(min(1, chord / 2)) * 6371.0088)
  }
}
