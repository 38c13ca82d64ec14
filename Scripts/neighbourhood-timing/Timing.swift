import Foundation
import GridGeometry

/// The scale study's grids: the set-up's time and one step's, whole grid and in bands.
public enum Timing {
  /// The least times over `rounds` runs of `body`, in seconds: this thread's CPU time,
  /// the whole process's (every thread's) and wall time. CPU time does not count other
  /// work on a shared machine; wall time does.
  static func seconds(_ body: () -> Void) -> Times {
    var best = Times(thread: .infinity, process: .infinity, wall: .infinity)
    for _ in 0..<rounds {
      let (thread, process, wall) = (
        clock(CLOCK_THREAD_CPUTIME_ID), clock(CLOCK_PROCESS_CPUTIME_ID), clock(CLOCK_MONOTONIC)
      )
      body()
      best.thread = min(best.thread, clock(CLOCK_THREAD_CPUTIME_ID) - thread)
      best.process = min(best.process, clock(CLOCK_PROCESS_CPUTIME_ID) - process)
      best.wall = min(best.wall, clock(CLOCK_MONOTONIC) - wall)
    }
    return best
  }

  /// One measurement's three times.
  struct Times: CustomStringConvertible {
    var thread: Double
    var process: Double
    var wall: Double
    var description: String {
      String(format: "%.3f s (all threads %.3f s, wall %.3f s)", thread, process, wall)
    }
  }

  static let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 3

  static func clock(_ id: clockid_t) -> Double {
    var now = timespec()
    clock_gettime(id, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  static func lambert(width: Int, height: Int, dx: Double) -> ([Float], [Float]) {
    let projection = LambertConformal(truelat1: 30, truelat2: 60, standardLongitude: -8)
    let centre = projection.project(latitude: 39.5, longitude: -8)
    var (latitudes, longitudes) = ([Float](), [Float]())
    for j in 0..<height {
      for i in 0..<width {
        let point = projection.unproject(
          x: centre.x + (Double(i) - Double(width - 1) / 2) * dx,
          y: centre.y + (Double(j) - Double(height - 1) / 2) * dx)
        latitudes.append(Float(point.latitude))
        longitudes.append(Float(point.longitude))
      }
    }
    return (latitudes, longitudes)
  }

  static func global(width: Int, height: Int) -> ([Float], [Float]) {
    var (latitudes, longitudes) = ([Float](), [Float]())
    for j in 0..<height {
      for i in 0..<width {
        latitudes.append(Float(90 - 180 * Double(j) / Double(height - 1)))
        longitudes.append(Float(360 * Double(i) / Double(width)))
      }
    }
    return (latitudes, longitudes)
  }

  public static func run() {
    let grids: [(String, Int, Int, ([Float], [Float]))] = [
      ("135 x 80, 9 km Lambert", 135, 80, lambert(width: 135, height: 80, dx: 9_000)),
      ("800 x 700, 3 km Lambert", 800, 700, lambert(width: 800, height: 700, dx: 3_000)),
      ("1440 x 721, 0.25 deg global", 1440, 721, global(width: 1440, height: 721)),
    ]
    let only = ProcessInfo.processInfo.environment["GRID"]
    for (name, width, height, (latitudes, longitudes)) in grids where only.map({ name.hasPrefix($0) }) ?? true {
      var state: UInt64 = 12345
      let rain = latitudes.indices.map { _ -> Double in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let draw = Double(state >> 11) / Double(1 << 53)
        return draw < 0.02 ? .nan : draw < 0.6 ? 0 : draw * 3
      }
      var made: Built?
      let setUp = seconds { made = build(latitudes, longitudes, width, height) }
      guard let built = made else {
        print("\(name): refused: \(refusal(latitudes, longitudes, width, height))")
        continue
      }
      var checksum = 0.0
      let step = seconds { checksum = built.whole(rain).reduce(0) { $1.isNaN ? $0 : $0 + $1 } }
      let banded: Times? =
        built.bands(rain, width: width, height: height, rows: 64) == nil
        ? nil : seconds { _ = built.bands(rain, width: width, height: height, rows: 64) }
      print(
        "\(name): set-up \(setUp), step \(step)"
          + (banded.map { ", step in 64-row bands \($0)" } ?? "")
          + ", \(built.detail), halo \(built.halo) rows, mean \(String(format: "%.3f", checksum / Double(rain.count)))")
    }
  }
}
