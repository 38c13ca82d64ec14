import Forecast
import Meteorology

extension MeteogramChart {
  /// The top and bottom of the panels, which grid lines and the night shading span.
  static var panelsTop: Double { Layout.iconsTop }
  static var panelsBottom: Double { Layout.cloud.bottom }

  /// Hours between labelled time ticks: fewer labels as the chart covers more days.
  var tickHours: Int {
    switch drawn.count {
    case ...50: 3
    case ...100: 6
    default: 12
    }
  }

  /// Shades the hours when the sun is down (`is_day` 0), each hour from half an hour
  /// before to half an hour after its instant.
  func drawNight(into out: inout SVGWriter) {
    let scale = time
    let isDay = values(.isDay)
    var spans: [(start: Double, end: Double)] = []
    for (instant, day) in zip(instants, isDay) where day == 0 {
      let start = max(scale.lower, Double(instant) - 1_800)
      let end = min(scale.upper, Double(instant) + 1_800)
      guard end > start else { continue }
      if let last = spans.last, last.end >= start {
        spans[spans.count - 1].end = end
      } else {
        spans.append((start, end))
      }
    }
    out.open("g", ["id": "night", "fill": "#e8ecf4"])
    for span in spans {
      out.element(
        "rect",
        [
          "x": SVGWriter.number(scale(span.start)), "y": SVGWriter.number(Self.panelsTop),
          "width": SVGWriter.number(scale(span.end) - scale(span.start)),
          "height": SVGWriter.number(Self.panelsBottom - Self.panelsTop),
        ])
    }
    out.close("g")
  }

  /// Grid lines every `tickHours` local hours and at local midnight across the panels, and
  /// under the cloud panel the time axis: hour labels, and each day's name under its hours.
  /// Each tick carries its instant as `data-time` (Unix seconds).
  func drawTimeAxis(into out: inout SVGWriter) {
    let scale = time
    let hours = drawn.map { series.hours[$0] }
    let labelY = Layout.cloud.bottom + 17
    out.open("g", ["id": "grid-time", "stroke": "#d0d4da", "stroke-width": "1"])
    for hour in hours where localHour(hour) % tickHours == 0 {
      let x = SVGWriter.number(scale(Double(hour.instant)))
      let midnight = localHour(hour) == 0
      out.element(
        "line",
        [
          "x1": x, "x2": x, "y1": SVGWriter.number(Self.panelsTop), "y2": SVGWriter.number(Self.panelsBottom),
          "stroke": midnight ? "#8d949e" : "#d0d4da",
        ])
    }
    out.close("g")
    out.open("g", ["id": "axis-time", "class": "axis", "data-unit": "s", "text-anchor": "middle"])
    for hour in hours where localHour(hour) % tickHours == 0 {
      let x = SVGWriter.number(scale(Double(hour.instant)))
      out.element(
        "line",
        [
          "class": "tick", "data-time": String(hour.instant), "x1": x, "x2": x,
          "y1": SVGWriter.number(Layout.cloud.bottom), "y2": SVGWriter.number(Layout.cloud.bottom + 5),
          "stroke": "#444",
        ])
      let hourText = localHour(hour) < 10 ? "0\(localHour(hour))" : "\(localHour(hour))"
      out.element("text", ["x": x, "y": SVGWriter.number(labelY), "fill": "#444"], content: hourText)
    }
    // Each local day's name, centred under the part of the day drawn.
    var dayStart = 0
    for index in hours.indices {
      let last = index == hours.count - 1
      guard last || localDate(hours[index + 1]) != localDate(hours[index]) else { continue }
      let start = max(scale.lower, Double(hours[dayStart].instant) - 1_800)
      let end = min(scale.upper, Double(hours[index].instant) + 1_800)
      if scale(end) - scale(start) > 60 {
        out.element(
          "text",
          [
            "x": SVGWriter.number((scale(start) + scale(end)) / 2), "y": SVGWriter.number(labelY + 17),
            "font-weight": "bold",
          ], content: dayName(localDate(hours[index])))
      }
      dayStart = index + 1
    }
    out.close("g")
  }

  /// The local hour of the day, 0…23.
  func localHour(_ hour: LocalHour) -> Int {
    let local = hour.instant + Int64(hour.utcOffset)
    return Int(((local % 86_400) + 86_400) % 86_400 / 3_600)
  }

  /// The local date of an hour.
  func localDate(_ hour: LocalHour) -> LocalDate {
    let local = hour.instant + Int64(hour.utcOffset)
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return LocalDate(daysSinceEpoch: Int(days))
  }

  /// "Sun 21 Jun".
  func dayName(_ date: LocalDate) -> String {
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let fields = date.fields
    let weekday = weekdays[((date.daysSinceEpoch % 7) + 7) % 7]
    return "\(weekday) \(fields.day) \(months[max(0, min(11, fields.month - 1))])"
  }
}
