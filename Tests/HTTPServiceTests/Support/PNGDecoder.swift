import CZlib

/// A PNG reader for the tile tests, written on zlib alone so that it shares nothing with the
/// encoder under test (libpng): checks the signature and every chunk's CRC, reads IHDR,
/// inflates the joined IDAT chunks and undoes the five row filters. Only what tiles use:
/// 8-bit RGBA, not interlaced.
struct DecodedPNG {
  let width: Int
  let height: Int
  /// Row-major RGBA bytes.
  let rgba: [UInt8]

  enum Failure: Error, CustomStringConvertible {
    case bad(String)
    var description: String { if case .bad(let text) = self { text } else { "" } }
  }

  /// The pixel at (column, row) as (r, g, b, a).
  func pixel(_ column: Int, _ row: Int) -> [UInt8] {
    let offset = (row * width + column) * 4
    return Array(rgba[offset..<(offset + 4)])
  }

  init(_ bytes: [UInt8]) throws {
    let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    guard bytes.count > 8, Array(bytes[0..<8]) == signature else { throw Failure.bad("no PNG signature") }
    func big(_ offset: Int) -> Int {
      bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
    var offset = 8
    var header: (width: Int, height: Int)?
    var compressed: [UInt8] = []
    var ended = false
    while offset + 12 <= bytes.count, !ended {
      let length = big(offset)
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      guard offset + 12 + length <= bytes.count else { throw Failure.bad("chunk \(type) runs past the end") }
      let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
      let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
      guard Int(crc) == big(offset + 8 + length) else { throw Failure.bad("chunk \(type): CRC mismatch") }
      let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
      switch type {
      case "IHDR":
        guard data.count == 13 else { throw Failure.bad("IHDR of \(data.count) bytes") }
        let width = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = data[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard data[8] == 8, data[9] == 6, data[10] == 0, data[11] == 0, data[12] == 0 else {
          throw Failure.bad("not 8-bit RGBA, deflate, non-interlaced: \(Array(data[8...]))")
        }
        header = (width, height)
      case "IDAT": compressed += data
      case "IEND": ended = true
      default: break
      }
      offset += 12 + length
    }
    guard let header, ended else { throw Failure.bad("no IHDR or no IEND") }
    let stride = header.width * 4
    var raw = [UInt8](repeating: 0, count: header.height * (stride + 1))
    var size = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { output in
      compressed.withUnsafeBufferPointer { input in
        uncompress(output.baseAddress, &size, input.baseAddress, uLong(input.count))
      }
    }
    guard status == Z_OK, Int(size) == raw.count else { throw Failure.bad("inflate: status \(status), \(size) bytes") }
    var image = [UInt8](repeating: 0, count: header.height * stride)
    for row in 0..<header.height {
      let filter = raw[row * (stride + 1)]
      for index in 0..<stride {
        let x = Int(raw[row * (stride + 1) + 1 + index])
        let a = index >= 4 ? Int(image[row * stride + index - 4]) : 0
        let b = row > 0 ? Int(image[(row - 1) * stride + index]) : 0
        let c = index >= 4 && row > 0 ? Int(image[(row - 1) * stride + index - 4]) : 0
        let predicted: Int
        switch filter {
        case 0: predicted = 0
        case 1: predicted = a
        case 2: predicted = b
        case 3: predicted = (a + b) / 2
        case 4:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: throw Failure.bad("row \(row): filter type \(filter)")
        }
        image[row * stride + index] = UInt8((x + predicted) & 0xff)
      }
    }
    (width, height, rgba) = (header.width, header.height, image)
  }
}
