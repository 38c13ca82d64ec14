import ArgumentParser

@main
struct NWPCube: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "nwpcube",
    abstract: "Serve point forecasts from WRF, MM5 and CF model output through a compact memory-mapped cube.",
    discussion: """
      Ingest a run's wrfout files into a store, then ask for values at any latitude, \
      longitude and time inside the run. Errors name the file, variable or parameter at \
      fault, in one line on standard error: status 1 for bad input files or points outside \
      the data, 64 for malformed options.
      """,
    subcommands: [
      IngestCommand.self, QueryCommand.self, SeriesCommand.self, ForecastCommand.self, InfoCommand.self,
      RunsCommand.self, PruneCommand.self, ServeCommand.self, BenchCommand.self, SampleRunCommand.self,
      PlacesCommand.self, MeteogramCommand.self,
      ExportCommand.self,
    ]
  )
}
