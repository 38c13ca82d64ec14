import Dispatch
import Synchronization

/// Packs sealed bands into a version 3 cube's output, one after the other, on whichever
/// thread asks: the writer's own or a background one, while the next band is filled.
///
/// The output and the record of the sub-sections written are reached only under its lock,
/// so a pack running in the background and the writer finishing the file cannot interleave.
final class BandPacker: Sendable {
  /// What packing writes: the output, and every sub-section so far, band-major.
  struct Packed {
    var output: CubeOutput
    var subsectionOffsets: [Int] = []
    var subsectionBytes: [Int] = []
  }

  private let steps: Int
  private let metrics: Int
  fileprivate let state: Mutex<Packed>

  init(output: CubeOutput, steps: Int, metrics: Int) {
    self.steps = steps
    self.metrics = metrics
    state = Mutex(Packed(output: output))
  }

  /// Lends the output and the record of the sub-sections to `body`, alone.
  func withPacked<R>(_ body: (inout Packed) -> R) -> R {
    state.withLock { body(&$0) }
  }

  /// Starts packing the sealed `words`, metric by metric, exactly as a version 2 section
  /// over the band's cells, for threads to join (`Job.work()`); nil, with nothing written,
  /// when `words` is not sealed. `finished` runs once the last metric is appended, on the
  /// thread that appended it.
  func job(_ words: BandWords, finished: @escaping @Sendable () -> Void = {}) -> Job? {
    Job(packer: self, words: words, finished: finished)
  }

  /// One band's pack, which any number of threads may join (`work()`): each takes the next
  /// metric no thread has taken, packs it into a buffer of its own and appends it once
  /// every metric before it is appended, so the sub-sections go out in metric order.
  ///
  /// A band is packed on a background thread while the next band's steps are derived; a
  /// thread that finds it unfinished when it needs the words back joins it rather than
  /// waiting idle beside it (a global ingest's deriving threads waited a sixth of the run
  /// so, one core idle), and the last band, with nothing to derive beside it, is packed by
  /// two threads from the start.
  final class Job: @unchecked Sendable {
    private let packer: BandPacker
    /// The band's words, sealed, and their rows (`[metric][step][cell]`), which stay valid
    /// while the words are held here and sealed: they are reset only once the job is done.
    private let words: BandWords
    private let rows: UnsafeBufferPointer<UInt16>
    private let cells: Int
    private let next = Atomic<Int>(0)
    /// `turns[m]` is signalled once metric m may be appended: every metric before it is.
    private let turns: [DispatchSemaphore]
    private let finished: @Sendable () -> Void

    fileprivate init?(packer: BandPacker, words: BandWords, finished: @escaping @Sendable () -> Void) {
      guard let rows = words.withSealedWords({ $0 }) else { return nil }
      (self.packer, self.words, self.rows, self.cells) = (packer, words, rows, words.cells)
      self.finished = finished
      turns = (0...packer.metrics).map { _ in DispatchSemaphore(value: 0) }
      turns[0].signal()
      // No metric: nothing to append, and done already.
      if packer.metrics == 0 { finished() }
    }

    /// Packs and appends metrics until none is left to take.
    func work() {
      let (steps, metrics) = (packer.steps, packer.metrics)
      var metric = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard metric < metrics else { return }
      var tile = [UInt16](repeating: 0, count: BandWriter.tileCells(steps: steps) * steps)
      var table = [UInt64](repeating: 0, count: cells)
      var section = SectionBytes()
      while metric < metrics {
        section.removeAll()
        BandPacker.pack(
          metric: metric, of: rows, cells: cells, steps: steps, tile: &tile, table: &table, into: &section)
        turns[metric].wait()
        packer.state.withLock { packed in
          packed.output.pad(to: CubeLayout.aligned(packed.output.offset))
          let start = packed.output.offset
          section.bytes.withUnsafeBytes { packed.output.append($0) }
          packed.subsectionOffsets.append(start)
          packed.subsectionBytes.append(packed.output.offset - start)
        }
        if metric == metrics - 1 { finished() }
        turns[metric + 1].signal()
        metric = next.wrappingAdd(1, ordering: .relaxed).oldValue
      }
    }

    /// Waits until every metric is appended (and `finished` has run).
    func wait() {
      let last = turns[packer.metrics]
      last.wait()
      last.signal()
    }
  }

  /// Packs metric `metric` of the band's `words` (`[metric][step][cell]`) into `sink`: its
  /// table of entries, its payloads and the section's padding, with the offsets counted
  /// from the sub-section's start.
  private static func pack<Sink: PackSink>(
    metric: Int, of words: UnsafeBufferPointer<UInt16>, cells: Int, steps: Int, tile: inout [UInt16],
    table: inout [UInt64], into sink: inout Sink
  ) {
    let tileCells = BandWriter.tileCells(steps: steps)
    let rows = UnsafeBufferPointer(rebasing: words[metric * steps * cells..<(metric + 1) * steps * cells])
    // The frames first: they give each payload's offset in the table, which comes first.
    var next = cells * CubeLayout.cellEntryBytes
    for first in stride(from: 0, to: cells, by: tileCells) {
      let count = min(tileCells, cells - first)
      table.withUnsafeMutableBufferPointer { table in
        Self.frame(rows, cells: cells, steps: steps, first: first, count: count) { cell, frame in
          table[first + cell] = UInt64(next) | UInt64(frame.reference) << 32 | UInt64(frame.width) << 48
          next += SeriesFrame.payloadBytes(steps: steps, width: frame.width)
        }
      }
    }
    sink.append(littleEndian: table)
    for first in stride(from: 0, to: cells, by: tileCells) {
      let count = min(tileCells, cells - first)
      tile.withUnsafeMutableBufferPointer { tile in
        Self.gather(rows, cells: cells, steps: steps, first: first, count: count, into: tile)
        Self.append(tile, table[first..<first + count], steps: steps, to: &sink)
      }
    }
    sink.withSpace(CubeLayout.sectionPadding) { _ in }
  }

