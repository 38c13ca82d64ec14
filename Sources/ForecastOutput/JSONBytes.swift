import JSONOutput

/// The JSON writer of the answers written per request, `JSONOutput.JSONWriter`, under the
/// name this module's documents use.
typealias JSONBytes = JSONWriter
