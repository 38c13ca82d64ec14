import Foundation

/// The weather of a sample run, cell by cell: everything that does not change with time
/// is computed once here, and the methods evaluate one cell at one instant from it.
///
/// The fields are built from a few physical relations rather than drawn independently,
/// so that tests and demos see consistent data: pressure falls with height by the
/// barometric formula, humidity is stored as the mixing ratio of a relative humidity
/// that stays between 25 % and 100 %, clouds sit where the air is saturated and rain
/// falls from them, and sunshine follows the sun and the clouds.
struct SyntheticWeather: Sendable {
  /// What never changes at a cell, gathered in one plain value so that the per-cell
  /// code reads it with one copy (debug builds copy whole structs of arrays on every
  /// property access, which dominated the generation time).
  struct Cell: Sendable {
    var latitude = 0.0
    var longitude = 0.0
    /// Kilometres east and north on the Iberian map.
    var east = 0.0
    var north = 0.0
    var isLand = false
    var coastDistance = 0.0
    var height = 0.0
    /// WRF's dry base-state surface pressure over this terrain, Pa.
    var baseSurfacePressure = 0.0
    /// 0 on the coast and over the sea, 1 deep inland: scales the diurnal cycle.
    var continentality = 0.0
    /// Position across the front (km, along its motion).
    var across = 0.0
    var rainStrength = 0.0
    var cloudStrength = 0.0
    var temperatureDetail = 0.0
    var onshoreEast = 0.0
    var onshoreNorth = 0.0
    var cosAlpha = 1.0
    var sinAlpha = 0.0
    /// Sine and cosine of the latitude, for the sun.
    var sinLatitude = 0.0
    var cosLatitude = 1.0
    /// The Coriolis parameter, kept away from zero so that geostrophy stays finite near
    /// the equator.
    var coriolis = 1e-4
    /// How much of the geostrophic wind friction leaves at 10 m, and the sine and cosine
    /// of the angle it turns the wind towards low pressure.
    var windFactor = 0.0
    var frictionCos = 1.0
    var frictionSin = 0.0
    /// Sea-breeze strength (m/s at full afternoon sun), fading away from the coast.
    var breeze = 0.0
    /// The sea-surface temperature's drop in the coastal upwelling, K.
    var upwelling = 0.0
  }

  /// The near-surface state of a cell at an instant.
  struct Surface {
    var temperature = 0.0
    var relativeHumidity = 0.0
    var pressure = 0.0
    var cloudCover = 0.0
    /// The diurnal swing part of T2, which stays near the ground.
    var diurnalAnomaly = 0.0
  }

  let spec: SampleRunSpec
  let start: WRFDate
  let grid: SampleGrid
  let geography: SampleGeography
  let scenario: WeatherScenario
  let cells: [Cell]
  /// Cells the front can rain on, sorted by their position across it, so that each
  /// instant visits only the cells under the band.
  let frontCells: [Int]
  let frontCellsAcross: [Double]
  /// Cells high enough for afternoon storms.
  let mountainCells: [Int]
  /// How far (0…1) each level is from the surface to 500 hPa, in pressure.
  let levelPressureFraction: [Double]
  /// The level's index scaled to 0…1, for profiles that should not depend on the
  /// number of levels.
  let levelHeight: [Double]

  /// The extent of the rain band around the front line, km (negative is behind it).
  static let bandBehind = -220.0
  static let bandAhead = 45.0
  /// Relative humidity at which cloud starts to form in a model layer.
  static let cloudThreshold = 0.86
  /// Terrain height above which summer afternoon storms can form, m.
  static let stormHeight = 600.0

  private let convectiveCells: SmoothNoise
  private let stratiformTexture: SmoothNoise
  private let afternoonStorms: SmoothNoise
  private let humidityNoise: SmoothNoise
  private let gustEast: SmoothNoise
  private let gustNorth: SmoothNoise