  /// Hands `body` the frame of each of cells `first ..< first + count` of a metric's `rows`
  /// (`[step][cell]`), in cell order. The bounds are taken a row at a time across the
  /// cells, eight words to a vector: contiguous reads and unsigned 16-bit minimums and
  /// maximums (the compiler had left the scalar form of this loop scalar, a select per
  /// word). Per cell: the smallest word (the missing word, the largest, lowers none), the
  /// largest of word + 1 wrapping (missing wraps to 0 and raises none, so it is the largest
  /// known word + 1, or 0 when every word is missing), and the largest word (the missing
  /// word exactly when one is missing).
  private static func frame(
    _ rows: UnsafeBufferPointer<UInt16>, cells: Int, steps: Int, first: Int, count: Int,
    _ body: (Int, SeriesFrame) -> Void
  ) {
    typealias Words = SIMD8<UInt16>
    let lanes = Words.scalarCount
    // The last vector may be short (a band's last tile): its lanes past `count` are read as
    // missing, and their frames are not handed on.
    let whole = count / lanes
    let groups = (count + lanes - 1) / lanes
    guard let words = rows.baseAddress, groups > 0 else { return }
    withUnsafeTemporaryAllocation(of: Words.self, capacity: 3 * groups) { bounds in
      guard let smallest = bounds.baseAddress else { return }
      let largestPlusOne = smallest + groups
      let largest = largestPlusOne + groups
      smallest.initialize(repeating: Words(repeating: .max), count: groups)
      largestPlusOne.initialize(repeating: .zero, count: groups)
      largest.initialize(repeating: .zero, count: groups)
      let raw = UnsafeRawPointer(words)
      for step in 0..<steps {
        let row = step &* cells &+ first
        for group in 0..<groups {
          var word = Words(repeating: CubeMetric.missing)
          if group < whole {
            word = raw.loadUnaligned(fromByteOffset: (row &+ group &* lanes) &* 2, as: Words.self)
          } else {
            for lane in 0..<count - group * lanes { word[lane] = words[row &+ group &* lanes &+ lane] }
          }
          smallest[group] = pointwiseMin(smallest[group], word)
          largestPlusOne[group] = pointwiseMax(largestPlusOne[group], word &+ 1)
          largest[group] = pointwiseMax(largest[group], word)
        }
      }
      for cell in 0..<count {
        let (group, lane) = cell.quotientAndRemainder(dividingBy: lanes)
        let top = largestPlusOne[group][lane]
        body(
          cell,
          SeriesFrame.fitting(
            smallest: smallest[group][lane], largest: top == 0 ? 0 : top - 1,
            missing: largest[group][lane] == CubeMetric.missing))
      }
    }
  }

  /// The series of cells `first ..< first + count` of a metric's `rows` (`[step][cell]`),
  /// gathered one step's row at a time into `tile` (`[cell][step]`).
  private static func gather(
    _ rows: UnsafeBufferPointer<UInt16>, cells: Int, steps: Int, first: Int, count: Int,
    into tile: UnsafeMutableBufferPointer<UInt16>
  ) {
    for step in 0..<steps {
      let row = step * cells + first
      for cell in 0..<count { tile[cell &* steps &+ step] = rows[row + cell] }
    }
  }

  /// Packs the gathered series of `tile`, whose table entries are `entries`, and appends
  /// their payloads: as many cells at once as fit an item of the output (`largestItem`),
  /// so that it is asked for space once for several cells rather than once a cell.
  private static func append<Sink: PackSink>(
    _ tile: UnsafeMutableBufferPointer<UInt16>, _ entries: ArraySlice<UInt64>, steps: Int,
    to output: inout Sink
  ) {
    let largest = BandWriter.largestItem(steps: steps)
    var cell = 0
    while cell < entries.count {
      // Cells `cell ..< end` and their payloads' bytes, at most an item (one cell always fits).
      var end = cell
      var bytes = 0
      while end < entries.count {
        let more = SeriesFrame.payloadBytes(steps: steps, width: Int(entries[entries.startIndex + end] >> 48))
        guard end == cell || bytes + more <= largest else { break }
        bytes += more
        end += 1
      }
      output.withSpace(bytes) { payloads in
        var offset = 0
        for index in cell..<end {
          let entry = entries[entries.startIndex + index]
          let frame = SeriesFrame(reference: UInt16(truncatingIfNeeded: entry >> 32), width: Int(entry >> 48))
          let series = UnsafeBufferPointer(rebasing: tile[index * steps..<(index + 1) * steps])
          if let base = payloads.baseAddress { frame.pack(series, into: base + offset) }
          offset += SeriesFrame.payloadBytes(steps: steps, width: frame.width)
        }
      }
      cell = end
    }
  }
}
