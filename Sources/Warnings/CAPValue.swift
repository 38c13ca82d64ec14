/// One of the closed code lists of CAP 1.2's `info` block, whose raw values are CAP's own
/// spellings (written as they are into the CAP document).
public protocol CAPValue: CaseIterable, Sendable, Hashable, RawRepresentable where RawValue == String {
  /// The alerts-file field that sets it, for messages.
  static var field: String { get }
}

extension CAPValue {
  /// The value called `text`, ignoring case (`severe` is `Severe`); nil for any other text.
  init?(parsing text: Substring) {
    let lowered = text.lowercased()
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
    self = match
  }

  /// The allowed values as a message lists them: `Extreme, Severe, Moderate, Minor or Unknown`.
  static var allowed: String {
    let names = allCases.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }
}
