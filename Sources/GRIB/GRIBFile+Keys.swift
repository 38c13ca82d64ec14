extension GRIBFile {
  /// Any integer key of `message` (`codes_get_long`), for what `GRIBMessage` does not
  /// carry (`typeOfStatisticalProcessing`, `productDefinitionTemplateNumber` …). A key
  /// the message does not have is an error naming it, with ecCodes' text.
  public func long(_ key: String, of message: GRIBMessage) throws(GRIBError) -> Int {
    try withHandle(message) { handle throws(GRIBError) in try handle.long(key) }
  }

  /// Any real key of `message` (`codes_get_double`); see `long(_:of:)`.
  public func double(_ key: String, of message: GRIBMessage) throws(GRIBError) -> Double {
    try withHandle(message) { handle throws(GRIBError) in try handle.double(key) }
  }

  /// Any key of `message` as text (`codes_get_string`); see `long(_:of:)`.
  public func string(_ key: String, of message: GRIBMessage) throws(GRIBError) -> String {
    try withHandle(message) { handle throws(GRIBError) in try handle.string(key) }
  }
}