  /// The weather of `spec`'s run on `grid` (by default the grid `spec` describes).
  init(spec: SampleRunSpec, start: WRFDate, grid: SampleGrid? = nil) {
    self.spec = spec
    self.start = start
    let grid = grid ?? SampleGrid(spec)
    let geography = SampleGeography(grid: grid, dx: spec.dx, seed: spec.seed)
    self.grid = grid
    self.geography = geography
    scenario = WeatherScenario(seed: spec.seed)
    var seeds = SplitMix64(seed: spec.seed ^ 0xD15E_A5ED)
    convectiveCells = SmoothNoise(seed: seeds.next(), spacing: 32)
    stratiformTexture = SmoothNoise(seed: seeds.next(), spacing: 90)
    afternoonStorms = SmoothNoise(seed: seeds.next(), spacing: 40)
    humidityNoise = SmoothNoise(seed: seeds.next(), spacing: 150)
    let temperatureNoise = SmoothNoise(seed: seeds.next(), spacing: 60)
    gustEast = SmoothNoise(seed: seeds.next(), spacing: 70)
    gustNorth = SmoothNoise(seed: seeds.next(), spacing: 70)

    var cells: [Cell] = []
    cells.reserveCapacity(grid.count)
    for index in 0..<grid.count {
      var cell = Cell()
      cell.latitude = grid.latitudes[index]
      cell.longitude = grid.longitudes[index]
      cell.east = grid.east[index]
      cell.north = grid.north[index]
      cell.isLand = geography.isLand[index]
      cell.coastDistance = geography.coastDistance[index]
      cell.height = geography.height[index]
      cell.baseSurfacePressure = Thermodynamics.baseStateSurfacePressure(height: cell.height)
      cell.continentality = cell.isLand ? IberianRelief.smoothstep(cell.coastDistance / 120) : 0
      cell.across = WeatherScenario.acrossFront(east: cell.east, north: cell.north)
      let along = WeatherScenario.alongFront(east: cell.east, north: cell.north)
      cell.rainStrength = WeatherScenario.rainStrength(along: along, across: cell.across)
      cell.cloudStrength = WeatherScenario.cloudStrength(along: along)
      cell.temperatureDetail = temperatureNoise.value(east: cell.east, north: cell.north)
      cell.onshoreEast = geography.onshoreEast[index]
      cell.onshoreNorth = geography.onshoreNorth[index]
      cell.cosAlpha = grid.cosAlpha[index]
      cell.sinAlpha = grid.sinAlpha[index]
      let phi = cell.latitude * .pi / 180
      cell.sinLatitude = sin(phi)
      cell.cosLatitude = cos(phi)
      let coriolis = 2 * 7.292e-5 * cell.sinLatitude
      cell.coriolis = coriolis < 0 ? min(coriolis, -3e-5) : max(coriolis, 3e-5)
      cell.windFactor =
        cell.isLand ? 0.42 - 0.12 * IberianRelief.smoothstep(cell.height / 1200) : 0.62
      // Friction turns the wind towards low pressure: to the left of the geostrophic wind
      // in the north, to the right in the south.
      let turn = (cell.isLand ? 30.0 : 15.0) * .pi / 180 * (cell.coriolis < 0 ? -1 : 1)
      cell.frictionCos = cos(turn)
      cell.frictionSin = sin(turn)
      cell.breeze = 4 * exp(-cell.coastDistance / 30)
      cell.upwelling = cell.isLand ? 0 : 2.2 * exp(-cell.coastDistance / 45)
      cells.append(cell)
    }
    self.cells = cells
    frontCells = cells.indices.filter { cells[$0].rainStrength > 0 }.sorted {
      (cells[$0].across, $0) < (cells[$1].across, $1)
    }
    frontCellsAcross = frontCells.map { cells[$0].across }
    mountainCells = cells.indices.filter { cells[$0].height > Self.stormHeight }
    let levels = spec.levels
    levelHeight = (0..<levels).map { levels == 1 ? 0 : Double($0) / Double(levels - 1) }
    levelPressureFraction = levelHeight.map { 0.01 + 0.99 * pow($0, 1.3) }
  }

  /// Rain rates in mm/h at one cell: the total (capped at 8 mm/h, and exactly 0 outside
  /// the rain areas) and the part of it that is convective.
  struct Precipitation {
    var total = 0.0
    var convective = 0.0
  }

  /// The rain at every cell at an instant, written into `rain` (one entry per cell,
  /// all dry on entry); returns the cells that got any.
  func precipitation(at moment: WeatherScenario.Moment, into rain: inout [Precipitation]) -> [Int] {
    var wet: [Int] = []
    // Only cells between the band's edges can get frontal rain.
    let lowest = moment.frontPosition + Self.bandBehind
    let highest = moment.frontPosition + Self.bandAhead
    let first = Self.lowerBound(frontCellsAcross, lowest)
    let last = Self.lowerBound(frontCellsAcross, highest)
    for index in frontCells[first..<last] {
      let value = precipitation(cells[index], at: moment)
      if value.total > 0 {
        rain[index] = value
        wet.append(index)
      }
    }
    for index in mountainCells {
      let cell = cells[index]
      // Mountain cells under the band were done above, storms included.
      if cell.rainStrength > 0, cell.across >= lowest, cell.across < highest { continue }
      let value = precipitation(cell, at: moment)
      if value.total > 0 {
        rain[index] = value
        wet.append(index)
      }
    }
    return wet
  }

