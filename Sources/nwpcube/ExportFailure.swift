/// Why `nwpcube export` cannot write its file, in one line naming the file, metric or
/// option at fault.
struct ExportFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
