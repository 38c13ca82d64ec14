/// One value of a document being encoded by `OrderedJSONEncoder`: the tree `Encodable`
/// types fill through the `Encoder` protocol's containers, which hand out references to it,
/// then written in one pass. A class, because a container must be able to fill a value its
/// encoder already placed in its parent.
final class JSONNode {
  enum Kind {
    /// Nothing encoded (written as `{}`, as Foundation's encoder writes a value that
    /// encodes nothing).
    case empty
    /// A number, `true`, `false` or `null`: `text` is its JSON text.
    case literal
    /// A string: `text` is its value, escaped when written.
    case string
    case object
    case array
  }

  var kind = Kind.empty
  var text = ""
  /// An object's members in the order they were encoded.
  var members: [(key: String, node: JSONNode)] = []
  var elements: [JSONNode] = []

  /// The member `key` of this node, made an object if it is not one: a new node, or the one
  /// already there (encoding a key twice keeps the last value, as Foundation's does).
  func member(_ key: String) -> JSONNode {
    becomeObject()
    if let existing = members.first(where: { $0.key == key }) {
      existing.node.clear()
      return existing.node
    }
    let node = JSONNode()
    members.append((key, node))
    return node
  }

  /// A new last element of this node, made an array if it is not one.
  func appendElement() -> JSONNode {
    becomeArray()
    let node = JSONNode()
    elements.append(node)
    return node
  }

  func becomeObject() {
    guard kind != .object else { return }
    clear()
    kind = .object
  }

  func becomeArray() {
    guard kind != .array else { return }
    clear()
    kind = .array
  }

  func setLiteral(_ text: String) {
    clear()
    kind = .literal
    self.text = text
  }

  func setString(_ text: String) {
    clear()
    kind = .string
    self.text = text
  }

  private func clear() {
    kind = .empty
    text = ""
    members = []
    elements = []
  }

  /// The node as JSON text, members in their order, no spaces.
  func write(to writer: inout JSONWriter) {
    switch kind {
    case .empty: writer.raw("{}")
    case .literal: writer.raw(text)
    case .string: writer.string(text)
    case .object:
      writer.byte(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        writer.key(member.key, first: index == 0)
        member.node.write(to: &writer)
      }
      writer.byte(UInt8(ascii: "}"))
    case .array:
      writer.byte(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { writer.byte(UInt8(ascii: ",")) }
        element.write(to: &writer)
      }
      writer.byte(UInt8(ascii: "]"))
    }
  }
}
