/// Every folded name of every place, sorted, so that the names starting with a prefix are
/// one contiguous range found by two binary searches.
///
/// Places are known by their rank (0 is the most populous), so the best places of a range
/// are its smallest ranks: one pass over the range keeps the `count` smallest distinct
/// ones, and a place known by several matching names counts once. The keys live in one
/// byte array with offsets rather than as an array of arrays, which keeps the binary search
/// within a few cache lines and the index at about the size of the names.
struct NameIndex: Sendable {
  /// The folded keys, concatenated in sorted order.
  private let bytes: [UInt8]
  /// Where key `i` starts in `bytes`; `starts[i + 1]` is where it ends.
  private let starts: [Int]
  /// The rank of the place key `i` names.
  private let ranks: [Int]

  /// The index of `names[rank]`, the names each place is known by, places in rank order.
  init(names: [[String]]) {
    // The keys in the order they come, then sorted by index: comparing the first eight
    // bytes as one integer settles most comparisons without touching the bytes again,
    // which makes the sort some ten times faster than sorting arrays of bytes.
    var keyBytes: [UInt8] = []
    var keyStarts: [Int] = [0]
    var keyRanks: [Int] = []
    var heads: [UInt64] = []
    for (rank, placeNames) in names.enumerated() {
      // One key per distinct folded name: `Lisboa` and `LISBOA` are one entry.
      var seen = Set<[UInt8]>()
      for name in placeNames {
        let key = NameFolding.fold(name)
        guard !key.isEmpty, seen.insert(key).inserted else { continue }
        keyBytes.append(contentsOf: key)
        keyStarts.append(keyBytes.count)
        keyRanks.append(rank)
        heads.append(key.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (56 - 8 * $1.offset) })
      }
    }
    var order = Array(keyRanks.indices)
    keyBytes.withUnsafeBufferPointer { bytes in
      keyStarts.withUnsafeBufferPointer { starts in
        heads.withUnsafeBufferPointer { heads in
          order.sort { left, right in
            if heads[left] != heads[right] { return heads[left] < heads[right] }
            let leftLength = starts[left + 1] - starts[left]
            let rightLength = starts[right + 1] - starts[right]
            for offset in 8..<max(8, min(leftLength, rightLength)) {
              let l = bytes[starts[left] + offset]
              let r = bytes[starts[right] + offset]
              if l != r { return l < r }
            }
            return leftLength != rightLength ? leftLength < rightLength : keyRanks[left] < keyRanks[right]
          }
        }
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keyBytes.count)
    var starts: [Int] = [0]
    starts.reserveCapacity(order.count + 1)
    for index in order {
      bytes.append(contentsOf: keyBytes[keyStarts[index]..<keyStarts[index + 1]])
      starts.append(bytes.count)
    }
    self.bytes = bytes
    self.starts = starts
    self.ranks = order.map { keyRanks[$0] }
  }

  /// How many keys there are.
  var keyCount: Int { ranks.count }

  /// The ranks of the at most `count` best places with a name starting with `prefix` (folded),
  /// best first.
  func best(withPrefix prefix: [UInt8], count: Int) -> [Int] {
    guard count > 0, !prefix.isEmpty else { return [] }
    func firstKey(where isPast: (Int) -> Bool) -> Int {
      var low = 0
      var high = ranks.count
      while low < high {
        let middle = low + (high - low) / 2
        if isPast(compare(key: middle, toPrefix: prefix)) { high = middle } else { low = middle + 1 }
      }
      return low
    }
    let lower = firstKey { $0 >= 0 }
    let upper = firstKey { $0 > 0 }
    // Sorted, distinct, at most `count`: the best so far. Most keys of a long range are
    // worse than the worst kept, so the common case is one comparison.
    var kept: [Int] = []
    kept.reserveCapacity(count + 1)
    ranks.withUnsafeBufferPointer { ranks in
      for index in lower..<upper {
        let rank = ranks[index]
        if kept.count == count, let worst = kept.last, rank >= worst { continue }
        var low = 0
        var high = kept.count
        while low < high {
          let middle = (low + high) / 2
          if kept[middle] < rank { low = middle + 1 } else { high = middle }
        }
        if low < kept.count, kept[low] == rank { continue }
        kept.insert(rank, at: low)
        if kept.count > count { kept.removeLast() }
      }
    }
    return kept
  }

  /// The ranks of every place with a name whose key is exactly `key` (folded), best first,
  /// each once.
  func ranks(named key: [UInt8]) -> [Int] {
    guard !key.isEmpty else { return [] }
    var low = 0
    var high = ranks.count
    while low < high {
      let middle = low + (high - low) / 2
      if compare(key: middle, toPrefix: key) >= 0 { high = middle } else { low = middle + 1 }
    }
    // Keys equal to `key` sort first among those starting with it (a shorter key sorts
    // before its extensions), so they are the run from `low` whose length is the key's.
    var found: [Int] = []
    var index = low
    while index < ranks.count, starts[index + 1] - starts[index] == key.count,
      compare(key: index, toPrefix: key) == 0
    {
      found.append(ranks[index])
      index += 1
    }
    return Array(Set(found)).sorted()
  }

  /// Key `index` cut to the prefix's length, compared with the prefix: negative, zero (the
  /// key starts with the prefix) or positive.
  private func compare(key index: Int, toPrefix prefix: [UInt8]) -> Int {
    let start = starts[index]
    let length = starts[index + 1] - start
    return bytes.withUnsafeBufferPointer { bytes in
      prefix.withUnsafeBufferPointer { prefix in
        for offset in 0..<min(length, prefix.count) {
          let difference = Int(bytes[start + offset]) - Int(prefix[offset])
          if difference != 0 { return difference }
        }
        // The key is shorter than the prefix and begins it: it sorts before.
        return length < prefix.count ? -1 : 0
      }
    }
  }
}
