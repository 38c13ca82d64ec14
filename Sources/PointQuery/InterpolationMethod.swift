/// How a value is taken from the grid.
public enum InterpolationMethod: String, Sendable, CaseIterable {
  /// The great-circle nearest mass point.
  case nearest
  /// Bilinear in grid space between the four surrounding mass points.
  case bilinear
}
