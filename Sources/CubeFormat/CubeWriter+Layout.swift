extension CubeWriter {
  /// How the cube is laid out: the cells per band (a power of two; nil: one band over
  /// every cell) and what the version 3 record says about the geometry.
  public struct Layout: Sendable {
    /// Cells per band, a power of two in 1…2³¹ giving at most 65 536 bands; nil for one band
    /// over every cell. A band's words are what the writer holds in memory.
    public var bandCells: Int?
    /// The header's projection locates every cell of every position within 0.1 cell, as
    /// checked at ingest (record geometry flag bit 0): a reader may build the analytic
    /// locator without checking cells.
    public var projectionChecked: Bool
    /// A locator index to store in its section (record geometry flag bit 1); nil for none.
    public var locatorIndex: [UInt8]?
    /// Whether a band is packed on a background thread while the next one is filled, which
    /// holds a second band's words (`CubeWriter.bandBytes(bandCells:steps:metrics:packsInBackground:)`).
    /// The file is the same either way.
    public var packsInBackground: Bool

    /// A layout; the defaults are one band, nothing checked, no locator index, every band
    /// packed by the thread that begins the next.
    public init(
      bandCells: Int? = nil, projectionChecked: Bool = false, locatorIndex: [UInt8]? = nil,
      packsInBackground: Bool = false
    ) {
      self.bandCells = bandCells
      self.projectionChecked = projectionChecked
      self.locatorIndex = locatorIndex
      self.packsInBackground = packsInBackground
    }
  }
}
