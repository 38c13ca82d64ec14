import NwpcubeFace
import Store

extension StoredRun {
  /// The run as nwpcube's run listing shows it (`RunListing`), which `/v1/runs` and
  /// `nwpcube runs --json` print: the listing is a face, and faces hold no store.
  public var listed: RunListing.Run {
    RunListing.Run(
      name: name, run: run, path: path, bytes: bytes,
      axis: header.map { ($0.firstTime, $0.lastTime, $0.stepCount, $0.stepSeconds) }, problem: problem)
  }
}
