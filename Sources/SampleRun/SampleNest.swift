/// A WRF nest (`d02`) inside a sample run's domain that follows a storm, as WRF's
/// vortex-following nests do: it keeps its shape and projection and jumps by whole parent
/// cells (`ratio` nest cells) between output times.
///
/// Positions are given as WRF gives them, by `I_PARENT_START` and `J_PARENT_START`: the
/// parent's (1-based) staggered point on which the nest's south-west corner sits. A nest
/// mass point (i, j) (0-based) then lies `iParentStart − 1.5 + (i + 0.5) / ratio` parent
/// cells east of the parent's first mass point, so that every `ratio`-th nest point, from
/// the second on, coincides with a parent mass point, as in WRF with an odd ratio.
public struct SampleNest: Sendable, Equatable {
  /// One jump of the nest: at `minutes` after the run start it moves `east` and `north`
  /// parent cells (each `ratio` nest cells; negative is west or south).
  public struct Move: Sendable, Equatable {
    /// When the move has happened, minutes after the run start; the output at this time
    /// shows the new position.
    public var minutes: Int
    /// Parent cells east (negative: west).
    public var east: Int
    /// Parent cells north (negative: south).
    public var north: Int

    /// A move of `east` and `north` parent cells, seen from the output `hours` after the start.
    public init(hours: Int, east: Int, north: Int) {
      (minutes, self.east, self.north) = (hours * 60, east, north)
    }
  }

  /// Mass points along the nest's x axis; a multiple of `ratio`, as WRF requires.
  public var westEast: Int
  /// Mass points along the nest's y axis; a multiple of `ratio`.
  public var southNorth: Int
  /// Parent cells per nest cell along each axis (`PARENT_GRID_RATIO`).
  public var ratio: Int
  /// `I_PARENT_START` of the first position.
  public var iParentStart: Int
  /// `J_PARENT_START` of the first position.
  public var jParentStart: Int
  /// The jumps, in time order.
  public var moves: [Move]

  /// A nest with the given shape, first position and jumps.
  public init(westEast: Int, southNorth: Int, ratio: Int, iParentStart: Int, jParentStart: Int, moves: [Move]) {
    self.westEast = westEast
    self.southNorth = southNorth
    self.ratio = ratio
    self.iParentStart = iParentStart
    self.jParentStart = jParentStart
    self.moves = moves
  }

  /// The 3 km nest of the Portugal run: 60 × 45 cells over the coast near Lisbon that
  /// wanders for eighteen hours (east, north, back to an earlier place, west, south) and
  /// then follows the coast north one parent cell every three hours, ending about 190 km
  /// north of where it started, clear of its first position.
  public static let coastalStorm = SampleNest(
    westEast: 60, southNorth: 45, ratio: 3, iParentStart: 46, jParentStart: 28,
    moves: [
      Move(hours: 2, east: 1, north: 0), Move(hours: 3, east: 0, north: 1), Move(hours: 5, east: 1, north: 1),
      Move(hours: 6, east: -1, north: -1), Move(hours: 9, east: 0, north: 2), Move(hours: 12, east: 1, north: 1),
      Move(hours: 15, east: -2, north: 0), Move(hours: 18, east: 0, north: -1),
    ]
      + stride(from: 21, through: 72, by: 3).map { Move(hours: $0, east: $0 % 12 == 0 ? 1 : 0, north: 1) })

  /// The nest's (`I_PARENT_START`, `J_PARENT_START`) at each output time of `spec`.
  public func parentStarts(_ spec: SampleRunSpec) -> [(i: Int, j: Int)] {
    var position = (i: iParentStart, j: jParentStart)
    var next = 0
    return (0..<spec.stepCount).map { step in
      while next < moves.count, moves[next].minutes <= step * spec.stepMinutes {
        position.i += moves[next].east
        position.j += moves[next].north
        next += 1
      }
      return position
    }
  }

  /// The motion in words, for `sample-run --help`.
  public var motionDescription: String {
    let jumps = moves.map { move in
      let hours = move.minutes % 60 == 0 ? "\(move.minutes / 60) h" : "\(move.minutes) min"
      var parts: [String] = []
      if move.east != 0 { parts.append("\(abs(move.east)) \(move.east > 0 ? "east" : "west")") }
      if move.north != 0 { parts.append("\(abs(move.north)) \(move.north > 0 ? "north" : "south")") }
      return "\(hours): \(parts.joined(separator: " "))"
    }
    return
      "d02 is \(westEast) × \(southNorth) cells, \(ratio) per d01 cell, starting at I_PARENT_START "
      + "\(iParentStart), J_PARENT_START \(jParentStart); it jumps by whole d01 cells (\(ratio) d02 cells) "
      + "at \(jumps.joined(separator: "; "))."
  }

  /// Refuses a nest WRF could not run in `spec`'s domain: a shape that is not a whole
  /// number of parent cells, or a position that leaves the parent.
  func validated(in spec: SampleRunSpec) throws(SampleRunError) {
    guard ratio >= 1, ratio <= 9, ratio % 2 == 1 else {
      throw .invalidSpec("the nest's ratio must be odd and between 1 and 9, got \(ratio)")
    }
    guard westEast >= ratio, southNorth >= ratio, westEast % ratio == 0, southNorth % ratio == 0 else {
      throw .invalidSpec("the nest's \(westEast) × \(southNorth) points must be whole multiples of its ratio \(ratio)")
    }
    guard westEast <= 2000, southNorth <= 2000 else {
      throw .invalidSpec("the nest is larger than 2000 × 2000 points")
    }
    guard moves.allSatisfy({ abs($0.east) <= 1000 && abs($0.north) <= 1000 }),
      zip(moves, moves.dropFirst()).allSatisfy({ $0.minutes <= $1.minutes })
    else { throw .invalidSpec("the nest's moves must be in time order and within the parent") }
    for (step, start) in parentStarts(spec).enumerated() {
      // One parent cell of margin on every side, as WRF keeps a nest off its parent's edge.
      guard start.i >= 2, start.j >= 2, start.i + westEast / ratio <= spec.westEast,
        start.j + southNorth / ratio <= spec.southNorth
      else {
        throw .invalidSpec(
          "at step \(step) the nest (I_PARENT_START \(start.i), J_PARENT_START \(start.j)) leaves the "
            + "\(spec.westEast) × \(spec.southNorth) parent domain")
      }
    }
  }
}
