/// The `Encoder` behind `OrderedJSONEncoder`: fills a `JSONNode` tree as an `Encodable`
/// value encodes itself, keeping its keys in the order it encodes them.
struct TreeEncoder: Encoder {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.becomeObject()
    return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.becomeArray()
    return UnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(node: node, codingPath: codingPath)
  }

  /// `value` into `node`: the values JSON has a form for are written here (a `JSONDecimal`
  /// as its rounded text, a `Double` as Swift describes it, `45.0`); any other value
  /// encodes itself into the node. `codingPath` is made only for an error or a value that
  /// encodes itself: most values are strings and numbers, and a path is an array each.
  static func store<Value: Encodable>(
    _ value: Value, in node: JSONNode, codingPath: @autoclosure () -> [any CodingKey]
  ) throws {
    // Told apart by their types rather than by casts: this is called unspecialised (through
    // `Encodable`), where each `as?` asks the runtime, and the types' equality makes the
    // bit casts exact.
    if Value.self == String.self {
      node.setString(unsafeBitCast(value, to: String.self))
    } else if Value.self == JSONDecimal.self {
      let decimal = unsafeBitCast(value, to: JSONDecimal.self)
      node.setLiteral(DecimalFormat.json(decimal.value, places: decimal.places))
    } else if Value.self == Bool.self {
      node.setLiteral(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
    } else if Value.self == Double.self {
      node.setLiteral(try finite(unsafeBitCast(value, to: Double.self), codingPath()))
    } else if Value.self == Float.self {
      node.setLiteral(try finite(Double(unsafeBitCast(value, to: Float.self)), codingPath()))
    } else if let text = integerText(value) {
      node.setLiteral(text)
    } else {
      try value.encode(to: TreeEncoder(node: node, codingPath: codingPath()))
    }
  }

  /// The decimal text of a value of one of the standard integer types, nil for any other.
  private static func integerText<Value>(_ value: Value) -> String? {
    if Value.self == Int.self { return String(unsafeBitCast(value, to: Int.self)) }
    if Value.self == Int64.self { return String(unsafeBitCast(value, to: Int64.self)) }
    if Value.self == Int32.self { return String(unsafeBitCast(value, to: Int32.self)) }
    if Value.self == Int16.self { return String(unsafeBitCast(value, to: Int16.self)) }
    if Value.self == Int8.self { return String(unsafeBitCast(value, to: Int8.self)) }
    if Value.self == UInt.self { return String(unsafeBitCast(value, to: UInt.self)) }
    if Value.self == UInt64.self { return String(unsafeBitCast(value, to: UInt64.self)) }
    if Value.self == UInt32.self { return String(unsafeBitCast(value, to: UInt32.self)) }
    if Value.self == UInt16.self { return String(unsafeBitCast(value, to: UInt16.self)) }
    if Value.self == UInt8.self { return String(unsafeBitCast(value, to: UInt8.self)) }
    return nil
  }

  /// A finite number's text; JSON has none for NaN and the infinities.
  private static func finite(_ number: Double, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
    guard number.isFinite else {
      throw EncodingError.invalidValue(
        number, EncodingError.Context(codingPath: codingPath(), debugDescription: "\(number) is not a JSON number"))
    }
    return "\(number)"
  }
}

/// An object's members, in the order they are encoded.
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).setLiteral("null") }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    try TreeEncoder.store(value, in: node.member(key.stringValue), codingPath: codingPath + [key])
  }

  /// The primitives' overloads, which the protocol requires one by one.
  private mutating func put<Value: Encodable>(_ value: Value, _ key: Key) throws {
    try TreeEncoder.store(value, in: node.member(key.stringValue), codingPath: codingPath + [key])
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(node: node.member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

/// An array's elements, in order.
private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var count: Int { node.elements.count }

  /// The coding key of the next element, for errors' coding paths.
  private var nextKey: IndexKey { IndexKey(intValue: count) }

  mutating func encodeNil() throws { node.appendElement().setLiteral("null") }

  mutating func encode<Value: Encodable>(_ value: Value) throws { try append(value) }

  private mutating func append<Value: Encodable>(_ value: Value) throws {
    // The key before the element is appended, which counts it.
    let index = count
    try TreeEncoder.store(value, in: node.appendElement(), codingPath: codingPath + [IndexKey(intValue: index)])
  }

  mutating func encode(_ value: Bool) throws { try append(value) }
  mutating func encode(_ value: String) throws { try append(value) }
  mutating func encode(_ value: Double) throws { try append(value) }
  mutating func encode(_ value: Float) throws { try append(value) }
  mutating func encode(_ value: Int) throws { try append(value) }
  mutating func encode(_ value: Int8) throws { try append(value) }
  mutating func encode(_ value: Int16) throws { try append(value) }
  mutating func encode(_ value: Int32) throws { try append(value) }
  mutating func encode(_ value: Int64) throws { try append(value) }
  mutating func encode(_ value: UInt) throws { try append(value) }
  mutating func encode(_ value: UInt8) throws { try append(value) }
  mutating func encode(_ value: UInt16) throws { try append(value) }
  mutating func encode(_ value: UInt32) throws { try append(value) }
  mutating func encode(_ value: UInt64) throws { try append(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<
    NestedKey
  > {
    let path = codingPath + [nextKey]
    return TreeEncoder(node: node.appendElement(), codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = codingPath + [nextKey]
    return TreeEncoder(node: node.appendElement(), codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = codingPath + [nextKey]
    return TreeEncoder(node: node.appendElement(), codingPath: path)
  }
}

/// One value.
private struct SingleContainer: SingleValueEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.setLiteral("null") }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    try TreeEncoder.store(value, in: node, codingPath: codingPath)
  }

  mutating func encode(_ value: Bool) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: String) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Double) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Float) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Int) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Int8) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Int16) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Int32) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: Int64) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: UInt) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: UInt8) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: UInt16) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: UInt32) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
  mutating func encode(_ value: UInt64) throws { try TreeEncoder.store(value, in: node, codingPath: codingPath) }
}

/// An array element's place in a coding path.
private struct IndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(intValue: Int) { self.intValue = intValue }

  init?(stringValue: String) { nil }
}
