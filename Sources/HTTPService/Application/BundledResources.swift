import Foundation

/// Where the files bundled with the service (the OpenAPI document, the web page) are: the
/// resource bundle SwiftPM builds beside the executable.
///
/// Looked up by hand rather than through `Bundle.module`, whose accessor stops the process
/// when the bundle is missing (a binary copied elsewhere without it): the service then runs
/// without them instead, and says so on their routes.
enum BundledResources {
  static var directory: URL {
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("nwpcube_HTTPService.resources")
  }
}