  /// The rain at one cell.
  func precipitation(_ cell: Cell, at moment: WeatherScenario.Moment) -> Precipitation {
    let distance = cell.across - moment.frontPosition
    var convective = 0.0
    var stratiform = 0.0
    if cell.rainStrength > 0, distance > Self.bandBehind, distance < Self.bandAhead {
      // Cells ride with the front and drift north-east along it.
      let normal = WeatherScenario.frontNormal
      let speed = WeatherScenario.frontSpeed
      let driftEast = (speed * normal.east - 12 * normal.north) * moment.hours
      let driftNorth = (speed * normal.north + 12 * normal.east) * moment.hours
      let showers = convectiveCells.value(east: cell.east - driftEast, north: cell.north - driftNorth)
      convective =
        5.2 * cell.rainStrength * Self.bump(distance, halfWidth: Self.bandAhead) * max(0, 1 + 1.25 * showers)
      let texture = stratiformTexture.value(east: cell.east - driftEast, north: cell.north - driftNorth)
      stratiform = 1.0 * cell.rainStrength * Self.bump(distance + 100, halfWidth: 120) * (0.75 + 0.35 * texture)
    }
    if cell.height > Self.stormHeight {
      // Summer heat storms over the mountains in the late afternoon.
      let timing = Self.bump(moment.solar.localHour(longitude: cell.longitude) - 16.5, halfWidth: 3.5)
      if timing > 0 {
        let spots = afternoonStorms.value(
          east: cell.east - 15 * moment.hours, north: cell.north - 5 * moment.hours)
        convective +=
          4.5 * IberianRelief.smoothstep((cell.height - Self.stormHeight) / 700) * timing
          * max(0, spots - 0.35) / 0.65
      }
    }
    let raw = (convective + stratiform) * (1 + 0.7 * cell.height / 1000)
    // Drizzle below 0.12 mm/h is cut so that rain areas have edges and the rest of the
    // domain is exactly dry.
    guard raw > 0.12 else { return Precipitation() }
    let total = 8 * tanh((raw - 0.12) / 8)
    return Precipitation(total: total, convective: total * convective / (convective + stratiform))
  }

  /// Humidity, clouds, temperature and surface pressure of a cell at an instant, given
  /// its rain and its sea-level pressure (hPa). The relative humidity and cloud fraction
  /// of each level go into `humidity` and `cloud` (one entry per level).
  func surface(
    _ cell: Cell, at moment: WeatherScenario.Moment, rain: Precipitation, seaLevelPressure: Double,
    humidity: inout [Double], cloud: inout [Double]
  ) -> Surface {
    var surface = Surface()
    let hour = moment.solar.localHour(longitude: cell.longitude)
    // +1 in mid-afternoon, −1 before dawn.
    let diurnal = cos(2 * Double.pi * (hour - 14.5) / 24)
    let distance = cell.across - moment.frontPosition
    let moisture = cell.cloudStrength
    let humidityDetail = humidityNoise.value(east: cell.east - 15 * moment.hours, north: cell.north)

    // Humidity without the front: moist marine air, drier and more diurnal inland.
    let inland = cell.continentality
    // Kept below the cloud threshold, so that away from the front the sky is clear.
    let clearHumidity = min(
      cell.isLand
        ? 0.70 - 0.22 * inland + 0.06 * humidityDetail - (0.12 + 0.14 * inland) * diurnal
        : 0.80 + 0.05 * humidityDetail - 0.04 * diurnal,
      Self.cloudThreshold)
    var cover = 0.0
    for k in levelHeight.indices {
      let h = levelHeight[k]
      // The cloud shield leads the front aloft and trails it in a broad stratiform deck.
      let offset = distance - 60 * h
      let width = offset > 0 ? 100 + 70 * h : 230
      // Beyond five widths the band adds under 1e-5; skipping exp there is most cells.
      let band =
        offset * offset < 25 * width * width
        ? min(1, 1.15 * moisture * exp(-offset * offset / (2 * width * width))) : 0
      var relative: Double
      if k == 0 {
        relative = clearHumidity + (1 - clearHumidity) * 0.9 * band
      } else {
        let base = 0.58 - 0.22 * h + 0.12 * humidityDetail
        relative = base + (1 - base) * band
      }
      if rain.total > 0, h <= 0.8 {
        relative = max(relative, 0.985 + 0.015 * min(1, rain.total / 2))
      }
      relative = min(max(relative, 0.25), 1)
      humidity[k] = relative
      let saturation = min(max((relative - Self.cloudThreshold) / (0.99 - Self.cloudThreshold), 0), 1)
      cloud[k] = saturation * saturation.squareRoot()
      cover = max(cover, cloud[k])
    }
    surface.cloudCover = cover
    surface.relativeHumidity = humidity[0]

    // Temperature: sea surface or land with its diurnal cycle, then the air mass.
    var temperature: Double
    if cell.isLand {
      let mean =
        293.8 + 4.5 * inland - 0.003 * cell.north - 0.0065 * cell.height + 0.6 * cell.temperatureDetail
      surface.diurnalAnomaly = (3.0 + 5.5 * inland) * (1 - 0.6 * cover) * diurnal
      temperature = mean + surface.diurnalAnomaly
    } else {
      surface.diurnalAnomaly = 0.5 * diurnal
      temperature =
        290.3 - 0.0045 * cell.north - cell.upwelling + surface.diurnalAnomaly + 0.3 * cell.temperatureDetail
    }
    let warmSector = (distance - 150) / 150
    temperature +=
      0.02 * moment.hours - 3.2 * moisture * IberianRelief.smoothstep(-distance / 180)
      + 1.2 * moisture * exp(-warmSector * warmSector) - min(1, rain.total / 3)
    surface.temperature = temperature
    surface.pressure = Thermodynamics.surfacePressure(
      seaLevel: seaLevelPressure * 100, height: cell.height, surfaceKelvin: temperature)
    return surface
  }

