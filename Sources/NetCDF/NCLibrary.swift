import CHDF5Errors
import CNetCDF
import Synchronization

/// The only place that calls libnetcdf.
///
/// libnetcdf (and the HDF5 library under it) is not thread safe, so every call goes
/// through one process-wide lock, and every non-zero status becomes an `NCError` that
/// carries `nc_strerror`'s text together with the file and variable it concerns. HDF5's
/// own error printing is turned off on each thread before its first call, as libnetcdf
/// turns it off on the thread that starts it (`CHDF5Errors`).
enum NCLibrary {
  private static let lock = Mutex<Void>(())

  /// Runs `body` (one or more C calls) under the lock and turns a failure into `NCError`.
  static func call(
    _ function: String, path: String, variable: String? = nil, _ body: () -> Int32
  ) throws(NCError) {
    let status = lock.withLock { _ in
      nwp_hdf5_quiet_on_this_thread()
      return body()
    }
    guard status == NC_NOERR else {
      let text = String(cString: nc_strerror(status))
      throw NCError(code: status, reason: "\(function): \(text)", path: path, variable: variable)
    }
  }

  /// Runs `body` under the lock when the status is not interesting (closing a file).
  static func callIgnoringStatus(_ body: () -> Int32) {
    _ = lock.withLock { _ in
      nwp_hdf5_quiet_on_this_thread()
      return body()
    }
  }
}
