import Dispatch
import Platform
import Synchronization

/// The words of one band held in memory, `[metric][step][cell of the band]`, which several
/// threads fill at once, a step each, before the band is packed.
///
/// A thread writes only through the `StepWords` of a step it claimed: a step is claimed by
/// one holder at a time, and the rows of one step (one per metric) are disjoint from every
/// other step's, so no two threads ever write the same word. Packing reads the words only
/// once the band is sealed, which is refused while any step is claimed, and nothing is
/// claimed once it is sealed: no write can race a read. A band sealed to be packed and
/// then held again for the next band (`seal(reopening:)`) makes a claim wait until it is
/// reset, so that the next band's steps can be derived while the band is packed, in the
/// same words.
///
/// A row (one metric at one step) never stored reads as missing once the band is sealed:
/// the seal fills it then. The words are not filled with missing beforehand, since ingest
/// stores every row of a band: filling them first wrote a band's words (40 MiB for a global
/// band) twice, once on one thread before any step could start.
///
/// `@unchecked Sendable`: it owns its allocation and the lock that hands out its steps,
/// through which alone the words are reached.
package final class BandWords: @unchecked Sendable {
  /// Steps and metrics (their quantization) of the cube.
  let steps: Int
  let metrics: [CubeMetric]
  /// Words the allocation holds: a full band's.
  let capacity: Int
  private let base: UnsafeMutablePointer<UInt16>
  /// Whether each row, `[metric][step]`, was stored since the band was held: written by the
  /// holder of the step's claim alone, read under the lock once no step is claimed.
  private let stored: UnsafeMutablePointer<Bool>

  private struct State {
    /// Cells of the band held.
    var cells: Int
    var claimed: [Bool]
    var outstanding = 0
    var sealed = false
    /// Sealed to be packed, and to be reset for another band: claims wait for the reset.
    var reopening = false
  }
  private let state: Mutex<State>
  /// Entered while the words are sealed to be reset (`reopening`): claims wait on it.
  private let reopened = DispatchGroup()

  /// Words for bands of up to `bandCells` cells, holding a band of `cells` cells, missing
  /// throughout.
  init(bandCells: Int, cells: Int, steps: Int, metrics: [CubeMetric]) {
    self.steps = steps
    self.metrics = metrics
    capacity = bandCells * steps * metrics.count
    base = Self.allocateWords(Swift.max(capacity, 1))
    stored = .allocate(capacity: Swift.max(steps * metrics.count, 1))
    stored.initialize(repeating: false, count: Swift.max(steps * metrics.count, 1))
    state = Mutex(State(cells: cells, claimed: [Bool](repeating: false, count: steps)))
  }

  deinit {
    // A group released while entered is a fault of libdispatch's: balance it.
    if state.withLock({ $0.reopening }) { reopened.leave() }
    UnsafeMutableRawPointer(base).deallocate()
    stored.deallocate()
  }

  /// A huge page's bytes on x86-64 and arm64 Linux.
  static let hugePage = 2 << 20

  /// Room for `count` words, at a huge page's boundary and advised to be backed by huge
  /// pages when it spans one (`Posix.adviseHugePages`): a global band's words are about
  /// 40 MiB, each of whose 4 KiB pages the first step's store would fault in and clear on
  /// its own, which took about a twentieth of a global ingest's CPU time. The words are
  /// written in full before they are read, so the pages' contents never matter.
  private static func allocateWords(_ count: Int) -> UnsafeMutablePointer<UInt16> {
    let bytes = count * MemoryLayout<UInt16>.stride
    guard bytes >= hugePage else { return .allocate(capacity: count) }
    let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: hugePage)
    Posix.adviseHugePages(raw, bytes: bytes / hugePage * hugePage)
    return raw.bindMemory(to: UInt16.self, capacity: count)
  }

  /// Cells of the band held.
  package var cells: Int { state.withLock { $0.cells } }

  /// The words of step `step`, for its holder alone until it is released (the `StepWords`
  /// ends); nil when the step is out of range, claimed already, or the band is sealed for
  /// good. While the band is sealed to be packed and reset for the next
  /// (`seal(reopening: true)`), the claim waits for the reset and is one of the next band's.
  package func claim(step: Int) -> StepWords? {
    enum Outcome {
      case claimed(cells: Int)
      case refused
      case wait
    }
    while true {
      let outcome = state.withLock { state -> Outcome in
        guard (0..<steps).contains(step) else { return .refused }
        if state.sealed { return state.reopening ? .wait : .refused }
        guard !state.claimed[step] else { return .refused }
        state.claimed[step] = true
        state.outstanding += 1
        return .claimed(cells: state.cells)
      }
      switch outcome {
      case .claimed(let cells):
        return StepWords(owner: self, step: step, cells: cells, steps: steps, base: base, stored: stored)
      case .refused: return nil
      case .wait: reopened.wait()
      }
    }
  }

  /// Ends a claim.
  fileprivate func release(step: Int) {
    state.withLock { state in
      state.claimed[step] = false
      state.outstanding -= 1
    }
  }

  /// Ends the filling: true, and nothing can be claimed until a `reset(cells:)` (claims
  /// wait for it when `reopening`, and are refused otherwise), unless a step is still
  /// claimed or the band is sealed already (false, and nothing changes).
  func seal(reopening: Bool = false) -> Bool {
    state.withLock { state in
      guard state.outstanding == 0, !state.sealed else { return false }
      // Rows never stored are missing.
      for row in 0..<steps * metrics.count where !stored[row] {
        (base + row * state.cells).update(repeating: CubeMetric.missing, count: state.cells)
      }
      state.sealed = true
      state.reopening = reopening
      if reopening { reopened.enter() }
      return true
    }
  }

  /// Lends the words of a sealed band (`cells × steps × metrics`) to `body`; nil when the
  /// band is not sealed.
  func withSealedWords<R>(_ body: (UnsafeBufferPointer<UInt16>) -> R) -> R? {
    let cells = state.withLock { $0.sealed ? $0.cells : nil }
    guard let cells else { return nil }
    return body(UnsafeBufferPointer(start: base, count: cells * steps * metrics.count))
  }

  /// Holds a new band of `cells` cells (at most the capacity's), missing throughout, open
  /// for claims; refused (false) while a step is claimed.
  func reset(cells: Int) -> Bool {
    state.withLock { state in
      guard state.outstanding == 0, cells * steps * metrics.count <= capacity else { return false }
      stored.update(repeating: false, count: steps * metrics.count)
      if state.reopening { reopened.leave() }
      state = State(cells: cells, claimed: [Bool](repeating: false, count: steps))
      return true
    }
  }
}

