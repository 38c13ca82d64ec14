/// Writes an `Encodable` value as JSON with its object keys in the order its `encode(to:)`
/// encodes them, as the documents of the APIs nwpcube speaks list them.
///
/// Foundation's `JSONEncoder` on Linux writes an object's keys in the order of a hash table
/// (different from one process to the next) unless told to sort them, and sorting is not the
/// order the APIs' documents and clients' examples show; it also writes a rounded `21.37` as
/// `21.370000000000001` where it cannot tell. Here:
///
/// - keys come in the order encoded (`CodingKeys`' order for a synthesized conformance, and
///   an optional that is nil is left out);
/// - a `JSONDecimal` is written rounded to its places, as `JSONWriter.number` writes it;
/// - a `Double` is written as Swift describes it (`45.0`, `38.72`): the shortest text that
///   reads back as the same number; NaN and the infinities are an `EncodingError`;
/// - strings are escaped as `JSONWriter.string` escapes them: `"`, `\`, and control
///   characters, never `/`.
///
/// The cold answers (errors, `/healthz`, `/v1/runs`, `/v1/domains`, `/v1/search`) are
/// `Encodable` documents written by this encoder; the hot ones (forecasts) write straight
/// into a `JSONWriter`, which is several times faster than building a tree first.
public struct OrderedJSONEncoder: Sendable {
  /// An encoder; it has no options.
  public init() {}

  /// `value` as JSON bytes, no spaces or line breaks.
  ///
  /// - Throws: `EncodingError.invalidValue` for a `Double` that is NaN or infinite.
  public func encode(_ value: some Encodable) throws -> [UInt8] {
    let root = JSONNode()
    try TreeEncoder.store(value, in: root, codingPath: [])
    var writer = JSONWriter(capacity: 256)
    root.write(to: &writer)
    return writer.bytes
  }

  /// `value` as JSON text.
  ///
  /// - Throws: `EncodingError.invalidValue` for a `Double` that is NaN or infinite.
  public func text(_ value: some Encodable) throws -> String {
    String(decoding: try encode(value), as: UTF8.self)
  }
}
