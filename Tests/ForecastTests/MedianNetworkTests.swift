import Testing

@testable import Forecast

/// The sorting network behind daily medians, against sorting.
@Suite struct MedianNetworkTests {
  typealias Row = SIMD4<Double>

  /// Runs the network on `inputs` (one per lane, each of `count` values) and returns each
  /// lane's values in row order.
  static func lowerHalves(_ inputs: [[Double]], count: Int) -> [[Double]] {
    var rows = [Row](repeating: Row(repeating: .infinity), count: count)
    for (lane, input) in inputs.enumerated() {
      for (row, value) in input.enumerated() { rows[row][lane] = value }
    }
    rows.withUnsafeMutableBufferPointer { MedianNetwork.sortLowerHalf($0) }
    return inputs.indices.map { lane in rows.map { $0[lane] } }
  }

  /// The same for rows of eight 16-bit keys, the rows of stored words.
  static func lowerHalves(_ inputs: [[Int16]], count: Int) -> [[Int16]] {
    var rows = [SIMD8<Int16>](repeating: SIMD8(repeating: .max), count: count)
    for (lane, input) in inputs.enumerated() {
      for (row, value) in input.enumerated() { rows[row][lane] = value }
    }
    rows.withUnsafeMutableBufferPointer { MedianNetwork.sortLowerHalf($0) }
    return inputs.indices.map { lane in rows.map { $0[lane] } }
  }

  /// By the 0-1 principle, a comparator network that orders every input of zeros and
  /// ones orders every input; up to 14 values, every such input is tried.
  @Test func theLowerHalfOfEveryZeroOneInputComesOutInOrder() {
    for count in 1...14 {
      let inputs = (0..<(1 << count)).map { bits in (0..<count).map { Double((bits >> $0) & 1) } }
      for start in stride(from: 0, to: inputs.count, by: Row.scalarCount) {
        let batch = Array(inputs[start..<min(start + Row.scalarCount, inputs.count)])
        for (input, output) in zip(batch, Self.lowerHalves(batch, count: count)) {
          let kept = count / 2 + 1
          #expect(Array(output.prefix(kept)) == Array(input.sorted().prefix(kept)), "\(input)")
        }
      }
    }
  }

  @Test func rowsOfKeysComeOutInOrderToo() {
    for count in 1...12 {
      let inputs = (0..<(1 << count)).map { bits in (0..<count).map { Int16((bits >> $0) & 1) } }
      for start in stride(from: 0, to: inputs.count, by: 8) {
        let batch = Array(inputs[start..<min(start + 8, inputs.count)])
        for (input, output) in zip(batch, Self.lowerHalves(batch, count: count)) {
          #expect(Array(output.prefix(count / 2 + 1)) == Array(input.sorted().prefix(count / 2 + 1)), "\(input)")
        }
      }
    }
    // Negative keys and the extremes, past the network's limit as well.
    var state: UInt64 = 0x1616
    for count in [23, 25, 32, 33] {
      let inputs = (0..<8).map { _ in
        (0..<count).map { _ -> Int16 in
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return [Int16.min, -5, 0, 7, Int16.max][Int((state >> 33) % 5)]
        }
      }
      for (input, output) in zip(inputs, Self.lowerHalves(inputs, count: count)) {
        #expect(Array(output.prefix(count / 2 + 1)) == Array(input.sorted().prefix(count / 2 + 1)), "\(input)")
      }
    }
  }

  /// Longer inputs, up to the network's limit and past it (sorted lane by lane), with ties
  /// and +∞ standing for missing values.
  @Test func theLowerHalfOfRandomInputsComesOutInOrder() {
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for count in 15...40 {
      for _ in 0..<40 {
        let inputs = (0..<Row.scalarCount).map { _ in
          (0..<count).map { _ in next() % 9 == 0 ? Double.infinity : Double(next() % 50) / 4 - 3 }
        }
        for (input, output) in zip(inputs, Self.lowerHalves(inputs, count: count)) {
          let kept = count / 2 + 1
          #expect(Array(output.prefix(kept)) == Array(input.sorted().prefix(kept)), "\(count): \(input)")
        }
      }
    }
  }

  /// The network for n values is pruned from one for 32; pruning must keep it a network
  /// of in-range, low-before-high comparators.
  @Test func everyPrunedNetworkComparesRowsInRange() {
    for (count, network) in MedianNetwork.comparators.enumerated() {
      #expect(network.count % 2 == 0)
      for index in stride(from: 0, to: network.count, by: 2) {
        #expect(network[index] < network[index + 1] && Int(network[index + 1]) < count, "\(count)")
      }
    }
    // Without pruning, Batcher's network for 32 inputs has 191 comparators.
    #expect(MedianNetwork.oddEvenMergeSort(wires: 32).count == 191)
  }
}
