import Forecast
import Meteorology

extension OpenMeteoDocument {
  /// What a column is in Open-Meteo's schema: its variable, height above ground and
  /// aggregation.
  struct SchemaVariable {
    var variable: OpenMeteoSchema.Variable
    var altitude: Int16 = 0
    var aggregation: OpenMeteoSchema.Aggregation = .none
  }

  /// The answer as one size-prefixed `WeatherApiResponse` message of Open-Meteo's
  /// FlatBuffers schema (`format=flatbuffers`), appended to `out`.
  ///
  /// Values are those of the JSON answer, rounded to the same decimals and then stored as
  /// 32-bit floats, so that a client reads the same number either way; null is NaN, and a
  /// missing sunrise or sunset is `Int64.max`, the schema's sentinel. Times are Unix seconds:
  /// each block gives its first time, the end of its last interval and the step.
  ///
  /// - Parameters:
  ///   - locationID: the request's `location_id` for the location, by default its index.
  ///   - builder: reused between messages for its memory; cleared here.
  public func flatBuffer(locationID: Int, builder: inout FlatBufferBuilder, into out: inout [UInt8]) {
    builder.clear()
    let zone = request.timeZone
    let current = answer.current.map { currentBlock($0, &builder) }
    let daily = answer.daily.map { dailyBlock($0, &builder) }
    let hourly = answer.hourly.map { block($0, columns: answer.query.hourly, interval: 3_600, &builder) }
    let minutely = answer.minutely15.map { block($0, columns: answer.query.minutely15, interval: 900, &builder) }
    // Open-Meteo leaves out the names of its default zone.
    let zoneName = timeZoneName == "GMT" ? nil : builder.string(timeZoneName)
    let abbreviation = zone.abbreviation(at: now)
    let abbreviationName = abbreviation == "GMT" ? nil : builder.string(abbreviation)
    typealias Field = OpenMeteoSchema.Response
    builder.startTable(fieldCount: Field.fieldCount)
    builder.add(Int64(locationID), slot: Field.locationID)
    builder.add(Float(request.latitude), slot: Field.latitude)
    builder.add(Float(request.longitude), slot: Field.longitude)
    builder.add(Self.float(request.answerElevation(firstSource), scale: 1, decimals: 1), slot: Field.elevation)
    builder.add(Float(generationTime), slot: Field.generationTimeMilliseconds)
    builder.add(Int32(zone.utcOffset(at: now)), slot: Field.utcOffsetSeconds)
    builder.add(zoneName, slot: Field.timezone)
    builder.add(abbreviationName, slot: Field.timezoneAbbreviation)
    builder.add(current, slot: Field.current)
    builder.add(daily, slot: Field.daily)
    builder.add(hourly, slot: Field.hourly)
    builder.add(minutely, slot: Field.minutely15)
    builder.add(OpenMeteoSchema.undefinedModel, slot: Field.model)
    let root = builder.endTable()
    out.append(contentsOf: builder.finishSizePrefixed(root: root))
  }

  /// The answers as the stream Open-Meteo's clients read: one message per location, in
  /// request order, each with its `location_id` (its index when `locationIDs` is nil).
  public static func flatBuffers(_ documents: [OpenMeteoDocument], locationIDs: [Int]? = nil) -> [UInt8] {
    var builder = FlatBufferBuilder(capacity: 4_096)
    var out: [UInt8] = []
    for (index, document) in documents.enumerated() {
      let id = locationIDs.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? index
      document.flatBuffer(locationID: id, builder: &builder, into: &out)
    }
    return out
  }

  /// The first run, domain and cell that produced a value, whose terrain height the answer
  /// gives as its elevation (the JSON answer's `sources[0]`).
  var firstSource: Provenance? {
    let series = [answer.current?.series, answer.minutely15?.series, answer.hourly?.series]
    for case let series? in series {
      if let first = series.provenance.first { return first }
    }
    return answer.daily?.summaries.lazy.compactMap(\.provenance.first).first
  }

