/// Matching a request's path against the routed paths, some of which have parameters
/// (`/v1/tiles/{metric}/{time}/{z}/{x}/{y}.png`), as the router matches them.
enum RoutePattern {
  /// Whether `path` is one `template` answers: segment by segment equal, or a
  /// `{parameter}` (with any text after it, as in `{y}.png`) matching a segment that ends as
  /// the template's does and has something before that end.
  static func matches(_ path: String, template: String) -> Bool {
    let (parts, pattern) = (path.split(separator: "/"), template.split(separator: "/"))
    return parts.count == pattern.count
      && zip(parts, pattern).allSatisfy { part, expected in
        guard expected.first == "{", let close = expected.firstIndex(of: "}") else { return part == expected }
        let suffix = expected[expected.index(after: close)...]
        return part.count > suffix.count && part.hasSuffix(suffix)
      }
  }

  /// The routed path (as `routed` writes it) that answers `path`, nil when none does.
  static func route(of path: String, routed: Set<String>, templates: [String]) -> String? {
    if routed.contains(path) { return path }
    return templates.first { matches(path, template: $0) }
  }
}
