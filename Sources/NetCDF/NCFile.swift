import CNetCDF
import Platform
import Synchronization

/// An open NetCDF file (classic, 64-bit offset, or NetCDF-4/HDF5).
///
/// The handle owns the libnetcdf file id and closes it when released; use
/// `NCFile.withFile(_:_:)` to scope one. Metadata (dimensions, variables and attributes)
/// is read once when the file opens.
///
/// A file opened for reading may be read from several threads at once: every libnetcdf
/// call goes through `NCLibrary`'s lock, the metadata does not change after the open,
/// and closing is atomic. Only a file being defined (`NCFile+Write`) changes its
/// metadata, and its writer owns it alone; hence `@unchecked`.
public final class NCFile: @unchecked Sendable {
  /// The path the file was opened or created with; every error names it.
  public let path: String
  /// The dimensions, in definition order.
  public internal(set) var dimensions: [NCDimension]
  /// The variables by name.
  public internal(set) var variables: [String: NCVariable]
  /// The global attributes by name.
  public internal(set) var globalAttributes: [String: NCAttribute]

  let ncid: Int32
  let isOpen = Atomic<Bool>(true)
  /// A classic-format file opened for reading: a descriptor of its own and the layout of
  /// its variables, through which contiguous float reads bypass libnetcdf and its lock
  /// (`ClassicLayout`). Set once, by `open`, before the handle is shared; the descriptor is
  /// closed when the handle is released, so that no read still under way can meet a
  /// descriptor closed, or reused by another file, under it.
  private(set) var classicReads: (descriptor: Int32, layout: ClassicLayout)?

  /// Whether contiguous float runs are read with `pread` from the classic header's layout.
  @_spi(ReadComparison)
  public var readsClassicLayout: Bool { classicReads != nil }

  private init(path: String, ncid: Int32) throws(NCError) {
    self.path = path
    self.ncid = ncid
    self.dimensions = []
    self.variables = [:]
    self.globalAttributes = [:]
    do {
      try reloadMetadata()
    } catch {
      close()
      throw error
    }
  }

  /// A file just created by `nc_create`, still in define mode.
  convenience init(createdAt path: String, ncid: Int32) throws(NCError) {
    try self.init(path: path, ncid: ncid)
  }

  deinit {
    close()
    if let classicReads { Posix.close(classicReads.descriptor) }
  }

  /// Opens an existing file read-only (`nc_open`).
  public static func open(_ path: String) throws(NCError) -> NCFile {
    try open(path, classicReads: true)
  }

  /// Opens `path` read-only, reading a classic-format file's contiguous float runs itself
  /// (`ClassicLayout`) when `classicReads`, through libnetcdf alone otherwise. For the
  /// tests and the fuzz target that compare the two, hence not the public interface.
  @_spi(ReadComparison)
  public static func open(_ path: String, classicReads: Bool) throws(NCError) -> NCFile {
    // A classic header is checked before libnetcdf parses it, which trusts its counts and
    // lengths (`HeaderReader`); a file this process cannot open is libnetcdf's to refuse.
    let descriptor = try? Posix.open(path, .readOnly)
    var layout: ClassicLayout?
    if let descriptor {
      do {
        layout = try ClassicLayout.read(descriptor: descriptor)
      } catch {
        Posix.close(descriptor)
        throw NCError(
          code: NC_ENOTNC, reason: "a malformed classic NetCDF header: \(error.reason)", path: path, variable: nil)
      }
    }
    let file: NCFile
    do {
      var ncid: Int32 = 0
      try NCLibrary.call("nc_open", path: path) { nc_open(path, NC_NOWRITE, &ncid) }
      file = try NCFile(path: path, ncid: ncid)
    } catch {
      if let descriptor { Posix.close(descriptor) }
      throw error
    }
    if classicReads, let descriptor, let layout {
      file.classicReads = (descriptor, layout)
    } else if let descriptor {
      Posix.close(descriptor)
    }
    return file
  }

  /// Opens `path`, runs `body` and closes the file whatever happens.
  public static func withFile<R, E: Error>(
    _ path: String, _ body: (NCFile) throws(E) -> R
  ) throws -> R {
    let file = try open(path)
    defer { file.close() }
    return try body(file)
  }

  /// Closes the file (`nc_close`). Further calls on the handle fail.
  public func close() {
    // Whichever thread closes first closes; the others find it closed.
    guard isOpen.exchange(false, ordering: .acquiringAndReleasing) else { return }
    NCLibrary.callIgnoringStatus { nc_close(ncid) }
  }

