import Foundation

/// Limits for a child process (an exit test) that reads huge or hostile input, so that a
/// regression fails that child instead of taking the machine's memory or time.
public enum ResourceCaps {
  /// Caps this process's address space at what it maps now (from /proc/self/statm, in
  /// pages) plus `megabytes`, and its CPU time at `cpuSeconds`.
  public static func cap(megabytes: Int, cpuSeconds: Int) {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Int(statm.split(separator: " ").first ?? "") ?? 0
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    limit.rlim_cur = rlim_t(pages * Int(sysconf(Int32(_SC_PAGESIZE))) + megabytes << 20)
    setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    var cpu = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds))
    setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
  }
}