  /// `value` as the JSON answer writes it, rounded to `decimals`, as a 32-bit float; NaN
  /// for null.
  static func float(_ value: Double?, scale: Double, decimals: Int) -> Float {
    guard let value, value.isFinite else { return .nan }
    var factor = 1.0
    for _ in 0..<min(max(decimals, 0), 9) { factor *= 10 }
    return Float((value * scale * factor).rounded() / factor)
  }

  private func variable(
    _ schema: SchemaVariable, unit: OpenMeteoSchema.Unit, _ builder: inout FlatBufferBuilder,
    values: FlatBufferBuilder.Offset? = nil, integers: FlatBufferBuilder.Offset? = nil, value: Float = 0
  ) -> FlatBufferBuilder.Offset {
    typealias Field = OpenMeteoSchema.Values
    builder.startTable(fieldCount: Field.fieldCount)
    builder.add(values, slot: Field.values)
    builder.add(integers, slot: Field.valuesInt64)
    builder.add(value, slot: Field.value)
    builder.add(schema.altitude, slot: Field.altitude)
    builder.add(schema.variable.rawValue, slot: Field.variable)
    builder.add(unit.rawValue, slot: Field.unit)
    builder.add(schema.aggregation.rawValue, slot: Field.aggregation)
    return builder.endTable()
  }

  private func times(
    first: Int64, end: Int64, interval: Int32, variables: [FlatBufferBuilder.Offset], _ builder: inout FlatBufferBuilder
  ) -> FlatBufferBuilder.Offset {
    let list = builder.vector(variables)
    typealias Field = OpenMeteoSchema.Block
    builder.startTable(fieldCount: Field.fieldCount)
    builder.add(first, slot: Field.time)
    builder.add(end, slot: Field.timeEnd)
    builder.add(list, slot: Field.variables)
    builder.add(interval, slot: Field.interval)
    return builder.endTable()
  }

  private func currentBlock(
    _ block: OpenMeteoAnswer.Block, _ builder: inout FlatBufferBuilder
  )
    -> FlatBufferBuilder.Offset
  {
    let variables = answer.query.current.enumerated().map { index, column in
      let shown = presentation(column.quantity)
      let value = Self.float(block.values[index].first ?? nil, scale: shown.scale, decimals: shown.decimals)
      return variable(
        Self.schema(column.quantity), unit: OpenMeteoSchema.Unit(label: shown.label), &builder, value: value)
    }
    let time = block.times.first?.instant ?? answer.query.currentTime
    return times(
      first: time, end: time + OpenMeteoQuery.currentInterval, interval: Int32(OpenMeteoQuery.currentInterval),
      variables: variables, &builder)
  }

  private func block(
    _ block: OpenMeteoAnswer.Block, columns: [OpenMeteoQuery.Column], interval: Int64,
    _ builder: inout FlatBufferBuilder
  ) -> FlatBufferBuilder.Offset {
    let variables = columns.enumerated().map { index, column in
      let shown = presentation(column.quantity)
      let values = builder.vector(
        block.values[index].map { Self.float($0, scale: shown.scale, decimals: shown.decimals) })
      return variable(
        Self.schema(column.quantity), unit: OpenMeteoSchema.Unit(label: shown.label), &builder, values: values)
    }
    // An empty block starts and ends at the current time, as a range of no steps.
    let first = block.times.first?.instant ?? answer.query.currentTime
    let end = block.times.last.map { $0.instant + interval } ?? first
    return times(first: first, end: end, interval: Int32(interval), variables: variables, &builder)
  }

  private func dailyBlock(
    _ block: OpenMeteoAnswer.Daily, _ builder: inout FlatBufferBuilder
  )
    -> FlatBufferBuilder.Offset
  {
    let variables = answer.query.daily.enumerated().map { index, column in
      let shown = presentation(column.quantity)
      let schema = Self.schema(column.quantity)
      guard shown.isTime else {
        let values = builder.vector(
          block.values[index].map { Self.float($0, scale: shown.scale, decimals: shown.decimals) })
        return variable(schema, unit: OpenMeteoSchema.Unit(label: shown.label), &builder, values: values)
      }
      // Instants, to the second; a day without the event has the schema's sentinel.
      let instants = builder.vector(
        block.values[index].map { value in value.flatMap { Int64(exactly: $0.rounded(.down)) } ?? Int64.max })
      return variable(schema, unit: .unixTime, &builder, integers: instants)
    }
    let first = block.summaries.first?.day.start ?? answer.query.currentTime
    return times(
      first: first, end: first + Int64(block.summaries.count) * 86_400, interval: 86_400, variables: variables,
      &builder)
  }

