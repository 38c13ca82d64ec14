/// The parts of Open-Meteo's FlatBuffers schema (`weather_api.fbs` of open-meteo/sdk) that
/// nwpcube writes: the field slots of its tables and the enum values it uses. The numbers
/// are the schema's (an enum value is its position in the enum, a slot its field's
/// position in the table); the tests read them back through the PyPI `openmeteo-sdk`
/// decoder.
enum OpenMeteoSchema {
  /// `WeatherApiResponse`'s fields.
  enum Response {
    static let fieldCount = 15
    static let latitude = 0
    static let longitude = 1
    static let elevation = 2
    static let generationTimeMilliseconds = 3
    static let locationID = 4
    static let model = 5
    static let utcOffsetSeconds = 6
    static let timezone = 7
    static let timezoneAbbreviation = 8
    static let current = 9
    static let daily = 10
    static let hourly = 11
    static let minutely15 = 12
  }

  /// `VariablesWithTime`'s fields.
  enum Block {
    static let fieldCount = 4
    static let time = 0
    static let timeEnd = 1
    static let interval = 2
    static let variables = 3
  }

  /// `VariableWithValues`'s fields.
  enum Values {
    static let fieldCount = 13
    static let variable = 0
    static let unit = 1
    static let value = 2
    static let values = 3
    static let valuesInt64 = 4
    static let altitude = 5
    static let aggregation = 6
  }

  /// `Model`: nwpcube's models are a centre's own runs, which the enum (Open-Meteo's
  /// upstream models) does not list; `undefined` claims none of them.
  static let undefinedModel: UInt8 = 0

  /// `Variable` values.
  enum Variable: UInt8 {
    case undefined = 0
    case apparentTemperature = 1
    case cloudCover = 3
    case cloudCoverHigh = 4
    case cloudCoverLow = 5
    case cloudCoverMid = 6
    case daylightDuration = 7
    case dewPoint = 8
    case isDay = 19
    case precipitation = 24
    case precipitationHours = 25
    case precipitationProbability = 26
    case pressureMSL = 27
    case rain = 28
    case relativeHumidity = 29
    case shortwaveRadiation = 32
    case shortwaveRadiationInstant = 33
    case showers = 34
    case snowDepth = 35
    case snowfall = 37
    case snowfallWaterEquivalent = 39
    case sunrise = 40
    case sunset = 41
    case surfacePressure = 45
    case temperature = 47
    case visibility = 55
    case weatherCode = 56
    case windDirection = 57
    case windGusts = 58
    case windSpeed = 59
  }

  /// `Unit` values.
  enum Unit: UInt8 {
    case undefined = 0
    case celsius = 1
    case centimetre = 2
    case degreeDirection = 5
    case dimensionlessInteger = 6
    case fahrenheit = 9
    case feet = 10
    case hectopascal = 16
    case hours = 17
    case inch = 18
    case kilopascal = 22
    case kilometresPerHour = 24
    case knots = 25
    case megajoulePerSquareMetre = 26
    case metrePerSecond = 28
    case metre = 29
    case milesPerHour = 31
    case millimetre = 32
    case percentage = 35
    case seconds = 36
    case unixTime = 37
    case wattPerSquareMetre = 39
    case wmoCode = 40

    /// The unit Open-Meteo's JSON labels `label`; `undefined` for a label the enum lacks
    /// (`km`, `mi`, `inHg`, `mmHg`: units nwpcube offers and Open-Meteo does not).
    init(label: String) {
      switch label {
      case "°C": self = .celsius
      case "°F": self = .fahrenheit
      case "cm": self = .centimetre
      case "°": self = .degreeDirection
      case "": self = .dimensionlessInteger
      case "ft": self = .feet
      case "hPa": self = .hectopascal
      case "h": self = .hours
      case "inch": self = .inch
      case "kPa": self = .kilopascal
      case "km/h": self = .kilometresPerHour
      case "kn": self = .knots
      case "MJ/m²": self = .megajoulePerSquareMetre
      case "m/s": self = .metrePerSecond
      case "m": self = .metre
      case "mp/h": self = .milesPerHour
      case "mm": self = .millimetre
      case "%": self = .percentage
      case "s": self = .seconds
      case "W/m²": self = .wattPerSquareMetre
      case "wmo code": self = .wmoCode
      default: self = .undefined
      }
    }
  }

  /// `Aggregation` values.
  enum Aggregation: UInt8 {
    case none = 0
    case minimum = 1
    case maximum = 2
    case median = 6
    case dominant = 9
    case sum = 10
  }
}