  /// Earth-relative 10 m wind at a cell from the sea-level pressure gradient there
  /// (Pa/m, earth axes): the geostrophic wind slowed and turned towards low pressure by
  /// friction, a sea breeze on summer afternoons and some gustiness.
  func wind10m(
    _ cell: Cell, at moment: WeatherScenario.Moment, gradientEast: Double, gradientNorth: Double
  ) -> (east: Double, north: Double) {
    let geostrophicEast = -gradientNorth / (1.2 * cell.coriolis)
    let geostrophicNorth = gradientEast / (1.2 * cell.coriolis)
    var east = cell.windFactor * (geostrophicEast * cell.frictionCos - geostrophicNorth * cell.frictionSin)
    var north = cell.windFactor * (geostrophicEast * cell.frictionSin + geostrophicNorth * cell.frictionCos)

    let hour = moment.solar.localHour(longitude: cell.longitude)
    let breeze = cell.breeze * max(0, cos(2 * Double.pi * (hour - 15) / 24))
    east += breeze * cell.onshoreEast
    north += breeze * cell.onshoreNorth
    let x = cell.east - 20 * moment.hours
    let y = cell.north - 5 * moment.hours
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

  /// Hydrometeors and thermodynamics on one model level of a cell.
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

  func level(
    _ k: Int, of cell: Cell, surface: Surface, humidity: Double, cloud: Double, rain: Precipitation
  ) -> Level {
    let fraction = levelPressureFraction[k]
    var level = Level()
    level.pressure = surface.pressure - (surface.pressure - 50_000) * fraction
    let base = cell.baseSurfacePressure
    level.basePressure = base - (base - 50_000) * fraction
    // Hypsometric thickness with a layer-mean temperature a little below T2, and the
    // day's heating confined to the lowest kilometre or so.
    let thickness = 29.27 * (surface.temperature - 12) * log(surface.pressure / level.pressure)
    let kelvin =
      surface.temperature - 0.8 * surface.diurnalAnomaly * min(1, fraction * 6) - 0.0065 * thickness
    level.potentialTemperature = Thermodynamics.potentialTemperature(kelvin: kelvin, pressure: level.pressure)
    level.vapour = Thermodynamics.mixingRatio(
      relativeHumidity: humidity, kelvin: kelvin, pressure: level.pressure)
    if cloud > 0 {
      let liquid = min(max((kelvin - 250) / 18, 0), 1)
      level.cloudWater = cloud * liquid * 3e-4
      level.ice = cloud * (1 - liquid) * 6e-5
    }
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

  /// The first index whose value is not below `value` in an ascending array.
  private static func lowerBound(_ values: [Double], _ value: Double) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
