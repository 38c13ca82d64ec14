import Dispatch
import ServiceLifecycle
import Store

/// Brings newly published runs into the store's catalog, and lets pruned ones go, off the
/// request path: requests only load the catalog this service last swapped in.
///
/// Every `ForecastStore.checkInterval` (0.1 s when the store is watched by inotify, where
/// asking is one system call; 2 s where it compares directory stamps) it calls
/// `ForecastStore.refresh()`, which rescans only when the store changed, and then opens and
/// verifies each new cube once. A published run is therefore served within one interval of
/// its rename, plus the time to verify it and build its locator. The refresh runs on a
/// dispatch queue, so that verifying a large cube never holds a thread of Swift's
/// cooperative pool, which the requests share. It ends with the service group's graceful
/// shutdown or cancellation.
final class StoreRefreshService: Service {
  private let store: ForecastStore
  private let interval: Duration

  init(store: ForecastStore, interval: Duration? = nil) {
    self.store = store
    self.interval = interval ?? store.checkInterval
  }

  func run() async throws {
    let (store, interval) = (store, interval)
    // Task.sleep throws when the task is cancelled, which ends the loop.
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        await Self.refresh(store)
        try await Task.sleep(for: interval)
      }
    }
  }

  /// One `refresh()`, on a dispatch queue, then the per-cell tables of the locators the
  /// new cubes were opened with (`Cube.prepareLocators()`: an atomic load per cube once
  /// made), so that requests never pay for them and start-up does not wait for them.
  static func refresh(_ store: ForecastStore) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global(qos: .utility).async {
        for cube in store.refresh().cubes { cube.prepareLocators() }
        done.resume()
      }
    }
  }
}
