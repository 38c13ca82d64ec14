/// The model's own surface under each cell: terrain height and land mask, stored in a
/// cube's optional terrain section (docs/cube-format.md, *Terrain*).
///
/// Either part may be unknown cell by cell (a source without a land mask, say): a height
/// is NaN and a mask byte is `unknownMask` there, and queries that need it fall back to
/// what they do without terrain.
public struct CubeTerrain: Sendable, Equatable {
  /// Terrain height of each cell in metres, NaN where unknown.
  public var heights: [Float]
  /// 1 where the cell is land, 0 where it is water, `unknownMask` where unknown.
  public var landMask: [UInt8]

  /// The mask byte of a cell whose kind is unknown.
  public static let unknownMask: UInt8 = 0xFF
  /// The heights a cube may hold, metres: below the Dead Sea shore and above Everest with
  /// room for model smoothing, and nothing a garbled field would give.
  public static let heightRange: ClosedRange<Float> = -1_000...9_000

  public init(heights: [Float], landMask: [UInt8]) {
    self.heights = heights
    self.landMask = landMask
  }

  /// Terrain of `cells` cells of which nothing is known.
  public static func unknown(cells: Int) -> CubeTerrain {
    CubeTerrain(
      heights: [Float](repeating: .nan, count: cells), landMask: [UInt8](repeating: unknownMask, count: cells))
  }

  /// Whether anything at all is known.
  public var isKnown: Bool { heights.contains { !$0.isNaN } || landMask.contains { $0 != Self.unknownMask } }

  /// What is wrong with a height, nil when it is NaN (unknown) or within `heightRange`.
  public static func heightProblem(_ height: Float) -> String? {
    height.isNaN || heightRange.contains(height)
      ? nil : "terrain height \(height) m is not in \(heightRange.lowerBound)…\(heightRange.upperBound) m or NaN"
  }

  /// What is wrong with a mask byte, nil when it is 0, 1 or `unknownMask`.
  public static func maskProblem(_ mask: UInt8) -> String? {
    mask <= 1 || mask == unknownMask ? nil : "land mask \(mask) is not 0 (water), 1 (land) or 255 (unknown)"
  }

  /// The first problem of a terrain for a grid of `cells` cells, naming the cell.
  public func problem(cells: Int) -> String? {
    guard heights.count == cells, landMask.count == cells else {
      return "\(heights.count) terrain heights and \(landMask.count) land-mask values for \(cells) cells"
    }
    for cell in 0..<cells {
      if let problem = Self.heightProblem(heights[cell]) ?? Self.maskProblem(landMask[cell]) {
        return "\(problem) at cell \(cell)"
      }
    }
    return nil
  }
}
