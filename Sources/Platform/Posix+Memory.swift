extension Posix {
  /// `mmap(2)` of the first `bytes` of the open file: read-only or read-write, shared (the
  /// file's pages, written back to it) or private (copy on write). Unmap with `munmap`.
  public static func mmap(
    _ descriptor: Int32, bytes: Int, writable: Bool = false, shared: Bool = true
  ) throws(Errno) -> UnsafeMutableRawPointer {
    guard let mapping = system_mmap(descriptor, bytes, writable: writable, shared: shared) else {
      throw .current("mmap")
    }
    return mapping
  }

  /// `munmap(2)`. It fails only for a range that is not a mapping, a caller's mistake that
  /// leaves nothing to do.
  public static func munmap(_ mapping: UnsafeMutableRawPointer, bytes: Int) { _ = system_munmap(mapping, bytes) }

  /// `msync(2)` with `MS_SYNC`: the mapping's changed pages written to the file and on the
  /// disk.
  public static func msync(_ mapping: UnsafeMutableRawPointer, bytes: Int) throws(Errno) {
    guard system_msync(mapping, bytes) == 0 else { throw .current("msync") }
  }

  /// `madvise(2)` with `MADV_DONTNEED`: the process lets go of a mapping's pages, which a
  /// later read faults in again from the file. For a private mapping that was never written
  /// that gives the same bytes; it is only advice, so it does not throw.
  public static func discardPages(_ mapping: UnsafeMutableRawPointer, bytes: Int) {
    _ = system_discardPages(mapping, bytes)
  }

  /// `madvise(2)` with `MADV_HUGEPAGE`: asks the kernel to back an anonymous region with
  /// 2 MiB pages where it can, so that first touching it takes one fault and one clearing
  /// per 2 MiB instead of per 4 KiB page (on the virtual machines ingest runs on, each
  /// fault of a fresh page also costs the host a fault). Only advice: it does not throw, and
  /// nothing changes where transparent huge pages are off or unknown.
  public static func adviseHugePages(_ region: UnsafeMutableRawPointer, bytes: Int) {
    _ = system_adviseHugePages(region, bytes)
  }

  /// `memcmp(3)` of `count` bytes: whether they are the same, at the C library's speed.
  public static func bytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
    system_memcmp(first, second, count) == 0
  }

  /// `sysconf(_SC_PAGESIZE)`, at least 1.
  public static var pageSize: Int { max(system_pageSize(), 1) }

  /// Lets glibc's allocator keep up to `bytes` freed rather than returning them to the
  /// kernel, and serve allocations up to that size from its heap (`mallopt`'s
  /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD`). Nothing changes where the C library is not
  /// glibc.
  public static func keepFreedMemory(upTo bytes: Int32) {
    _ = system_mallopt(-3, bytes)
    _ = system_mallopt(-1, bytes)
  }
}
