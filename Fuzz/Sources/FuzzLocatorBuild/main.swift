import CFuzzDriver
import Foundation
import FuzzSupport

// The locator_build fuzz target (docs/reliability.md): libFuzzer's driver calls
// FuzzTargets.locatorBuild with each input.

FuzzSeeds.writeIfAsked("locator_build")
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
  LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzTargets.locatorBuild(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  })
