import CFuzzDriver
import Foundation
import FuzzSupport

// The cube_resealed fuzz target (docs/reliability.md): libFuzzer's driver calls
// FuzzTargets.cubeResealed with each input.

FuzzSeeds.writeIfAsked("cube_resealed")
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
  LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzTargets.cubeResealed(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  })
