import CubeFormat
import Foundation
import Testing
import _TestSupport

/// What the command line says about a cube whose grid moves: `nwpcube info` lists the
/// positions, and `nwpcube export` warns that a cell is not at one place.
@Suite struct MovingCubeCommandTests {
  @Test func infoListsEachPositionWithItsStepsExtentAndFirstCell() throws {
    let directory = SampleFiles.temporaryDirectory("moving-info")
    defer { SampleFiles.remove(directory) }
    let cube = MovingCube()
    let path = "\(directory)/moving.cube"
    try cube.write(to: path)
    let outcome = try CommandLineTool.run(["info", path])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("positions 3: the grid moves") }, "\(outcome.standardOutput)")
    // The table is 0 0 1 1 0 2 2: steps by position, as ranges.
    let steps = ["0–1, 4", "2–3", "5–6"]
    for position in 0..<3 {
      let grid = try cube.grid(position)
      let expected =
        "\(position) steps \(steps[position]); latitude \(grid.latitudes.min()!)…\(grid.latitudes.max()!), longitude \(grid.longitudes.min()!)…\(grid.longitudes.max()!); cell (0, 0) at \(grid.latitudes[0]), \(grid.longitudes[0])"
      #expect(
        lines.contains { $0.trimmingCharacters(in: .whitespaces) == expected }, "position \(position): \(expected)")
    }

    let json = try CommandLineTool.run(["info", "--json", path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["positions"] as? Int == 3)
    #expect(object["step_positions"] as? [Int] == cube.table)
  }

  @Test func infoOfAGridThatDoesNotMoveHasNoPositionLines() throws {
    let directory = SampleFiles.temporaryDirectory("moving-info")
    defer { SampleFiles.remove(directory) }
    let cube = MovingCube.still
    let path = "\(directory)/still.cube"
    try cube.write(to: path)
    let outcome = try CommandLineTool.run(["info", path])
    #expect(outcome.status == 0 && !outcome.standardOutput.contains("positions"), "\(outcome.standardOutput)")
    let json = try CommandLineTool.run(["info", "--json", path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["positions"] as? Int == 1 && object["step_positions"] == nil)
  }

  @Test func exportSaysThatACellMovesAndWhereToLook() throws {
    let directory = SampleFiles.temporaryDirectory("moving-export")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/moving.cube"
    try MovingCube().write(to: path)
    let outcome = try CommandLineTool.run(["export", path, "--metric", "temp", "--out", "\(directory)/temp.f32"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(
      outcome.standardError.contains(
        "the grid moves (3 positions): cell (i, j) is at a different place at different steps; nwpcube info \(path) lists where"
      ), "\(outcome.standardError)")
    let help = try CommandLineTool.run(["export", "--help"])
    // The help is wrapped to the terminal: compared with its words joined by single spaces.
    let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains("cell (i, j) is at a different place at different steps. nwpcube info lists the positions"),
      "\(words)")
  }
}
