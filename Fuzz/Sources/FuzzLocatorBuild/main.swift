import FuzzSupport

// The locator_build fuzz target (docs/reliability.md).
FuzzDriver.run("locator_build", FuzzTargets.locatorBuild)
