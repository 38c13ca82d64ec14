import FuzzSupport

// The ingest_dimensions fuzz target (docs/reliability.md).
FuzzDriver.run("ingest_dimensions", FuzzTargets.ingestDimensions)
