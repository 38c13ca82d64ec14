import Foundation

extension SyntheticWeather {
  /// The fields that never change during a run (WRF still writes them at every time).
  func staticFields() -> [String: [Float]] {
    [
      "XLAT": grid.latitudes.map { Float($0) },
      "XLONG": grid.longitudes.map { Float($0) },
      "HGT": geography.height.map { Float($0) },
      "LANDMASK": geography.isLand.map { $0 ? 1 : 0 },
      "COSALPHA": grid.cosAlpha.map { Float($0) },
      "SINALPHA": grid.sinAlpha.map { Float($0) },
    ]
  }

  /// Sea-level pressure (hPa) of every cell at an instant.
  func seaLevelPressure(at moment: WeatherScenario.Moment) -> [Double] {
    let cells = self.cells
    var pressure = [Double](repeating: 0, count: cells.count)
    for index in cells.indices {
      pressure[index] = scenario.seaLevelPressure(east: cells[index].east, north: cells[index].north, at: moment)
    }
    return pressure
  }

  /// The sea-level pressure gradient at a cell on grid axes, Pa/m: centred inside the
  /// grid and one-sided at its edges. Map-factor stretching (under 2 % on a regional
  /// grid) is ignored.
  static func pressureGradient(
    cell index: Int, seaLevelPressure seaLevel: [Double], westEast nx: Int, southNorth ny: Int, dx: Double
  ) -> (x: Double, y: Double) {
    let i = index % nx
    let j = index / nx
    let west = j * nx + max(i - 1, 0)
    let east = j * nx + min(i + 1, nx - 1)
    let south = max(j - 1, 0) * nx + i
    let north = min(j + 1, ny - 1) * nx + i
    // hPa to Pa.
    let gx = 100 * (seaLevel[east] - seaLevel[west]) / (Double(east - west) * dx)
    let gy = 100 * (seaLevel[north] - seaLevel[south]) / (Double((north - south) / nx) * dx)
    return (gx, gy)
  }

  /// The time-dependent fields at an output time, by WRF variable name; `accumulated`
  /// must have been advanced to the same time.
  func fields(minutes: Int, accumulated: PrecipitationAccumulator) -> [String: [Float]] {
    let cells = self.cells
    let count = cells.count
    let levels = spec.levels
    let (nx, ny, dx) = (spec.westEast, spec.southNorth, spec.dx)
    let moment = scenario.moment(start: start, minutes: Double(minutes))
    let seaLevel = seaLevelPressure(at: moment)
    var rain = [Precipitation](repeating: Precipitation(), count: count)
    _ = precipitation(at: moment, into: &rain)

    var t2 = [Float](repeating: 0, count: count)
    var q2 = t2
    var psfc = t2
    var u10 = t2
    var v10 = t2
    var swdown = t2
    var cloudFraction = [Float](repeating: 0, count: count * levels)
    var vapour = cloudFraction
    var cloudWater = cloudFraction
    var rainWater = cloudFraction
    var ice = cloudFraction
    var snow = cloudFraction
    var perturbationPressure = cloudFraction
    var basePressure = cloudFraction
    var perturbationTheta = cloudFraction
    var humidity = [Double](repeating: 0, count: levels)
    var cloud = humidity
    var levelPressure = humidity
    var levelBasePressure = humidity
    var boundaryLayer = t2
    var massU = [Double](repeating: 0, count: count * levels)
    var massV = massU
    var geopotential = [Float](repeating: 0, count: count * (levels + 1))
    var baseGeopotential = geopotential

    for index in 0..<count {
      let cell = cells[index]
      let surface = self.surface(
        cell, at: moment, rain: rain[index], seaLevelPressure: seaLevel[index], humidity: &humidity,
        cloud: &cloud)
      t2[index] = Float(surface.temperature)
      psfc[index] = Float(surface.pressure)
      q2[index] = Float(
        Thermodynamics.mixingRatio(
          relativeHumidity: surface.relativeHumidity, kelvin: surface.temperature,
          pressure: surface.pressure))

      // The gradient turns from grid to earth axes like a wind.
      let gradient = Self.pressureGradient(
        cell: index, seaLevelPressure: seaLevel, westEast: nx, southNorth: ny, dx: dx)
      let wind = wind10m(
        cell, at: moment, gradientEast: gradient.x * cell.cosAlpha - gradient.y * cell.sinAlpha,
        gradientNorth: gradient.x * cell.sinAlpha + gradient.y * cell.cosAlpha)
      // WRF stores grid-relative components: the inverse of the earth rotation.
      u10[index] = Float(wind.east * cell.cosAlpha + wind.north * cell.sinAlpha)
      v10[index] = Float(-wind.east * cell.sinAlpha + wind.north * cell.cosAlpha)

      let sunHeight = moment.solar.sineOfElevation(
        sinLatitude: cell.sinLatitude, cosLatitude: cell.cosLatitude, longitude: cell.longitude)
      let clearSky = moment.solar.clearSkyIrradiance(sineOfElevation: sunHeight)
      if clearSky > 0 {
        swdown[index] = Float(clearSky * (1 - 0.75 * pow(surface.cloudCover, 3.4)))
      }

      for k in 0..<levels {
        let level = self.level(
          k, of: cell, surface: surface, humidity: humidity[k], cloud: cloud[k], rain: rain[index])
        let slot = k * count + index
        cloudFraction[slot] = Float(cloud[k])
        vapour[slot] = Float(level.vapour)
        cloudWater[slot] = Float(level.cloudWater)
        rainWater[slot] = Float(level.rainWater)
        ice[slot] = Float(level.ice)
        snow[slot] = Float(level.snow)
        perturbationPressure[slot] = Float(level.pressure - level.basePressure)
        basePressure[slot] = Float(level.basePressure)
        perturbationTheta[slot] = Float(level.potentialTemperature - 300)
        levelPressure[k] = level.pressure
        levelBasePressure[k] = level.basePressure
      }
      // The wind strengthens and the boundary layer deepens with the day's heating.
      let heating = max(0, surface.diurnalAnomaly)
      let speed = (wind.east * wind.east + wind.north * wind.north).squareRoot()
      boundaryLayer[index] = Float(min(3000, 150 + 25 * speed + (cell.isLand ? 220 : 60) * heating))
      let column = Self.column(
        surface: surface, height: cell.height, baseSurfacePressure: cell.baseSurfacePressure,
        pressure: levelPressure, basePressure: levelBasePressure)
      for k in 0...levels {
        geopotential[k * count + index] = Float(column.geopotential[k] - column.baseGeopotential[k])
        baseGeopotential[k * count + index] = Float(column.baseGeopotential[k])
      }
      for k in 0..<levels {
        massU[k * count + index] = Double(u10[index]) * column.windFactor[k]
        massV[k * count + index] = Double(v10[index]) * column.windFactor[k]
      }
    }
    return [
      "T2": t2, "Q2": q2, "PSFC": psfc, "U10": u10, "V10": v10, "SWDOWN": swdown,
      "RAINC": Self.floats(accumulated.convective), "RAINNC": Self.floats(accumulated.gridScale),
      "RAINSH": Self.floats(accumulated.shallow), "SNOWNC": Self.floats(accumulated.snow),
      "CLDFRA": cloudFraction, "QVAPOR": vapour, "QCLOUD": cloudWater, "QRAIN": rainWater,
      "QICE": ice, "QSNOW": snow, "P": perturbationPressure, "PB": basePressure,
      "T": perturbationTheta, "PBLH": boundaryLayer, "PH": geopotential, "PHB": baseGeopotential,
      "U": Self.staggered(massU, levels: levels, rows: ny, columns: nx, alongRows: true),
      "V": Self.staggered(massV, levels: levels, rows: ny, columns: nx, alongRows: false),
    ]
  }

