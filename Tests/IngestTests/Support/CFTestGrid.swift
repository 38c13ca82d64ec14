import NetCDF

/// The axes of a small CF latitude/longitude file written by a test: an unlimited `time`
/// (int, in `timeUnits`) and float `latitude`/`longitude` with their CF units, defined in
/// `file` (still in define mode).
func defineCFAxes(_ file: NCFile, latitudes: Int, longitudes: Int, timeUnits: String) throws {
  try file.defineDimension("time", length: nil)
  try file.defineDimension("latitude", length: latitudes)
  try file.defineDimension("longitude", length: longitudes)
  try file.defineVariable("time", type: .int, dimensions: ["time"])
  try file.setAttribute("units", .text(timeUnits), on: "time")
  try file.defineVariable("latitude", type: .float, dimensions: ["latitude"])
  try file.setAttribute("units", .text("degrees_north"), on: "latitude")
  try file.defineVariable("longitude", type: .float, dimensions: ["longitude"])
  try file.setAttribute("units", .text("degrees_east"), on: "longitude")
}
