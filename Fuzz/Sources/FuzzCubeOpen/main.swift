import CFuzzDriver
import Foundation
import FuzzSupport

// The cube_open fuzz target (docs/reliability.md): libFuzzer's driver calls
// FuzzTargets.cubeOpen with each input.

FuzzSeeds.writeIfAsked("cube_open")
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
  LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzTargets.cubeOpen(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  })
