import Logging
import ServiceLifecycle
import UnixSignals

/// The first step of a graceful shutdown: `/healthz` turns not-ready (503, `draining`) while
/// the server keeps answering for `period`, and only then does the server stop listening.
///
/// A load balancer keeps sending requests to a replica until its health check fails
/// (HAProxy's `inter` × `fall`, a Kubernetes readiness probe's period × failure threshold).
/// A replica that closed its listener at once would refuse those requests; one that drains
/// answers them, and is out of rotation by the time it stops.
///
/// It runs beside the application in one `ServiceGroup`, listed after it: a group shuts its
/// services down in reverse order, each after the one before has returned, so the server's
/// own graceful shutdown (stop accepting, let requests in flight finish) starts when the
/// drain is over. With `endsOnSecondSignal`, a second SIGTERM or SIGINT ends the drain
/// early (an operator need not wait out `--drain`), and the server then stops as
/// gracefully; cancelling the group ends it at once.
struct ShutdownDrain: Service {
  let health: ServiceHealth
  let period: Duration
  let endsOnSecondSignal: Bool
  let logger: Logger

  func run() async throws {
    // Cancellation before any shutdown ends the service with the group, without draining.
    guard (try? await gracefulShutdown()) != nil else { return }
    health.startDraining()
    logger.info("draining: /healthz answers 503 until the server stops", metadata: ["period": "\(period)"])
    guard endsOnSecondSignal, period > .zero else {
      try? await Task.sleep(for: period)
      return
    }
    // The group listens for the first signal only; these are the ones after it.
    let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
    let logger = logger
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await Task.sleep(for: period) }
      group.addTask {
        for await signal in signals {
          logger.info("drain cut short by a second signal", metadata: ["signal": "\(signal)"])
          return
        }
      }
      await group.next()
      group.cancelAll()
    }
  }
}
