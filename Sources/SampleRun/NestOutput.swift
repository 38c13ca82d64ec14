import GridGeometry

/// Writes a sample run's moving nest as `wrfout_d02_*` files.
///
/// The weather is computed once per output time on the union of every position the nest
/// takes (a grid of the nest's spacing and alignment that covers them all), and each
/// file is the window of that union under the nest's position at its time. Every field
/// is therefore the same function of place and time wherever the nest is, and
/// RAINC/RAINNC/RAINSH/SNOWNC accumulate by place: a cell's accumulation is that of the
/// place it covers now, whichever cell covered that place before. This is what WRF does
/// when it shifts a nest's fields with the nest, and what makes de-accumulation by place
/// exact.
enum NestOutput {
  /// Writes one file per output time of `spec` into `folder` and returns their paths in
  /// time order; `spec` has been validated, its nest with it.
  static func write(_ spec: SampleRunSpec, nest: SampleNest, start: WRFDate, folder: String) throws -> [String] {
    let starts = nest.parentStarts(spec)
    let ratio = nest.ratio
    let west = starts.map(\.i).min() ?? nest.iParentStart
    let south = starts.map(\.j).min() ?? nest.jParentStart
    let cellSize = spec.dx / Double(ratio)
    var union = spec
    union.nest = nil
    union.westEast = ((starts.map(\.i).max() ?? west) - west) * ratio + nest.westEast
    union.southNorth = ((starts.map(\.j).max() ?? south) - south) * ratio + nest.southNorth
    union.dx = cellSize
    let weather = SyntheticWeather(
      spec: union, start: start,
      grid: SampleGrid(union, centreOffset: centreOffset(spec, nest, i: west, j: south, grid: union)))

    var fileSpec = union
    fileSpec.westEast = nest.westEast
    fileSpec.southNorth = nest.southNorth
    let projection = LambertConformal(
      truelat1: spec.truelat1, truelat2: spec.truelat2, standardLongitude: spec.standardLongitude)
    let parentCentre = projection.project(latitude: spec.centreLatitude, longitude: spec.centreLongitude)
    let firstCentre = centreOffset(spec, nest, i: nest.iParentStart, j: nest.jParentStart, grid: fileSpec)
    let centre = projection.unproject(x: parentCentre.x + firstCentre.x, y: parentCentre.y + firstCentre.y)
    fileSpec.centreLatitude = centre.latitude
    fileSpec.centreLongitude = centre.longitude
    let nesting = WRFOutputFile.Nesting(
      gridID: 2, parentID: 1, iParentStart: nest.iParentStart, jParentStart: nest.jParentStart, ratio: ratio,
      outermostCentreLatitude: spec.centreLatitude)

    let constant = weather.staticFields()
    var accumulated = PrecipitationAccumulator(weather: weather)
    var paths: [String] = []
    for (step, position) in starts.enumerated() {
      let minutes = step * spec.stepMinutes
      let date = start.adding(minutes: minutes)
      accumulated.advance(to: minutes, weather: weather)
      let fields = weather.fields(minutes: minutes, accumulated: accumulated)
        .merging(constant) { current, _ in current }
      let corner = (i: (position.i - west) * ratio, j: (position.j - south) * ratio)
      var windowed: [String: [Float]] = [:]
      for variable in WRFOutputFile.coordinates + WRFOutputFile.fields {
        guard let values = fields[variable.name] else { continue }
        windowed[variable.name] = window(
          values, shape: variable.grid.shape(union), to: variable.grid.shape(fileSpec), corner: corner)
      }
      let path = "\(folder)/wrfout_d02_\(date.wrfString)"
      let file = try WRFOutputFile.create(path: path, spec: fileSpec, start: start, nesting: nesting)
      defer { file.close() }
      try WRFOutputFile.writeRecord(
        file, record: 0, spec: fileSpec, date: date, minutes: minutes, fields: windowed)
      paths.append(path)
    }
    return paths
  }

  /// Metres (east, north on the projection plane) from the parent's centre to the centre
  /// of a `grid`-sized nest-aligned grid whose south-west corner sits on the parent's
  /// staggered point (`i`, `j`): its first mass point is `i − 1.5 + 0.5 / ratio` parent
  /// cells from the parent's first mass point.
  private static func centreOffset(
    _ spec: SampleRunSpec, _ nest: SampleNest, i: Int, j: Int, grid: SampleRunSpec
  ) -> (x: Double, y: Double) {
    let cellSize = spec.dx / Double(nest.ratio)
    let parentMiddle = (i: Double(spec.westEast - 1) / 2, j: Double(spec.southNorth - 1) / 2)
    return (
      (Double(i) - 1.5 - parentMiddle.i) * spec.dx + Double(grid.westEast) / 2 * cellSize,
      (Double(j) - 1.5 - parentMiddle.j) * spec.dx + Double(grid.southNorth) / 2 * cellSize
    )
  }

  /// The part of a field of the union grid (`shape`: [levels,] rows, columns) under a
  /// window of `windowShape` whose first point is `corner` (column, row) of the union.
  private static func window(
    _ values: [Float], shape: [Int], to windowShape: [Int], corner: (i: Int, j: Int)
  )
    -> [Float]
  {
    let planes = windowShape.count == 3 ? windowShape[0] : 1
    let (rows, columns) = (windowShape[windowShape.count - 2], windowShape[windowShape.count - 1])
    let (unionRows, unionColumns) = (shape[shape.count - 2], shape[shape.count - 1])
    var result: [Float] = []
    result.reserveCapacity(planes * rows * columns)
    for plane in 0..<planes {
      for row in 0..<rows {
        let first = (plane * unionRows + corner.j + row) * unionColumns + corner.i
        result.append(contentsOf: values[first..<(first + columns)])
      }
    }
    return result
  }
}
