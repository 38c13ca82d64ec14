import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An XML document parsed by Foundation's `XMLParser` (libxml2) into elements, for the
/// CAP and meteogram tests: a document the parser refuses is nil.
final class XMLTree {
  final class Element {
    let name: String
    let namespace: String?
    let attributes: [String: String]
    var children: [Element] = []
    var text = ""

    init(name: String, namespace: String?, attributes: [String: String] = [:]) {
      self.name = name
      self.namespace = namespace
      self.attributes = attributes
    }

    /// This element and every element under it, in document order.
    var descendants: [Element] { [self] + children.flatMap(\.descendants) }

    /// The children called `name`.
    func all(_ name: String) -> [Element] { children.filter { $0.name == name } }

    /// The text of the first child called `name`.
    func text(_ name: String) -> String? { children.first { $0.name == name }?.text }
  }

  let root: Element

  private init(root: Element) {
    self.root = root
  }

  static func parse(_ text: String) -> XMLTree? {
    let parser = XMLParser(data: Data(text.utf8))
    parser.shouldProcessNamespaces = true
    let builder = Builder()
    parser.delegate = builder
    guard parser.parse(), let root = builder.root else { return nil }
    return XMLTree(root: root)
  }

  private final class Builder: NSObject, XMLParserDelegate {
    var root: Element?
    var stack: [Element] = []

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let element = Element(name: elementName, namespace: namespaceURI, attributes: attributes)
      stack.last?.children.append(element)
      if root == nil { root = element }
      stack.append(element)
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
      stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      stack.last?.text += string
    }
  }
}
