import FuzzSupport

// The classic_header fuzz target (docs/reliability.md).
FuzzDriver.run("classic_header", FuzzTargets.classicHeader)