  /// The schema's variable for an hourly, current or `minutely_15` column; `undefined` for
  /// nwpcube's own metrics that the schema has no name for.
  static func schema(_ quantity: OpenMeteoQuantity) -> SchemaVariable {
    switch quantity {
    case .metric(let metric): schema(metric)
    case .liquidRain: SchemaVariable(variable: .rain)
    case .shortwaveMean: SchemaVariable(variable: .shortwaveRadiation)
    }
  }

  /// The schema's variable for a daily column, with its aggregation.
  static func schema(_ quantity: OpenMeteoDailyQuantity) -> SchemaVariable {
    switch quantity {
    case .liquidRainSum: return SchemaVariable(variable: .rain, aggregation: .sum)
    case .shortwaveSum: return SchemaVariable(variable: .shortwaveRadiation, aggregation: .sum)
    case .variable(let variable):
      switch variable {
      case .statistic(let metric, let statistic):
        var found = schema(metric)
        found.aggregation =
          switch statistic {
          case .median: .median
          case .min: .minimum
          case .max: .maximum
          case .sum: .sum
          }
        return found
      case .windDirectionDominant: return SchemaVariable(variable: .windDirection, altitude: 10, aggregation: .dominant)
      case .weatherCode: return SchemaVariable(variable: .weatherCode)
      case .precipitationHours: return SchemaVariable(variable: .precipitationHours)
      case .sunrise: return SchemaVariable(variable: .sunrise)
      case .sunset: return SchemaVariable(variable: .sunset)
      case .daylightDuration: return SchemaVariable(variable: .daylightDuration)
      }
    }
  }

  /// The schema's variable for one of nwpcube's metrics, under Open-Meteo's meaning of the
  /// word (nwpcube's `rain` is the total, Open-Meteo's `precipitation`).
  static func schema(_ metric: Metric) -> SchemaVariable {
    switch metric {
    case .temp: SchemaVariable(variable: .temperature, altitude: 2)
    case .hum: SchemaVariable(variable: .relativeHumidity, altitude: 2)
    case .dewPoint: SchemaVariable(variable: .dewPoint, altitude: 2)
    case .apparentTemp: SchemaVariable(variable: .apparentTemperature, altitude: 2)
    case .rain: SchemaVariable(variable: .precipitation)
    case .snow: SchemaVariable(variable: .snowfallWaterEquivalent)
    case .showers: SchemaVariable(variable: .showers)
    case .snowfall: SchemaVariable(variable: .snowfall)
    case .snowDepth: SchemaVariable(variable: .snowDepth)
    case .cloud: SchemaVariable(variable: .cloudCover)
    case .cloudLow: SchemaVariable(variable: .cloudCoverLow)
    case .cloudMid: SchemaVariable(variable: .cloudCoverMid)
    case .cloudHigh: SchemaVariable(variable: .cloudCoverHigh)
    case .windVel: SchemaVariable(variable: .windSpeed, altitude: 10)
    case .windDir: SchemaVariable(variable: .windDirection, altitude: 10)
    case .windGusts: SchemaVariable(variable: .windGusts, altitude: 10)
    case .atmPress: SchemaVariable(variable: .pressureMSL)
    case .sfcPress: SchemaVariable(variable: .surfacePressure)
    case .shortwave: SchemaVariable(variable: .shortwaveRadiationInstant)
    case .visibility: SchemaVariable(variable: .visibility)
    case .weatherCode: SchemaVariable(variable: .weatherCode)
    case .isDay: SchemaVariable(variable: .isDay)
    case .precipitationProbability: SchemaVariable(variable: .precipitationProbability)
    case .windU, .windV, .precipitationNeighbourhood: SchemaVariable(variable: .undefined)
    }
  }
}
