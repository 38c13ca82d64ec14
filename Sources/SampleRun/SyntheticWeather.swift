import Foundation

/// The weather of a sample run, cell by cell: everything that does not change with time
/// is computed once here, and `precipitation` and `column` evaluate one cell at one
/// instant from it.
///
/// The fields are built from a few physical relations rather than drawn independently,
/// so that tests and demos see consistent data: pressure falls with height by the
/// barometric formula, humidity is stored as the mixing ratio of a relative humidity
/// that stays between 25 % and 100 %, clouds sit where the air is saturated and rain
/// falls from them, and sunshine follows the sun and the clouds.
struct SyntheticWeather: Sendable {
  let spec: SampleRunSpec
  let start: WRFDate
  let grid: SampleGrid
  let geography: SampleGeography
  let scenario: WeatherScenario

  /// Position of each cell across and along the front, km.
  let across: [Double]
  let along: [Double]
  let rainStrength: [Double]
  let cloudStrength: [Double]
  /// 0 on the coast and over the sea, 1 deep inland: scales the diurnal cycle.
  let continentality: [Double]
  /// Extra rain over high ground.
  let orographicFactor: [Double]
  /// How far (0…1) each level is from the surface to 500 hPa, in pressure.
  let levelPressureFraction: [Double]
  /// The level's index scaled to 0…1, for profiles that should not depend on the
  /// number of levels.
  let levelHeight: [Double]

  private let convectiveCells: SmoothNoise
  private let stratiformTexture: SmoothNoise
  private let afternoonStorms: SmoothNoise
  private let humidityNoise: SmoothNoise
  private let temperatureNoise: SmoothNoise
  private let gustEast: SmoothNoise
  private let gustNorth: SmoothNoise

  init(spec: SampleRunSpec, start: WRFDate) {
    self.spec = spec
    self.start = start
    let grid = SampleGrid(spec)
    let geography = SampleGeography(grid: grid, dx: spec.dx, seed: spec.seed)
    self.grid = grid
    self.geography = geography
    scenario = WeatherScenario(seed: spec.seed)
    var seeds = SplitMix64(seed: spec.seed ^ 0xD15E_A5ED)
    convectiveCells = SmoothNoise(seed: seeds.next(), spacing: 32)
    stratiformTexture = SmoothNoise(seed: seeds.next(), spacing: 90)
    afternoonStorms = SmoothNoise(seed: seeds.next(), spacing: 40)
    humidityNoise = SmoothNoise(seed: seeds.next(), spacing: 150)
    temperatureNoise = SmoothNoise(seed: seeds.next(), spacing: 60)
    gustEast = SmoothNoise(seed: seeds.next(), spacing: 70)
    gustNorth = SmoothNoise(seed: seeds.next(), spacing: 70)

    across = (0..<grid.count).map {
      WeatherScenario.acrossFront(east: grid.east[$0], north: grid.north[$0])
    }
    along = (0..<grid.count).map {
      WeatherScenario.alongFront(east: grid.east[$0], north: grid.north[$0])
    }
    rainStrength = (0..<grid.count).map { [across, along] in
      WeatherScenario.rainStrength(along: along[$0], across: across[$0])
    }
    cloudStrength = along.map { WeatherScenario.cloudStrength(along: $0) }
    continentality = (0..<grid.count).map {
      geography.isLand[$0] ? IberianRelief.smoothstep(geography.coastDistance[$0] / 120) : 0
    }
    orographicFactor = geography.height.map { 1 + 0.7 * $0 / 1000 }
    let levels = spec.levels
    levelHeight = (0..<levels).map { levels == 1 ? 0 : Double($0) / Double(levels - 1) }
    levelPressureFraction = levelHeight.map { 0.01 + 0.99 * pow($0, 1.3) }
  }

  /// Rain rates in mm/h at one cell: the total (already capped at 8 mm/h, and exactly 0
  /// outside the rain areas) and the part of it that is convective.
  struct Precipitation {
    var total: Double
    var convective: Double
  }

