import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program as a child process and reports, besides its status and output, its own
/// peak resident memory as the kernel counted it (`ru_maxrss`), through GNU time.
///
/// Not `wait4` on a child of the test process: Linux carries the high-water mark of the
/// address space a process replaces over its `exec`, and a child spawned from a test
/// runner holding 160 MB reports at least that, whatever it uses. GNU time is small, and
/// forks the program from its own small address space. Nor `getrusage(RUSAGE_CHILDREN)`:
/// it is the largest of every child the test process ever waited for.
public enum MeasuredProcess {
  /// GNU time, which `Scripts/install-deps` installs.
  public static let time = "/usr/bin/time"

  /// The outcome of one run.
  public struct Outcome: Sendable {
    /// The exit status, or 128 + the signal that ended the child.
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    /// The child's peak resident set, bytes.
    public let peakBytes: Int
  }

  /// Why the child could not be started.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Runs `executable` with `arguments` and waits for it. Output goes through files, so a
  /// large output cannot stall the child.
  public static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
    let directory = SampleFiles.temporaryDirectory("measured")
    defer { SampleFiles.remove(directory) }
    let (outPath, errPath) = ("\(directory)/out", "\(directory)/err")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard FileManager.default.isExecutableFile(atPath: time) else {
      throw Failure(description: "\(time) is missing: install GNU time (Scripts/install-deps does)")
    }
    let peakPath = "\(directory)/peak"
    let argv = ([time, "-f", "%M", "-o", peakPath, executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
    }
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    // GNU time writes "Command exited with non-zero status N" first when it did; the peak
    // (KiB) is the last line.
    let peak = read(peakPath).split(separator: "\n").last.flatMap { Int($0) } ?? 0
    return Outcome(status: exit, standardOutput: read(outPath), standardError: read(errPath), peakBytes: peak * 1024)
  }
}
