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
    (0..<grid.count).map {
      scenario.seaLevelPressure(east: grid.east[$0], north: grid.north[$0], at: moment)
    }
  }

  /// The earth-relative 10 m wind of a cell, from the pressure field of the whole grid.
  func earthWind10m(
    cell: Int, at moment: WeatherScenario.Moment, seaLevelPressure seaLevel: [Double]
  ) -> (east: Double, north: Double) {
    let nx = grid.westEast
    let ny = grid.southNorth
    let i = cell % nx
    let j = cell / nx
    // The gradient on grid axes (centred inside, one-sided at the edges), turned to earth
    // axes like a wind, hPa per metre to Pa per metre. Map-factor stretching is under 2 %
    // on a regional grid and is ignored.
    let west = j * nx + max(i - 1, 0)
    let east = j * nx + min(i + 1, nx - 1)
    let south = max(j - 1, 0) * nx + i
    let north = min(j + 1, ny - 1) * nx + i
    let gx = 100 * (seaLevel[east] - seaLevel[west]) / (Double(east - west) * spec.dx)
    let gy = 100 * (seaLevel[north] - seaLevel[south]) / (Double((north - south) / nx) * spec.dx)
    let cosA = grid.cosAlpha[cell]
    let sinA = grid.sinAlpha[cell]
    return wind10m(
      cell: cell, at: moment, gradientEast: gx * cosA - gy * sinA, gradientNorth: gx * sinA + gy * cosA)
  }

  /// The time-dependent fields at an output time, by WRF variable name; `accumulated`
  /// must have been advanced to the same time.
  func fields(minutes: Int, accumulated: PrecipitationAccumulator) -> [String: [Float]] {
    let count = grid.count
    let levels = spec.levels
    let moment = scenario.moment(start: start, minutes: Double(minutes))
    let seaLevel = seaLevelPressure(at: moment)
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

    for cell in 0..<count {
      let rain = precipitation(cell: cell, at: moment)
      let column = self.column(cell: cell, at: moment, rain: rain, seaLevelPressure: seaLevel[cell])
      t2[cell] = Float(column.temperature2m)
      psfc[cell] = Float(column.surfacePressure)
      q2[cell] = Float(
        Thermodynamics.mixingRatio(
          relativeHumidity: column.relativeHumidity2m, kelvin: column.temperature2m,
          pressure: column.surfacePressure))

      let wind = earthWind10m(cell: cell, at: moment, seaLevelPressure: seaLevel)
      let cosA = grid.cosAlpha[cell]
      let sinA = grid.sinAlpha[cell]
      // WRF stores grid-relative components: the inverse of the earth rotation.
      u10[cell] = Float(wind.east * cosA + wind.north * sinA)
      v10[cell] = Float(-wind.east * sinA + wind.north * cosA)

      let sunHeight = moment.solar.sineOfElevation(
        latitude: grid.latitudes[cell], longitude: grid.longitudes[cell])
      let clearSky = moment.solar.clearSkyIrradiance(sineOfElevation: sunHeight)
      swdown[cell] = Float(clearSky * (1 - 0.75 * pow(column.cloudCover, 3.4)))

      for k in 0..<levels {
        let level = self.level(k, cell: cell, column: column, rain: rain)
        let index = k * count + cell
        cloudFraction[index] = Float(column.cloudFraction[k])
        vapour[index] = Float(level.vapour)
        cloudWater[index] = Float(level.cloudWater)
        rainWater[index] = Float(level.rainWater)
        ice[index] = Float(level.ice)
        snow[index] = Float(level.snow)
        perturbationPressure[index] = Float(level.pressure - level.basePressure)
        basePressure[index] = Float(level.basePressure)
        perturbationTheta[index] = Float(level.potentialTemperature - 300)
      }
    }
    return [
      "T2": t2, "Q2": q2, "PSFC": psfc, "U10": u10, "V10": v10, "SWDOWN": swdown,
      "RAINC": accumulated.convective.map { Float($0) },
      "RAINNC": accumulated.gridScale.map { Float($0) },
      "RAINSH": accumulated.shallow.map { Float($0) },
      "SNOWNC": accumulated.snow.map { Float($0) },
      "CLDFRA": cloudFraction, "QVAPOR": vapour, "QCLOUD": cloudWater, "QRAIN": rainWater,
      "QICE": ice, "QSNOW": snow, "P": perturbationPressure, "PB": basePressure,
      "T": perturbationTheta,
    ]
  }
}