/// The words of one step of a band, held by one thread at a time (`BandWords.claim`):
/// the row of each metric at that step. Not copyable, so that the claim ends once, when
/// its holder is done with it.
package struct StepWords: ~Copyable {
  private let owner: BandWords
  /// The step, and the band's cells (the values of a row).
  package let step: Int
  package let cells: Int
  private let steps: Int
  private let base: UnsafeMutablePointer<UInt16>
  private let stored: UnsafeMutablePointer<Bool>

  fileprivate init(
    owner: BandWords, step: Int, cells: Int, steps: Int, base: UnsafeMutablePointer<UInt16>,
    stored: UnsafeMutablePointer<Bool>
  ) {
    self.owner = owner
    self.step = step
    self.cells = cells
    self.steps = steps
    self.base = base
    self.stored = stored
  }

  deinit { owner.release(step: step) }

  /// Quantizes `values` (one per cell of the band, NaN for missing) into the row of metric
  /// `metric`; returns the index among `values` of the first the metric cannot represent,
  /// stored as missing, nil when all fit. Refused (returns 0, stores nothing) for a metric
  /// out of range or a count other than the band's cells.
  package func store(metric: Int, values: UnsafeBufferPointer<Double>) -> Int? {
    store(metric: metric, values: values, checking: -Double.infinity...Double.infinity).unrepresentable
  }

  /// Stores `values` as `store(metric:values:)` does, and tells from the same pass whether
  /// every value is NaN or a finite number within `plausible`
  /// (`CubeMetric.quantize(_:into:checking:)`); when one is not, the caller guards the
  /// values and stores them again. A refused call stores nothing and reports 0 and false.
  package func store(
    metric: Int, values: UnsafeBufferPointer<Double>, checking plausible: ClosedRange<Double>
  ) -> (unrepresentable: Int?, plausible: Bool) {
    guard owner.metrics.indices.contains(metric), values.count == cells else { return (0, false) }
    let row = metric * steps + step
    stored[row] = true
    return owner.metrics[metric].quantize(values, into: base + row * cells, checking: plausible)
  }
}
