import CubeFormat
import Meteorology
import PointQuery

extension PointQuestion {
  /// The cubes of `store` that can take part in the answer, in answering order, opened and
  /// verified; the others are not verified. nil when the question is better left to the
  /// whole store (`ForecastStore(path:)`): a cube whose header cannot be read, one that
  /// cannot be opened, or no cube that contains the point at any of the times, whose errors
  /// the whole store words as it always has.
  ///
  /// A cube takes part when, at some time it covers, it answers (no cube before it in
  /// answering order contains the point and covers the time) or, with `probability`, it can
  /// be one of the time-lagged members (it has the answering cube's model and domain, and
  /// fewer than `PointSources.probabilityMemberLimit` cubes of those before it cover the
  /// time, not counting one that begins its run at that time). Every other cube is passed over by the answering rule and by the members'
  /// rule at every time of the question, so the catalog of these cubes answers every time
  /// exactly as the catalog of the whole store does. Which cubes cover a time changes only
  /// at the cubes' first and last steps, and for a moving nest where its grid comes to or
  /// leaves the point (known once it is opened), so those times (within `times`) and
  /// `times`' start are the only ones to try. A cube covers a time here as its sources do:
  /// a moving nest only at the steps where its grid holds the point. Headers are read without hashing; a cube is opened, in order,
  /// only when the cubes opened before it leave it a part to play, so the work depends on
  /// the runs covering the times asked, not on how many runs the store keeps.
  func cubes(in store: String) -> (cubes: [Cube], opened: Int)? {
    var headers: [(path: String, header: CubeHeader)] = []
    for file in StoreListing(store: store).cubes.flatMap(\.files) {
      guard let header = try? CubeFile.header(path: file) else { return nil }
      if let domain, header.domain != domain { continue }
      headers.append((file, header))
    }
    // The listing's order, then the catalog's (stable) sort: the whole store's order.
    headers.sort { RunCatalog.answersBefore($0.header, $1.header) }
    var instants: Set<Int64> = [times.lowerBound]
    for (_, header) in headers {
      for time in [header.firstTime, header.lastTime &+ 1] where times.contains(time) { instants.insert(time) }
    }
    let memberLimit = probability ? PointSources.probabilityMemberLimit : 0
    var chosen: [Chosen] = []
    var opened = 0
    for (path, header) in headers {
      let covered = instants.sorted().filter { $0 >= header.firstTime && $0 <= header.lastTime }
      guard covered.contains(where: { time in Self.hasPart(header, at: time, after: chosen, memberLimit: memberLimit) })
      else { continue }
      opened += 1
      // A cube that answers no time of the question is only a time-lagged member, and a
      // member is read for its neighbourhood share alone: its other blocks are not hashed.
      // A version 3 cube is hashed block by block as it is read, whichever it is.
      let answers = covered.contains { time in !chosen.contains { $0.covers(time) } }
      let checksums: ChecksumScope = answers ? .all : .blocks([Metric.precipitationNeighbourhood.name])
      guard let cube = try? Cube(path: path, verifyingOnTouch: checksums, sharingGridWith: chosen.map(\.cube)) else {
        return nil
      }
      let location: PointLocation
      do {
        location = try cube.locate(latitude: latitude, longitude: longitude, method: method)
      } catch .outsideDomain {
        continue
      } catch {
        return nil
      }
      let spans = cube.answeringSteps(location).map {
        cube.time(ofStep: $0.lowerBound)...cube.time(ofStep: $0.upperBound - 1)
      }
      if cube.isMoving {
        for span in spans {
          for time in [span.lowerBound, span.upperBound &+ 1] where times.contains(time) { instants.insert(time) }
        }
      }
      chosen.append(Chosen(cube: cube, spans: spans))
    }
    return chosen.isEmpty ? nil : (chosen.map(\.cube), opened)
  }

  /// A cube chosen to take part, with the valid times at which it holds the point.
  private struct Chosen {
    let cube: Cube
    let spans: [ClosedRange<Int64>]

    func covers(_ time: Int64) -> Bool { spans.contains { $0.contains(time) } }
  }

  /// Whether the cube of `header` answers at `time` or can be one of its members, after the
  /// cubes `before` it that contain the point. The first of those covering the time answers
  /// it, and only cubes of its model and domain can be members.
  private static func hasPart(_ header: CubeHeader, at time: Int64, after before: [Chosen], memberLimit: Int) -> Bool {
    let covering = before.filter { $0.covers(time) }.map(\.cube)
    guard let answering = covering.first else { return true }
    guard answering.header.model == header.model, answering.header.domain == header.domain else { return false }
    let members = covering.filter {
      $0.header.model == header.model && $0.header.domain == header.domain && !$0.beginsRun(at: time)
    }
    return members.count < memberLimit
  }
}
