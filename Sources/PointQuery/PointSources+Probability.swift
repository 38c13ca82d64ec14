import Meteorology

extension PointSources {
  /// The most runs a `precipitation_probability` averages: the answering one and the three
  /// before it, a day of 6-hourly runs. Older runs are further from their start and would
  /// add staleness more than spread.
  public static let probabilityMemberLimit = 4

  /// A `precipitation_probability` at the point and the runs it came from.
  public struct Probability: Sendable, Equatable {
    /// The mean of the members' `precip_neighbourhood`, in %; nil when no member has one.
    public let value: Double?
    /// The members whose value entered the mean, as indices into `sources`, newest first.
    public let members: [Int]
  }

  /// The neighbourhood, time-lagged ensemble's probability of at least 0.1 mm of
  /// precipitation at the point in the hour ending at `time` (Theis et al. 2005;
  /// Mittermaier 2007).
  ///
  /// The members are the sources that cover `time` and share the answering source's model
  /// and domain (the answering one first, then earlier runs, newest first), at most
  /// `probabilityMemberLimit`. Each gives its own `precip_neighbourhood` at its own
  /// location of the point, as `Cube.value` reads it (the hour-ending value; bilinear
  /// between cells when asked); members without a value (rain unknown in that hour, or
  /// a run whose rain was missing) are skipped, and the probability is the mean of the
  /// rest. With one run in the store it is that run's neighbourhood share. A run never
  /// votes for the hour ending at its own start: it did not forecast that hour, and its
  /// rain there is 0 by the deaccumulation rule, not a forecast of none. nil when no
  /// source covers `time`.
  public func precipitationProbability(at time: Int64) -> Probability? {
    guard let answering = sources.firstIndex(where: { $0.covers(time) }) else { return nil }
    let (model, domain) = (sources[answering].cube.header.model, sources[answering].cube.header.domain)
    var (sum, members, candidates) = (0.0, [Int](), 0)
    for index in sources.indices[answering...] where candidates < Self.probabilityMemberLimit {
      let cube = sources[index].cube
      // A source's own span: a moving nest's run is a member only where it holds the point.
      guard sources[index].covers(time), cube.header.model == model, cube.header.domain == domain,
        !cube.beginsRun(at: time)
      else { continue }
      candidates += 1
      let neighbourhood = cube.metric(.precipitationNeighbourhood)
      guard let value = try? cube.value(neighbourhood, at: sources[index].location, time: time) else { continue }
      sum += value
      members.append(index)
    }
    return Probability(value: members.isEmpty ? nil : sum / Double(members.count), members: members)
  }
}

extension Cube {
  /// Whether `time` lies within the run's first and last steps.
  public func covers(_ time: Int64) -> Bool { time >= firstTime && time <= lastTime }

  /// Whether `time` is the run's start and its first step: the hour ending there lies
  /// before the forecast.
  public func beginsRun(at time: Int64) -> Bool { time == firstTime && time == header.runStart }
}
