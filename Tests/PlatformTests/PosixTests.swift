import Foundation
import Platform
import Testing
import _TestSupport

/// The system calls behave as their manual pages say, and a failure carries the call and
/// the C library's text for its errno.
@Suite struct PosixTests {
  @Test func openingAMissingFileThrowsNoSuchFileFromOpenWithTheCLibrarysText() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let error = #expect(throws: Errno.self) { try Posix.open("\(directory)/missing", .readOnly) }
    #expect(error?.code == Errno.noSuchFile)
    #expect(error?.call == "open")
    // glibc's text for ENOENT, as `strerror(3)` and `perror(1)` print it.
    #expect(error?.text == "No such file or directory")
    #expect(error?.description == "open: No such file or directory")
  }

  @Test func bytesWrittenWithPwriteAreReadBackByPreadAndByAMapping() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/file"
    let descriptor = try Posix.open(path, [.readWrite, .create, .exclusive, .closeOnExec], permissions: 0o600)
    defer { Posix.close(descriptor) }
    let written: [UInt8] = Array("durable bytes".utf8)
    try Posix.ftruncate(descriptor, to: 100)
    let count = try written.withUnsafeBytes { try Posix.pwrite(descriptor, $0, at: 40) }
    #expect(count == written.count)
    try Posix.fsync(descriptor)
    var read = [UInt8](repeating: 0xFF, count: written.count + 2)
    let got = try read.withUnsafeMutableBytes { try Posix.pread(descriptor, into: $0, at: 39) }
    #expect(got == read.count)
    // The byte before and after are the zeros `ftruncate` gave the file.
    #expect(read == [0] + written + [0])
    // Foundation reads the same file independently.
    let contents = try #require(FileManager.default.contents(atPath: path))
    #expect(Array(contents[40..<53]) == written)
    #expect(try Posix.fstat(descriptor).size == 100)
    let mapping = try Posix.mmap(descriptor, bytes: 100)
    defer { Posix.munmap(mapping, bytes: 100) }
    #expect(Array(UnsafeRawBufferPointer(start: mapping + 40, count: written.count)) == written)
  }

  @Test func creatingAnExistingFileExclusivelyThrowsFileExists() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/file"
    #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
    let error = #expect(throws: Errno.self) { try Posix.open(path, [.writeOnly, .create, .exclusive]) }
    #expect(error?.code == Errno.fileExists)
  }

  @Test func renameReplacesTheDestinationAndStatusSeesTheNewFile() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let (old, new) = ("\(directory)/old", "\(directory)/new")
    #expect(FileManager.default.createFile(atPath: old, contents: Data([1, 2, 3])))
    #expect(FileManager.default.createFile(atPath: new, contents: Data([9])))
    let before = try Posix.stat(old)
    try Posix.rename(old, to: new)
    let after = try Posix.stat(new)
    #expect(after.isSameFile(as: before))
    #expect(after.size == 3)
    #expect(after.kind == .regular)
    #expect(try Posix.stat(directory).kind == .directory)
    #expect((try? Posix.stat(old)) == nil)
    #expect(try Posix.directoryEntries(directory) == ["new"])
  }

  @Test func aSymbolicLinkIsALinkToLstatAndItsTargetToStat() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    try FileManager.default.createSymbolicLink(atPath: "\(directory)/link", withDestinationPath: directory)
    #expect(try Posix.lstat("\(directory)/link").kind == .symbolicLink)
    #expect(try Posix.stat("\(directory)/link").kind == .directory)
  }

  @Test func aSecondExclusiveLockWithoutWaitingThrowsWouldBlockUntilTheFirstCloses() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/lock"
    let first = try Posix.open(path, [.readWrite, .create])
    try Posix.flock(first)
    // flock locks belong to the open file description: a second `open` contends even in
    // the same process.
    let second = try Posix.open(path, .readOnly)
    defer { Posix.close(second) }
    let error = #expect(throws: Errno.self) { try Posix.flock(second, wait: false) }
    #expect(error?.code == Errno.wouldBlock)
    Posix.close(first)
    try Posix.flock(second, wait: false)
  }

  @Test func thisProcessExistsAndAnEndedChildDoesNot() throws {
    #expect(Posix.processExists(Posix.processID))
    #expect(Posix.processID == ProcessInfo.processInfo.processIdentifier)
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    // Reaped by `waitUntilExit`: its PID names no process (unless reused at once, which
    // Linux's PID allocation does not do while PIDs remain).
    #expect(!Posix.processExists(child.processIdentifier))
  }

  @Test func aWatchedDirectoryQueuesAnEventWhenAFileIsCreatedInIt() throws {
    let directory = SampleFiles.temporaryDirectory("posix")
    defer { SampleFiles.remove(directory) }
    let descriptor = try Posix.inotifyInit()
    defer { Posix.close(descriptor) }
    try Posix.inotifyAddWatch(descriptor, directory, [.create, .onlyDirectory])
    #expect(try Posix.queuedBytes(descriptor) == 0)
    #expect(FileManager.default.createFile(atPath: "\(directory)/new", contents: nil))
    #expect(try Posix.queuedBytes(descriptor) > 0)
    // A file is not a directory to watch with `onlyDirectory`.
    let error = #expect(throws: Errno.self) {
      try Posix.inotifyAddWatch(descriptor, "\(directory)/new", [.create, .onlyDirectory])
    }
    #expect(error?.code == Errno.notDirectory)
  }

  @Test func watchEventsHaveTheValuesOfTheKernelsHeader() throws {
    // The kernel's own header (linux-libc-dev), read as text: an oracle independent of the
    // values spelled in WatchEvents.
    let header = try String(contentsOfFile: "/usr/include/linux/inotify.h", encoding: .utf8)
    var defined: [String: UInt32] = [:]
    for line in header.split(separator: "\n") where line.hasPrefix("#define IN_") {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if words.count >= 3, words[2].hasPrefix("0x"), let value = UInt32(words[2].dropFirst(2), radix: 16) {
        defined[String(words[1])] = value
      }
    }
    let spelled: [String: WatchEvents] = [
      "IN_ATTRIB": .attributes, "IN_CLOSE_WRITE": .closeWrite, "IN_MOVED_FROM": .movedFrom, "IN_MOVED_TO": .movedTo,
      "IN_CREATE": .create, "IN_DELETE": .delete, "IN_DELETE_SELF": .deleteSelf, "IN_MOVE_SELF": .moveSelf,
      "IN_ONLYDIR": .onlyDirectory, "IN_DONT_FOLLOW": .dontFollow,
    ]
    for (name, events) in spelled {
      #expect(defined[name] == events.rawValue, "\(name)")
    }
  }

  @Test func thePageSizeIsThePowerOfTwoGetconfReports() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/getconf")
    process.arguments = ["PAGESIZE"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(Posix.pageSize == Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(Posix.pageSize.nonzeroBitCount == 1)
  }
}
