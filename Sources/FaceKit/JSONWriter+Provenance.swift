import Forecast
import JSONOutput

extension JSONWriter {
  /// A source's grid cell, `{"i":59,"j":22,"latitude":38.0398,"longitude":-8.8443}`,
  /// written in place: every forecast answer writes one or more.
  package mutating func cell(_ source: Provenance) {
    byte(UInt8(ascii: "{"))
    literalKey("i", first: true)
    integer(Int64(source.i))
    literalKey("j")
    integer(Int64(source.j))
    literalKey("latitude")
    number(source.latitude, decimals: 4)
    literalKey("longitude")
    number(source.longitude, decimals: 4)
    byte(UInt8(ascii: "}"))
  }

  /// A source as `sources` lists it: its model, domain, run and `cell`.
  package mutating func source(_ source: Provenance) {
    byte(UInt8(ascii: "{"))
    literalKey("model", first: true)
    string(source.model)
    literalKey("domain")
    string(source.domain)
    literalKey("run")
    string(source.run)
    literalKey("cell")
    cell(source)
    byte(UInt8(ascii: "}"))
  }
}
