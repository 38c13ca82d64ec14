/// This checkout's neighbourhood: how it counts and how many segments it keeps.
extension Built {
  var detail: String { "\(neighbourhood.counting), \(neighbourhood.segmentCount) segments" }
}
