/// How a scan notices that the store changed after it.
enum ChangeDetection: Sendable, CaseIterable {
  /// The scan watches the store's directories (`StoreWatch`); a scan that cannot falls back
  /// to `stamps`.
  case notification
  /// The scan keeps each directory's `stat`, and every check compares them again.
  case stamps
}