  /// The variable called `name`, or an error naming the file and the variable.
  public func variable(_ name: String) throws(NCError) -> NCVariable {
    guard let variable = variables[name] else {
      throw NCError(code: NC_ENOTVAR, reason: "no such variable", path: path, variable: name)
    }
    return variable
  }

  /// The dimension called `name`, if the file has one.
  public func dimension(_ name: String) -> NCDimension? {
    dimensions.first { $0.name == name }
  }

  func reloadMetadata() throws(NCError) {
    var dimensionCount: Int32 = 0
    var variableCount: Int32 = 0
    var attributeCount: Int32 = 0
    var unlimited: Int32 = -1
    try NCLibrary.call("nc_inq", path: path) {
      nc_inq(ncid, &dimensionCount, &variableCount, &attributeCount, &unlimited)
    }
    var dims: [NCDimension] = []
    for dimid in 0..<dimensionCount {
      var length = 0
      let name = try readName("nc_inq_dim") { nc_inq_dim(ncid, dimid, $0, &length) }
      // A `size_t` of 2^63 or more arrives negative. The classic header check refuses one
      // before libnetcdf reads it; an HDF5 file can still declare one.
      guard length >= 0 else {
        throw NCError(
          code: NC_EDIMSIZE, reason: "dimension \(name)'s length is \(UInt(bitPattern: length)), 2^63 or more",
          path: path, variable: nil)
      }
      dims.append(NCDimension(name: name, length: length, isUnlimited: dimid == unlimited))
    }
    var vars: [String: NCVariable] = [:]
    for varid in 0..<variableCount {
      var rawType: nc_type = 0
      var rank: Int32 = 0
      var count: Int32 = 0
      var dimids = [Int32](repeating: 0, count: Int(NC_MAX_VAR_DIMS))
      let name = try readName("nc_inq_var") {
        nc_inq_var(ncid, varid, $0, &rawType, &rank, &dimids, &count)
      }
      let ids = dimids.prefix(Int(rank)).map(Int.init)
      vars[name] = NCVariable(
        name: name, id: varid, type: NCType(rawValue: rawType) ?? .byte,
        dimensions: ids.map { dims[$0].name }, shape: ids.map { dims[$0].length },
        attributes: try readAttributes(of: varid, count: count, owner: name))
    }
    dimensions = dims
    variables = vars
    globalAttributes = try readAttributes(of: NC_GLOBAL, count: attributeCount, owner: nil)
  }

  private func readName(
    _ function: String, variable: String? = nil,
    _ body: (UnsafeMutablePointer<CChar>) -> Int32
  ) throws(NCError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(NC_MAX_NAME) + 1)
    try NCLibrary.call(function, path: path, variable: variable) {
      // The buffer is never empty, so it always has a base address.
      buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.baseAddress.map(body) ?? NC_ENOMEM
      }
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private func readAttributes(
    of varid: Int32, count: Int32, owner: String?
  ) throws(NCError) -> [String: NCAttribute] {
    var result: [String: NCAttribute] = [:]
    for index in 0..<count {
      let name = try readName("nc_inq_attname", variable: owner) {
        nc_inq_attname(ncid, varid, index, $0)
      }
      let label = owner.map { "\($0) attribute \(name)" } ?? "global attribute \(name)"
      var rawType: nc_type = 0
      var length = 0
      try NCLibrary.call("nc_inq_att", path: path, variable: label) {
        nc_inq_att(ncid, varid, name, &rawType, &length)
      }
      switch NCType(rawValue: rawType) {
      case .char:
        var bytes = [CChar](repeating: 0, count: length + 1)
        try NCLibrary.call("nc_get_att_text", path: path, variable: label) {
          nc_get_att_text(ncid, varid, name, &bytes)
        }
        let text = bytes.prefix(length).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        result[name] = .text(String(decoding: text, as: UTF8.self))
      case .float, .double:
        var values = [Double](repeating: 0, count: length)
        try NCLibrary.call("nc_get_att_double", path: path, variable: label) {
          nc_get_att_double(ncid, varid, name, &values)
        }
        result[name] = .reals(values)
      case .byte, .short, .int, .ubyte, .ushort, .uint, .int64, .uint64:
        var values = [Int64](repeating: 0, count: length)
        try NCLibrary.call("nc_get_att_longlong", path: path, variable: label) {
          nc_get_att_longlong(ncid, varid, name, &values)
        }
        result[name] = .integers(values.map { Int64($0) })
      case .string, nil:
        continue  // string and user-defined attributes carry nothing a convention here needs
      }
    }
    return result
  }
}
