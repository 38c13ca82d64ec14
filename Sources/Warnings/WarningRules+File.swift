import Foundation

extension WarningRules {
  /// Reads and checks the alerts file at `path`.
  public init(path: String) throws(AlertsFileError) {
    func fault(_ reason: String) -> AlertsFileError { AlertsFileError(file: path, line: nil, reason: reason) }
    let data: Data
    do {
      // The size is looked at before reading, so that a wrong path to a large file is not read.
      let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      guard size <= Self.maximumBytes else {
        throw fault("is over \(Self.maximumBytes / 1_048_576) MiB; an alerts file holds a few lines per threshold")
      }
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let error as AlertsFileError {
      throw error
    } catch {
      throw fault("cannot be read: \((error as NSError).localizedDescription)")
    }
    guard let text = String(validating: data, as: UTF8.self) else { throw fault("is not UTF-8 text") }
    try self.init(text: text, path: path)
  }
}
