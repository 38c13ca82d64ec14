import NetCDF

/// Why an ingest could not publish a cube. The description is one line that names the
/// file, and the variable or parameter when there is one.
public struct IngestError: Error, Equatable, CustomStringConvertible {
  /// The input file (or store path, or command-line parameter) concerned.
  public let path: String
  /// The variable or attribute concerned, if any.
  public let variable: String?
  /// What is wrong.
  public let reason: String

  public init(path: String, variable: String? = nil, reason: String) {
    self.path = path
    self.variable = variable
    self.reason = reason
  }

  init(_ error: NCError) {
    self.init(path: error.path, variable: error.variable, reason: Self.explain(error))
  }

  public var description: String {
    if let variable { return "\(path): \(variable): \(reason)" }
    return "\(path): \(reason)"
  }

  /// libnetcdf's messages for the two commonest mistakes are cryptic; say it plainly.
  private static func explain(_ error: NCError) -> String {
    if error.reason.contains("Unknown file format") || error.reason.contains("Not a valid data type")
      || error.reason.contains("HDF error")
    {
      return "not a NetCDF file (\(error.reason))"
    }
    if error.reason.contains("No such file") { return "no such file" }
    return error.reason
  }
}

extension NCFile {
  /// Opens an input file; libnetcdf's failure becomes an ingest error naming the file.
  static func openForIngest(_ path: String) throws(IngestError) -> NCFile {
    do {
      return try NCFile.open(path)
    } catch {
      throw IngestError(error)
    }
  }
}

/// Runs a read of `variable` from the file at `path`, turning libnetcdf's errors (and any
/// other) into ingest errors that name the file and variable.
func readingInput<T>(_ variable: String, from path: String, _ body: () throws -> T) throws(IngestError) -> T {
  do {
    return try body()
  } catch let error as NCError {
    throw IngestError(error)
  } catch let error as IngestError {
    throw error
  } catch {
    throw IngestError(path: path, variable: variable, reason: "\(error)")
  }
}
