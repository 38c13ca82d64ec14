import Synchronization

/// A reference stored at most once and read without a lock, for the analytic locator's
/// per-cell tables. `AtomicLazyReference` does the same, but its `load()` is not inlinable
/// and is generic: each lookup paid a call that looked up its generic metadata, about a
/// quarter of a bilinear lookup's added cost as measured with `perf`. This one is
/// specialised for one class and inlines to an acquiring load of a word.
@usableFromInline
final class LazyCellTables: Sendable {
  /// The retained tables' address, 0 until stored.
  @usableFromInline let address = Atomic<UInt>(0)

  init() {}

  deinit {
    let stored = address.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: stored) {
      Unmanaged<AnalyticLocator.CellTables>.fromOpaque(pointer).release()
    }
  }

  /// The tables, nil until stored.
  @inlinable @inline(__always)
  func load() -> AnalyticLocator.CellTables? {
    guard let pointer = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)) else { return nil }
    return Unmanaged<AnalyticLocator.CellTables>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Stores `tables` unless tables were stored before, which then stay.
  func storeIfNil(_ tables: AnalyticLocator.CellTables) {
    let retained = Unmanaged.passRetained(tables)
    let (stored, _) = address.compareExchange(
      expected: 0, desired: UInt(bitPattern: retained.toOpaque()), ordering: .acquiringAndReleasing)
    if !stored { retained.release() }
  }
}
