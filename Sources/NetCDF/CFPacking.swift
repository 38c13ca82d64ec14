import CVectorKernels

/// The CF conventions' packing and masking attributes of one variable.
///
/// Masking is decided on the raw (packed) value, as the CF conventions require, and
/// follows netCDF4-python: an explicit `_FillValue`/`missing_value`/valid range wins, and
/// without `_FillValue` the type's default fill value counts as missing (except for bytes).
struct CFPacking {
  let scale: Double
  let offset: Double
  let missing: [Double]
  let validMin: Double
  let validMax: Double

  init(_ variable: NCVariable) {
    let attributes = variable.attributes
    scale = attributes["scale_factor"]?.number ?? 1
    offset = attributes["add_offset"]?.number ?? 0
    var missing = attributes["missing_value"]?.numbers ?? []
    if let fill = attributes["_FillValue"]?.number {
      missing.append(fill)
    } else if let fill = variable.type.defaultFill {
      missing.append(fill)
    }
    self.missing = missing
    let range = attributes["valid_range"]?.numbers ?? []
    validMin = attributes["valid_min"]?.number ?? (range.count == 2 ? range[0] : -.infinity)
    validMax = attributes["valid_max"]?.number ?? (range.count == 2 ? range[1] : .infinity)
  }

  func unpack(_ values: inout [Double]) {
    for index in values.indices { values[index] = unpacked(values[index]) }
  }

  /// The unpacked values of raw floats, widened exactly first (as libnetcdf's conversion to
  /// double does), so that masking and arithmetic see the same numbers.
  func unpacked(_ raw: UnsafeBufferPointer<Float>) -> [Double] {
    unpacked(raw, level: nwp_vector_level())
  }

  /// `unpacked(_:)` with the vector kernel capped at `level` (0: none), so that tests can
  /// compare every level's values. With one fill value, the CPU's widest kernel
  /// (`CVectorKernels`) does the leading values, and the loop below the rest.
  func unpacked(_ raw: UnsafeBufferPointer<Float>, level: Int32) -> [Double] {
    [Double](unsafeUninitializedCapacity: raw.count) { values, initialized in
      if missing.count == 1, let fill = missing.first, !validMin.isNaN, !validMax.isNaN {
        // The usual case (one fill value) without the search through `missing`: the same
        // tests in one branch-free expression: `!(x >= min && x <= max)` holds for NaN too
        // (valid bounds that are NaN mask nothing, so they take the general path).
        let (low, high, scale, offset) = (validMin, validMax, scale, offset)
        // Four values at a time: the scalar loop's branches on each test cost more than
        // the arithmetic. The same operations lane by lane (a product, then a sum: never
        // fused), so the same doubles. The comparisons' masks are used as their lanes' bits
        // (all ones where true) with bitwise selects, as `CubeMetric.quantize` does: combined
        // as `SIMDMask`s, the compiler narrowed each to a bit a lane and widened it again at
        // every step, most of the loop's instructions.
        typealias Bits = SIMD4<UInt64>
        @inline(__always) func lanes(_ mask: SIMDMask<SIMD4<Int64>>) -> Bits { unsafeBitCast(mask, to: Bits.self) }
        let (lows, highs, fills) = (SIMD4(repeating: low), SIMD4(repeating: high), SIMD4(repeating: fill))
        let (scales, offsets) = (SIMD4(repeating: scale), SIMD4(repeating: offset))
        let nans = Bits(repeating: Double.nan.bitPattern)
        var index = 0
        if let input = raw.baseAddress, let output = values.baseAddress {
          index = nwp_unpack_floats(input, output, raw.count, scale, offset, low, high, fill, level)
        }
        if let output = values.baseAddress {
          let output = UnsafeMutableRawPointer(output)
          while index + 4 <= raw.count {
            let x = SIMD4(Double(raw[index]), Double(raw[index + 1]), Double(raw[index + 2]), Double(raw[index + 3]))
            let kept = lanes(x .>= lows) & lanes(x .<= highs) & ~lanes(x .== fills)
            let unpacked = (unsafeBitCast(x * scales + offsets, to: Bits.self) & kept) | (nans & ~kept)
            output.storeBytes(of: unpacked, toByteOffset: index &* 8, as: Bits.self)
            index += 4
          }
        }
        while index < raw.count {
          let x = Double(raw[index])
          let masked = !(x >= low && x <= high) || x == fill
          values.initializeElement(at: index, to: masked ? .nan : x * scale + offset)
          index += 1
        }
      } else {
        for index in raw.indices { values.initializeElement(at: index, to: unpacked(Double(raw[index]))) }
      }
      initialized = raw.count
    }
  }

  /// One raw value unpacked: NaN where masked, `raw · scale + offset` otherwise.
  @inline(__always)
  private func unpacked(_ raw: Double) -> Double {
    raw.isNaN || raw < validMin || raw > validMax || missing.contains(raw) ? .nan : raw * scale + offset
  }
}
