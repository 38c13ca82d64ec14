/// Puts the lower half of several days' values in order side by side, for their medians.
///
/// A day's median needs its values partly sorted. Sorting one day at a time branches on
/// every comparison, and hourly weather is too irregular for the branches to be
/// predicted: that was most of a 7-day summary's cost (`nwpcube bench --kinds daily7`).
/// Here the days are the lanes of SIMD rows (row h holds hour h of each day) and go
/// through one sorting network, whose comparisons are fixed in advance: each is a vector
/// minimum and maximum, with no branch at all, for a row's days at once.
enum MedianNetwork {
  /// The most rows the network takes; more are sorted lane by lane instead. A local day
  /// has at most 25 hours.
  static let limit = 32

  /// For each row count `n` in 0…`limit`, the comparators (pairs of row indices, low then
  /// high, flattened) that leave the smallest ⌊n/2⌋ + 1 of `n` values in order at the
  /// start: all a median of up to `n` known values reads.
  static let comparators: [[UInt8]] = {
    let full = oddEvenMergeSort(wires: limit)
    return (0...limit).map { count in
      // Rows past `count` would hold +∞ and stay put, so comparators touching them are
      // no-ops; of the rest, only those that feed a kept output are needed, which a walk
      // backwards from the outputs finds.
      var feeds = Set(0...(count / 2))
      var kept: [(Int, Int)] = []
      for (low, high) in full.reversed() where high < count && (feeds.contains(low) || feeds.contains(high)) {
        feeds.formUnion([low, high])
        kept.append((low, high))
      }
      return kept.reversed().flatMap { [UInt8($0.0), UInt8($0.1)] }
    }
  }()

  /// Batcher's odd–even merge sort for `wires` (a power of two) inputs, as comparators
  /// (low, high) that put the smaller value on `low`.
  static func oddEvenMergeSort(wires: Int) -> [(Int, Int)] {
    var comparators: [(Int, Int)] = []
    var block = 1
    while block < wires {
      var distance = block
      while distance >= 1 {
        for start in stride(from: distance % block, to: wires - distance, by: 2 * distance) {
          for offset in 0..<min(distance, wires - start - distance) {
            let (low, high) = (start + offset, start + offset + distance)
            // Only pairs within one merged block of size 2·block.
            if low / (2 * block) == high / (2 * block) { comparators.append((low, high)) }
          }
        }
        distance /= 2
      }
      block *= 2
    }
    return comparators
  }

  /// Orders each lane's smallest ⌊n/2⌋ + 1 values at the top of `rows` (n = `rows.count`).
  /// A missing value must be the largest (+∞ for doubles); rows must hold no NaN.
  static func sortLowerHalf<Row: NetworkRow>(_ rows: UnsafeMutableBufferPointer<Row>) {
    guard rows.count <= limit else {
      for lane in 0..<Row.scalarCount {
        let sorted = rows.map { $0[lane] }.sorted()
        for (index, value) in sorted.enumerated() { rows[index][lane] = value }
      }
      return
    }
    comparators[rows.count].withUnsafeBufferPointer { network in
      var index = 0
      while index < network.count {
        let (low, high) = (Int(network[index]), Int(network[index + 1]))
        (rows[low], rows[high]) = Row.ordered(rows[low], rows[high])
        index += 2
      }
    }
  }
}

/// A row of values the network orders lane by lane.
///
/// Each row type gives its own comparator: in generic code `.<` resolves to the generic
/// SIMD comparison, which goes lane by lane even once specialized; written for the
/// concrete type it is one vector instruction.
protocol NetworkRow: SIMD where Scalar: Comparable {
  /// The lane-wise minimum and maximum of `a` and `b`.
  static func ordered(_ a: Self, _ b: Self) -> (Self, Self)
}

extension SIMD4: NetworkRow where Scalar == Double {
  @inline(__always)
  static func ordered(_ a: Self, _ b: Self) -> (Self, Self) {
    let swapped = b .< a
    return (a.replacing(with: b, where: swapped), b.replacing(with: a, where: swapped))
  }
}

extension SIMD8: NetworkRow where Scalar == Int16 {
  @inline(__always)
  static func ordered(_ a: Self, _ b: Self) -> (Self, Self) {
    let swapped = b .< a
    return (a.replacing(with: b, where: swapped), b.replacing(with: a, where: swapped))
  }
}
