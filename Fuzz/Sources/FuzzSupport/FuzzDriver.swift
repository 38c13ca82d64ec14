import CFuzzDriver
import Foundation

/// What each fuzz executable's `main` does: write the seeds when asked to, else hand the
/// target to libFuzzer's driver, which parses libFuzzer's command line and fuzzes it.
public enum FuzzDriver {
  /// The target being fuzzed. libFuzzer's callback is a C function pointer, which cannot
  /// capture it, so it is kept here: set once, before the driver starts, and read only by
  /// the callback, which libFuzzer calls on this same thread.
  nonisolated(unsafe) private static var target: ([UInt8]) -> Void = { _ in }

  public static func run(_ name: String, _ target: @escaping ([UInt8]) -> Void) -> Never {
    FuzzSeeds.writeIfAsked(name)
    Self.target = target
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(
      LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzDriver.target(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
      })
  }
}
