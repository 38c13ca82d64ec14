import CFuzzDriver
import Foundation
import FuzzSupport

// The netcdf_metadata fuzz target (docs/reliability.md): libFuzzer's driver calls
// FuzzTargets.netcdfMetadata with each input.

FuzzSeeds.writeIfAsked("netcdf_metadata")
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
  LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzTargets.netcdfMetadata(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  })