  func precipitation(cell: Int, at moment: WeatherScenario.Moment) -> Precipitation {
    let distance = across[cell] - moment.frontPosition
    let strength = rainStrength[cell]
    var convective = 0.0
    var stratiform = 0.0
    let east = grid.east[cell]
    let north = grid.north[cell]
    if strength > 0, distance > -220, distance < 45 {
      // Cells ride with the front and drift north-east along it.
      let drift = (
        east: WeatherScenario.frontSpeed * WeatherScenario.frontNormal.east
          - 12 * WeatherScenario.frontNormal.north,
        north: WeatherScenario.frontSpeed * WeatherScenario.frontNormal.north
          + 12 * WeatherScenario.frontNormal.east
      )
      let cells = convectiveCells.value(
        east: east - drift.east * moment.hours, north: north - drift.north * moment.hours)
      convective = 5.2 * strength * Self.bump(distance, halfWidth: 45) * max(0, 1 + 1.25 * cells)
      let texture = stratiformTexture.value(
        east: east - drift.east * moment.hours, north: north - drift.north * moment.hours)
      stratiform = 1.7 * strength * Self.bump(distance + 100, halfWidth: 120) * (0.75 + 0.35 * texture)
    }
    let height = geography.height[cell]
    if height > 600 {
      // Summer heat storms over the mountains in the late afternoon.
      let hour = moment.solar.localHour(longitude: grid.longitudes[cell])
      let timing = Self.bump(hour - 16.5, halfWidth: 3.5)
      if timing > 0 {
        let spots = afternoonStorms.value(east: east - 15 * moment.hours, north: north - 5 * moment.hours)
        convective +=
          4.5 * IberianRelief.smoothstep((height - 600) / 700) * timing * max(0, spots - 0.35) / 0.65
      }
    }
    let raw = (convective + stratiform) * orographicFactor[cell]
    // Drizzle below 0.12 mm/h is cut so that rain areas have edges and the rest of the
    // domain is exactly dry.
    guard raw > 0.12 else { return Precipitation(total: 0, convective: 0) }
    let total = 8 * tanh((raw - 0.12) / 8)
    return Precipitation(total: total, convective: total * convective / (convective + stratiform))
  }

  /// Everything at one cell and instant that the output needs.
  struct Column {
    var temperature2m = 0.0
    var relativeHumidity2m = 0.0
    var seaLevelPressure = 0.0
    var surfacePressure = 0.0
    var cloudCover = 0.0
    var relativeHumidity: [Double] = []
    var cloudFraction: [Double] = []
    /// The diurnal swing part of T2, which stays near the ground.
    var diurnalAnomaly = 0.0
  }

  /// Humidity, clouds, temperature and surface pressure of a cell at an instant, given
  /// its rain and its sea-level pressure (hPa).
  func column(
    cell: Int, at moment: WeatherScenario.Moment, rain: Precipitation, seaLevelPressure: Double
  ) -> Column {
    var column = Column()
    let east = grid.east[cell]
    let north = grid.north[cell]
    let land = geography.isLand[cell]
    let coast = geography.coastDistance[cell]
    let height = geography.height[cell]
    let inland = continentality[cell]
    let hour = moment.solar.localHour(longitude: grid.longitudes[cell])
    // +1 in mid-afternoon, −1 before dawn.
    let diurnal = cos(2 * Double.pi * (hour - 14.5) / 24)
    let distance = across[cell] - moment.frontPosition
    let moisture = cloudStrength[cell]
    let humidityDetail = humidityNoise.value(east: east - 15 * moment.hours, north: north)

    // Humidity without the front: moist marine air, drier and more diurnal inland.
    var clearHumidity: Double
    if land {
      clearHumidity = 0.70 - 0.22 * inland + 0.06 * humidityDetail - (0.12 + 0.14 * inland) * diurnal
    } else {
      clearHumidity = 0.80 + 0.05 * humidityDetail - 0.04 * diurnal
    }
    let levels = levelHeight.count
    column.relativeHumidity = [Double](repeating: 0, count: levels)
    column.cloudFraction = [Double](repeating: 0, count: levels)
    for k in 0..<levels {
      let h = levelHeight[k]
      // The cloud shield leads the front aloft and trails it in a broad stratiform deck.
      let offset = distance - 60 * h
      let width = offset > 0 ? 100 + 70 * h : 230
      let band = min(1, 1.15 * moisture * exp(-offset * offset / (2 * width * width)))
      var humidity: Double
      if k == 0 {
        humidity = clearHumidity + (1 - clearHumidity) * 0.9 * band
      } else {
        let base = 0.58 - 0.22 * h + 0.12 * humidityDetail
        humidity = base + (1 - base) * band
      }
      if rain.total > 0, h <= 0.8 {
        humidity = max(humidity, 0.97 + 0.03 * min(1, rain.total / 2))
      }
      humidity = min(max(humidity, 0.25), 1)
      column.relativeHumidity[k] = humidity
      let saturation = min(max((humidity - 0.82) / 0.16, 0), 1)
      column.cloudFraction[k] = saturation * saturation.squareRoot()
    }
    column.cloudCover = column.cloudFraction.max() ?? 0
    column.relativeHumidity2m = column.relativeHumidity.first ?? clearHumidity

    // Temperature: sea surface or land with its diurnal cycle, then the air mass.
    let detail = temperatureNoise.value(east: east, north: north)
    var temperature: Double
    if land {
      let mean = 293.8 + 4.5 * inland - 0.003 * north - 0.0065 * height + 0.6 * detail
      let amplitude = (3.0 + 5.5 * inland) * (1 - 0.6 * column.cloudCover)
      column.diurnalAnomaly = amplitude * diurnal
      temperature = mean + column.diurnalAnomaly
    } else {
      column.diurnalAnomaly = 0.5 * diurnal
      temperature = 290.3 - 0.0045 * north - 2.2 * exp(-coast / 45) + column.diurnalAnomaly + 0.3 * detail
    }
    let warmSector = (distance - 150) / 150
    temperature +=
      0.02 * moment.hours - 3.2 * moisture * IberianRelief.smoothstep(-distance / 180)
      + 1.2 * moisture * exp(-warmSector * warmSector) - min(1, rain.total / 3)
    column.temperature2m = temperature
    column.seaLevelPressure = seaLevelPressure
    column.surfacePressure = Thermodynamics.surfacePressure(
      seaLevel: seaLevelPressure * 100, height: height, surfaceKelvin: temperature)
    return column
  }