  /// Geopotential (m²/s²) of a cell's level interfaces, actual and of WRF's dry base state,
  /// and the factor by which each level's wind exceeds the 10 m wind.
  ///
  /// Interfaces lie halfway in ln p between the levels (the surface below the first, as
  /// far above the top level as the one below it); heights follow the hypsometric
  /// thickness the levels' temperatures use; the wind grows towards 1.9 times the 10 m
  /// wind over the lowest kilometre or so.
  static func column(
    surface: Surface, height: Double, baseSurfacePressure: Double, pressure: [Double], basePressure: [Double]
  ) -> (geopotential: [Double], baseGeopotential: [Double], windFactor: [Double]) {
    let levels = pressure.count
    func interfaces(_ levelPressure: [Double], surface: Double) -> [Double] {
      var result = [surface]
      for k in 1..<max(levels, 1) { result.append((levelPressure[k - 1] * levelPressure[k]).squareRoot()) }
      let top = levelPressure[levels - 1]
      result.append(levels > 1 ? top * (top / levelPressure[levels - 2]).squareRoot() : 0.9 * top)
      return result
    }
    let scale = 29.27 * (surface.temperature - 12)
    let gravity = 9.81
    let actual = interfaces(pressure, surface: surface.pressure).map {
      gravity * (height + scale * log(surface.pressure / $0))
    }
    let base = interfaces(basePressure, surface: baseSurfacePressure).map {
      gravity * (height + 29.27 * 276 * log(baseSurfacePressure / $0))
    }
    let windFactor = pressure.map { 1 + 0.9 * (1 - exp(-scale * log(surface.pressure / $0) / 700)) }
    return (actual, base, windFactor)
  }

  /// A field on mass points moved to WRF's staggered points one further along rows (U) or
  /// columns (V): the mean of the two mass points either side, the edge point's own value
  /// at the grid's edges.
  static func staggered(_ mass: [Double], levels: Int, rows: Int, columns: Int, alongRows: Bool) -> [Float] {
    let (outRows, outColumns) = alongRows ? (rows, columns + 1) : (rows + 1, columns)
    var result = [Float](repeating: 0, count: levels * outRows * outColumns)
    for k in 0..<levels {
      for j in 0..<outRows {
        for i in 0..<outColumns {
          let (a, b) =
            alongRows
            ? (j * columns + max(i - 1, 0), j * columns + min(i, columns - 1))
            : (max(j - 1, 0) * columns + i, min(j, rows - 1) * columns + i)
          let plane = k * rows * columns
          result[(k * outRows + j) * outColumns + i] = Float((mass[plane + a] + mass[plane + b]) / 2)
        }
      }
    }
    return result
  }

  /// Doubles narrowed to what the file stores; a plain loop, because the generic `map`
  /// is many times slower in the debug builds the tests run in.
  static func floats(_ values: [Double]) -> [Float] {
    var result = [Float](repeating: 0, count: values.count)
    for index in values.indices { result[index] = Float(values[index]) }
    return result
  }
}
