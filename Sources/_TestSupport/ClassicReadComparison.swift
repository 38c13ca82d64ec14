import CNetCDF
@_spi(ReadComparison) import NetCDF

/// A classic-format file read both ways: its contiguous float runs with `pread` from the
/// layout its header gives (`ClassicLayout`), and through libnetcdf alone. Every read must
/// give libnetcdf's values to the bit, or both must fail; values the header places past
/// the end of the file may be refused as a truncation where libnetcdf reads zeros or what
/// its buffer last held (a damaged record count or offset). The classic layout tests and
/// the `classic_header` fuzz target share it.
public enum ClassicReadComparison {
  /// Every float variable of `path` read whole, a record at a time, in bands of rows (the
  /// reads ingest makes) and in half rows (not one run of the file: libnetcdf's), both
  /// ways; one line for each read that differs, empty when none does. Each read is at most
  /// 2^20 values and all of them 2^22, whatever lengths the header declares.
  public static func differences(of path: String) throws -> [String] {
    let fast = try NCFile.open(path, classicReads: true)
    let plain = try NCFile.open(path, classicReads: false)
    defer {
      fast.close()
      plain.close()
    }
    var found: [String] = []
    if plain.readsClassicLayout { found.append("\(path): read through libnetcdf alone, yet it follows the layout") }
    // At most 2^22 values in all: a header can declare hundreds of variables, each of
    // which would be read many times over (a bound for the fuzz target's time limit).
    var budget = 1 << 22
    func compare(_ name: String, start: [Int], count: [Int]) {
      let values = count.reduce(1.0) { $0 * Double($1) }
      guard values <= Double(budget) else { return }
      budget -= Int(values)
      if let difference = difference(fast, plain, name, start: start, count: count) { found.append(difference) }
    }
    let limit = 1 << 20
    for variable in fast.variables.values.sorted(by: { $0.name < $1.name }) where variable.type == .float {
      let shape = variable.shape  // never negative: `NCFile` refuses such a length at open
      let zero = [Int](repeating: 0, count: shape.count)
      if variable.count <= limit { compare(variable.name, start: zero, count: shape) }
      // A record's values, in doubles: a declared product past `Int` must not trap here.
      guard shape.count >= 2, shape.allSatisfy({ $0 > 0 }),
        shape.dropFirst().reduce(1.0, { $0 * Double($1) }) <= Double(limit)
      else { continue }
      let rows = shape[shape.count - 2]
      for record in Set([0, shape[0] / 2, shape[0] - 1]) {
        var start = zero
        var count = shape
        (start[0], count[0]) = (record, 1)
        compare(variable.name, start: start, count: count)
        for (first, length) in [(0, 1), (rows / 3, max(1, rows / 2)), (rows - 1, 1)] {
          var band = start
          var counts = count
          band[shape.count - 2] = first
          counts[shape.count - 2] = min(length, rows - first)
          compare(variable.name, start: band, count: counts)
          counts[shape.count - 1] = max(1, shape[shape.count - 1] / 2)
          compare(variable.name, start: band, count: counts)
        }
      }
    }
    return found
  }

  /// How one read of `slab` differs between the two files' handles, nil when it does not.
  static func difference(_ fast: NCFile, _ plain: NCFile, _ name: String, start: [Int], count: [Int]) -> String? {
    let one = Result { () throws(NCError) in try fast.readUnpacked(name, start: start, count: count) }
    let other = Result { () throws(NCError) in try plain.readUnpacked(name, start: start, count: count) }
    switch (one, other) {
    case (.success(let a), .success(let b)):
      let same = a.count == b.count && zip(a, b).allSatisfy { $0.isNaN ? $1.isNaN : $0.bitPattern == $1.bitPattern }
      return same ? nil : "\(fast.path): \(name) \(start) \(count): values differ from libnetcdf's"
    case (.failure, .failure): return nil
    case (.failure(let refusal), .success) where refusal.code == NC_ETRUNC && refusal.reason.contains("the file ends"):
      return nil
    default: return "\(fast.path): \(name) \(start) \(count): \(one) against libnetcdf's \(other)"
    }
  }

  /// Writes a file of `format` with fixed and record variables of several types (so that
  /// the record holds padded and unpadded parts), or with `loneRecord` a lone short record
  /// variable beside fixed floats, whose records are not padded: 4 records of 5 × 7 cells,
  /// every eleventh value the `_FillValue`.
  public static func writeFixture(_ path: String, format: NCFormat, loneRecord: Bool) throws {
    let file = try NCFile.create(path, format: format)
    defer { file.close() }
    let (times, rows, columns) = (4, 5, 7)
    try file.defineDimension("time", length: nil)
    try file.defineDimension("y", length: rows)
    try file.defineDimension("x", length: columns)
    try file.defineDimension("odd", length: 3)
    try file.defineVariable("fixed", type: .float, dimensions: ["y", "x"])
    try file.setAttribute("_FillValue", .reals([-1]), on: "fixed", type: .float)
    try file.defineVariable("code", type: .short, dimensions: ["time", "odd"])
    if !loneRecord {
      try file.defineVariable("t2", type: .float, dimensions: ["time", "y", "x"])
      try file.setAttribute("scale_factor", .reals([0.5]), on: "t2", type: .double)
      try file.defineVariable("level", type: .float, dimensions: ["time", "odd", "y", "x"])
    }
    try file.defineVariable("after", type: .float, dimensions: ["odd", "x"])
    try file.endDefinitions()
    var random = TestRandom(seed: 5)
    func values(_ count: Int) -> [Float] {
      (0..<count).map { index in index % 11 == 3 ? -1 : Float(random.uniform(-300...300)) }
    }
    try file.write("fixed", start: [0, 0], count: [rows, columns], values(rows * columns))
    try file.write("after", start: [0, 0], count: [3, columns], values(3 * columns))
    for time in 0..<times {
      try file.write("code", start: [time, 0], count: [1, 3], [Int16(time), 7, -3])
      if !loneRecord {
        try file.write("t2", start: [time, 0, 0], count: [1, rows, columns], values(rows * columns))
        try file.write("level", start: [time, 0, 0, 0], count: [1, 3, rows, columns], values(3 * rows * columns))
      }
    }
  }
}
