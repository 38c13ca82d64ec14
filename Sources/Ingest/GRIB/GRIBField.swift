import GRIB

/// One message a run uses, with the conversion of its values to its quantity's unit.
struct GRIBField: Sendable {
  let file: GRIBFile
  let message: GRIBMessage
  /// To the row's unit (or its rate unit, for an average or a rate).
  let conversion: GRIBUnit.Conversion
  /// Half the packing's step (2^binaryScaleFactor · 10^−decimalScaleFactor), converted:
  /// how far a decoded value may lie from the one the producer computed. Read for
  /// accumulations and averages, whose differences may fall below zero by this much; 0
  /// for the rest.
  var packingError = 0.0

  /// "nam.grib2 message 125", as errors and warnings name it.
  var place: String { "\(file.path) message \(message.number)" }

  /// The whole field as the message holds it, not converted; NaN where the message marks
  /// a point missing.
  func rawValues() throws(IngestError) -> [Double] {
    do {
      return try file.values(of: message)
    } catch {
      throw IngestError(error)
    }
  }

  /// The whole field, converted.
  func values() throws(IngestError) -> [Double] {
    var values = try rawValues()
    if conversion != .identity {
      for k in values.indices { values[k] = conversion.apply(values[k]) }
    }
    return values
  }
}

extension IngestError {
  /// A GRIB reader's error, naming the file, the message and the key as it does.
  init(_ error: GRIBError) {
    let place = [error.message.map { "message \($0)" }, error.key].compactMap { $0 }.joined(separator: ": ")
    self.init(path: error.path, variable: place.isEmpty ? nil : place, reason: error.reason)
  }
}
