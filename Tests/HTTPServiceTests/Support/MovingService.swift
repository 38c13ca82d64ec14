import HTTPService
import _TestSupport

/// A server over `MovingStore` (a fixed d01 and a d02 that moves by whole cells), written
/// once per test process; its clock is at step 9, when the nest is in its fourth position.
enum MovingService {
  static let now = MovingStore.firstTime + 9 * 3_600 + 600

  static let store: String? = {
    let directory = SampleFiles.temporaryDirectory("moving-service")
    return (try? MovingStore.write(into: directory)) != nil ? directory : nil
  }()

  private static let shared = Task { () throws -> LiveServer in
    guard let store else { throw HTTPTestError.serverDidNotStart("the moving store could not be written") }
    return try await LiveServer.start(ServiceSettings(store: store, clock: { now }))
  }

  static func server() async throws -> LiveServer { try await shared.value }
}
