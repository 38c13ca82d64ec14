import JSONOutput

/// The JSON writer of the answers written per request, `JSONOutput.JSONWriter`, under the
/// name the faces' documents use.
package typealias JSONBytes = JSONWriter
