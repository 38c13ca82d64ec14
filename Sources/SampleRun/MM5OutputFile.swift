import GridGeometry
import NetCDF

/// The sample run written as MM5 output converted to NetCDF by the common "archiver":
/// one file for the run, lower-case MM5 names, cross-point coordinates, i running south
/// to north and j west to east, precipitation accumulated in centimetres, pressure as
/// PSTARCRS (reference surface pressure minus PTOP) + PTOP + PP (stored top level first),
/// and the projection as scalar variables. No real MM5 run could be found to copy, so
/// this follows those conventions over the same synthetic weather as the WRF sample.
enum MM5OutputFile {
  /// The model top, Pa.
  static let top = 10_000.0

  static func write(_ spec: SampleRunSpec, start: WRFDate, to path: String) throws {
    let weather = SyntheticWeather(spec: spec, start: start)
    let constant = weather.staticFields()
    var accumulated = PrecipitationAccumulator(weather: weather)
    let (ni, nj, nk) = (spec.southNorth, spec.westEast, spec.levels)
    let file = try NCFile.create(path, format: spec.format)
    defer { file.close() }
    try file.defineDimension("time", length: nil)
    try file.defineDimension("i", length: ni)
    try file.defineDimension("j", length: nj)
    try file.defineDimension("k", length: nk)
    try file.defineVariable("time", type: .double, dimensions: ["time"])
    try file.setAttribute("units", .text("minutes since \(start.unitsString)"), on: "time")
    let surface: [(String, String)] = [
      ("t2", "K"), ("q2", "kg kg-1"), ("u10", "m s-1"), ("v10", "m s-1"), ("rain_con", "cm"),
      ("rain_non", "cm"), ("pstarcrs", "Pa"), ("swdown", "W m-2"),
    ]
    for (name, units) in surface {
      try file.defineVariable(name, type: .float, dimensions: ["time", "i", "j"])
      try file.setAttribute("units", .text(units), on: name)
    }
    try file.defineVariable("pp", type: .float, dimensions: ["time", "k", "i", "j"])
    try file.setAttribute("units", .text("Pa"), on: "pp")
    for (name, units) in [("latitcrs", "degrees_north"), ("longicrs", "degrees_east"), ("terrain", "m")] {
      try file.defineVariable(name, type: .float, dimensions: ["i", "j"])
      try file.setAttribute("units", .text(units), on: name)
    }
    for name in ["ptop", "stdlat_1", "stdlat_2", "stdlon", "conefac", "grid_ds"] {
      try file.defineVariable(name, type: .float, dimensions: [])
    }
    try file.defineVariable("map_proj_code", type: .int, dimensions: [])
    try file.setAttribute("grid_ds", .text("km"), on: "grid_ds")
    try file.endDefinitions()

    let lambert = LambertConformal(
      truelat1: spec.truelat1, truelat2: spec.truelat2, standardLongitude: spec.standardLongitude)
    for (name, value) in [
      ("ptop", top), ("stdlat_1", spec.truelat1), ("stdlat_2", spec.truelat2), ("stdlon", spec.standardLongitude),
      ("conefac", lambert.cone), ("grid_ds", spec.dx / 1000), ("map_proj_code", 1),
    ] {
      try file.write(name, start: [], count: [], [value])
    }
    for (name, source) in [("latitcrs", "XLAT"), ("longicrs", "XLONG"), ("terrain", "HGT")] {
      try file.write(name, start: [0, 0], count: [ni, nj], constant[source] ?? [])
    }
    let cells = ni * nj
    for step in 0..<spec.stepCount {
      let minutes = step * spec.stepMinutes
      accumulated.advance(to: minutes, weather: weather)
      let fields = weather.fields(minutes: minutes, accumulated: accumulated)
      try file.write("time", start: [step], count: [1], [Double(minutes)])
      let surfacePressure = fields["PSFC"] ?? []
      // The lowest level's perturbation holds what the reference surface pressure lacks.
      let perturbation = fields["P"] ?? []
      let lowest = (nk - 1) * cells
      var pp = [Float](repeating: 0, count: nk * cells)
      var pstar = [Float](repeating: 0, count: cells)
      for k in 0..<nk {
        // MM5 stores the top level first; the generator's level 0 is the lowest.
        for cell in 0..<cells { pp[k * cells + cell] = perturbation[(nk - 1 - k) * cells + cell] }
      }
      for cell in 0..<cells {
        pstar[cell] = surfacePressure[cell] - Float(top) - pp[lowest + cell]
      }
      let rainConvective = (fields["RAINC"] ?? []).map { $0 / 10 }
      let rainGridScale = zip(fields["RAINNC"] ?? [], fields["RAINSH"] ?? []).map { ($0 + $1) / 10 }
      for (name, values) in [
        ("t2", fields["T2"] ?? []), ("q2", fields["Q2"] ?? []), ("u10", fields["U10"] ?? []),
        ("v10", fields["V10"] ?? []), ("rain_con", rainConvective), ("rain_non", rainGridScale),
        ("pstarcrs", pstar), ("swdown", fields["SWDOWN"] ?? []),
      ] {
        try file.write(name, start: [step, 0, 0], count: [1, ni, nj], values)
      }
      try file.write("pp", start: [step, 0, 0, 0], count: [1, nk, ni, nj], pp)
    }
  }
}
