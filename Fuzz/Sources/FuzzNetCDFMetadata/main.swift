import FuzzSupport

// The netcdf_metadata fuzz target (docs/reliability.md).
FuzzDriver.run("netcdf_metadata", FuzzTargets.netcdfMetadata)
