import Synchronization

/// Which opened `Cube` made a handle (a `PointLocation` or a `QueryMetric`): a number that no
/// other `Cube` of the process has had or will have, so that a cube can refuse a handle
/// made by another one before its indices reach the mapping.
///
/// A plain integer, so that handles stay trivial values: passing one around on the lookup
/// path costs no reference counting, and checking one is a comparison. Numbers are not
/// reused (64 bits do not run out), so a handle outliving its cube never matches a cube
/// opened later at the same address. The names of the cubes open now are kept aside, for
/// the error that tells a caller which cube a stray handle came from.
@usableFromInline
struct CubeIdentity: Sendable, Equatable {
  @usableFromInline let value: UInt64

  private static let counter = Atomic<UInt64>(0)
  /// `Cube.label` of every cube open now, by identity. Only registering, closing and the
  /// error path take the lock; lookups never do.
  private static let labels = Mutex<[UInt64: String]>([:])

  private init(value: UInt64) { self.value = value }

  /// A new identity for a cube being opened, remembered with its label until `close`.
  static func open(label: String) -> CubeIdentity {
    let value = counter.wrappingAdd(1, ordering: .relaxed).newValue
    labels.withLock { $0[value] = label }
    return CubeIdentity(value: value)
  }

  /// Forgets the label of a cube that is going away.
  static func close(_ identity: CubeIdentity) {
    _ = labels.withLock { $0.removeValue(forKey: identity.value) }
  }

  /// The label of the cube with this identity, nil once it is closed.
  var label: String? { Self.labels.withLock { $0[value] } }
}