  /// Earth-relative 10 m wind at a cell from the sea-level pressure gradient there
  /// (Pa/m, earth axes): the geostrophic wind slowed and turned towards low pressure by
  /// friction, a sea breeze on summer afternoons and some gustiness.
  func wind10m(
    cell: Int, at moment: WeatherScenario.Moment, gradientEast: Double, gradientNorth: Double
  ) -> (east: Double, north: Double) {
    let latitude = grid.latitudes[cell]
    var coriolis = 2 * 7.292e-5 * sin(latitude * .pi / 180)
    // Near the equator geostrophy breaks down; keep the winds finite for odd specs.
    if abs(coriolis) < 3e-5 { coriolis = coriolis < 0 ? -3e-5 : 3e-5 }
    let geostrophicEast = -gradientNorth / (1.2 * coriolis)
    let geostrophicNorth = gradientEast / (1.2 * coriolis)
    let land = geography.isLand[cell]
    let height = geography.height[cell]
    let slowdown = land ? 0.5 - 0.15 * IberianRelief.smoothstep(height / 1200) : 0.72
    let turn = (land ? 30.0 : 15.0) * .pi / 180 * (coriolis < 0 ? -1 : 1)
    var east = slowdown * (geostrophicEast * cos(turn) - geostrophicNorth * sin(turn))
    var north = slowdown * (geostrophicEast * sin(turn) + geostrophicNorth * cos(turn))

    let hour = moment.solar.localHour(longitude: grid.longitudes[cell])
    let breeze =
      4 * max(0, cos(2 * Double.pi * (hour - 15) / 24)) * exp(-geography.coastDistance[cell] / 30)
    east += breeze * geography.onshoreEast[cell]
    north += breeze * geography.onshoreNorth[cell]
    let x = grid.east[cell] - 20 * moment.hours
    let y = grid.north[cell] - 5 * moment.hours
    east += 1.1 * gustEast.value(east: x, north: y)
    north += 1.1 * gustNorth.value(east: x, north: y)

    // The strongest summer gradients stay below 15 m/s at 10 m.
    let speed = (east * east + north * north).squareRoot()
    if speed > 11 {
      let capped = 11 + 4 * tanh((speed - 11) / 4)
      east *= capped / speed
      north *= capped / speed
    }
    return (east, north)
  }

  /// Hydrometeors and thermodynamics on the model levels of one cell.
  struct Level {
    var pressure = 0.0
    var basePressure = 0.0
    var potentialTemperature = 0.0
    var vapour = 0.0
    var cloudWater = 0.0
    var rainWater = 0.0
    var ice = 0.0
    var snow = 0.0
  }

  func level(_ k: Int, cell: Int, column: Column, rain: Precipitation) -> Level {
    let fraction = levelPressureFraction[k]
    let surface = column.surfacePressure
    var level = Level()
    level.pressure = surface - (surface - 50_000) * fraction
    let base = Thermodynamics.baseStateSurfacePressure(height: geography.height[cell])
    level.basePressure = base - (base - 50_000) * fraction
    // Hypsometric thickness with a layer-mean temperature a little below T2, and the
    // day's heating confined to the lowest kilometre or so.
    let thickness = 29.27 * (column.temperature2m - 12) * log(surface / level.pressure)
    let kelvin =
      column.temperature2m - 0.8 * column.diurnalAnomaly * min(1, fraction * 6) - 0.0065 * thickness
    level.potentialTemperature = Thermodynamics.potentialTemperature(kelvin: kelvin, pressure: level.pressure)
    level.vapour = Thermodynamics.mixingRatio(
      relativeHumidity: column.relativeHumidity[k], kelvin: kelvin, pressure: level.pressure)
    let cloud = column.cloudFraction[k]
    let liquid = min(max((kelvin - 250) / 18, 0), 1)
    level.cloudWater = cloud * liquid * 3e-4
    level.ice = cloud * (1 - liquid) * 6e-5
    if rain.total > 0 {
      if kelvin > 272 {
        level.rainWater = 1.1e-4 * pow(rain.total, 0.85) * (1 - 0.5 * levelHeight[k])
      } else {
        level.snow = 9e-5 * pow(rain.total, 0.8)
      }
    }
    return level
  }

  /// A raised cosine: 1 at 0, falling to exactly 0 at ±halfWidth, so that rain areas
  /// and storm hours have sharp ends.
  static func bump(_ x: Double, halfWidth: Double) -> Double {
    guard abs(x) < halfWidth else { return 0 }
    let c = cos(Double.pi * x / (2 * halfWidth))
    return c * c
  }
}
