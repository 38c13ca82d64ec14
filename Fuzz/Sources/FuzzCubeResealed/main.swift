import FuzzSupport

// The cube_resealed fuzz target (docs/reliability.md).
FuzzDriver.run("cube_resealed", FuzzTargets.cubeResealed)
