import FuzzSupport

// The grib_file fuzz target (docs/reliability.md). Its seeds are written here rather
// than by FuzzSeeds, which knows the NetCDF and cube targets only.
GRIBSeeds.writeIfAsked()
FuzzDriver.run("grib_file", GRIBProbe.probe)
