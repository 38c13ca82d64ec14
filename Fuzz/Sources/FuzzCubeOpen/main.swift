import FuzzSupport

// The cube_open fuzz target (docs/reliability.md).
FuzzDriver.run("cube_open", FuzzTargets.cubeOpen)
