import Foundation
import GridGeometry
import Testing

/// The projection's pass over every cell, split over the cores, against the definition
/// computed here one cell at a time.
@Suite struct MapProjectionCellImagesTests {
  /// A 200 × 100 Lambert grid (enough cells to be split) made from the projection's own
  /// inverse, with two cells moved off their places by 0.05 cells, one in the first half of
  /// the cells and one in the second: the worst mismatch is the first cell at the largest
  /// distance, as a pass in cell order finds it, and every cell's image is its projection.
  @Test func theWorstCellIsTheFirstAtTheLargestDistanceAndEveryImageIsTheCellsProjection() throws {
    let (width, height) = (200, 100)
    let projection = try MapProjection(
      kind: .lambertConformal, truelat1: 30, truelat2: 60, standardLongitude: -4, poleLatitude: 90,
      gridSpacing: 3_000, origin: (36, -12))
    var latitudes = [Float](repeating: 0, count: width * height)
    var longitudes = latitudes
    for j in 0..<height {
      for i in 0..<width {
        let place = projection.coordinates(x: Double(i), y: Double(j))
        (latitudes[j * width + i], longitudes[j * width + i]) = (Float(place.latitude), Float(place.longitude))
      }
    }
    // Both moved to where the projection puts a point 0.05 cells north of them.
    for (i, j) in [(150, 10), (20, 90)] {
      let place = projection.coordinates(x: Double(i), y: Double(j) + 0.05)
      (latitudes[j * width + i], longitudes[j * width + i]) = (Float(place.latitude), Float(place.longitude))
    }
    let grid = try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
    let images = projection.cellImages(on: grid)
    var worst = (cells: 0.0, i: 0, j: 0)
    for cell in 0..<grid.count {
      let (i, j) = (cell % width, cell / width)
      let image = try #require(
        projection.gridCoordinates(latitude: Double(latitudes[cell]), longitude: Double(longitudes[cell])))
      #expect(images.x[cell] == image.x && images.y[cell] == image.y, "cell (\(i), \(j))")
      let distance = ((image.x - Double(i)) * (image.x - Double(i)) + (image.y - Double(j)) * (image.y - Double(j)))
        .squareRoot()
      if distance > worst.cells { worst = (distance, i, j) }
    }
    #expect(images.mismatch.cells == worst.cells)
    #expect((images.mismatch.i, images.mismatch.j) == (worst.i, worst.j))
    // One of the two moved cells (their distances differ by the coordinates' rounding).
    #expect(abs(worst.cells - 0.05) < 0.001 && [150, 20].contains(worst.i), "\(worst)")
    #expect(projection.largestMismatch(on: grid) == images.mismatch)
  }
}
