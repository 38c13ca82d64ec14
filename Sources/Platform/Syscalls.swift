import CWriteback

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The C calls themselves, each made here and nowhere else in the product. `Posix`'s
// wrappers cannot call them by their own names (a static `Posix.open` hides the C `open`
// inside the type), so each has a `system_` name, as in swift-system. Each returns what
// the C call returns and leaves `errno` as the call left it.

func system_open(_ path: String, _ flags: Int32, _ permissions: UInt32) -> Int32 {
  open(path, flags, mode_t(permissions))
}

func system_close(_ descriptor: Int32) -> Int32 { close(descriptor) }

func system_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(descriptor, buffer.baseAddress, buffer.count)
}

func system_pread(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) -> Int {
  pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
}

func system_pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
  pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset))
}

func system_ftruncate(_ descriptor: Int32, _ size: Int) -> Int32 { ftruncate(descriptor, off_t(size)) }

func system_fsync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }

func system_startWriteback(_ descriptor: Int32, _ offset: Int, _ count: Int) -> Int32 {
  nwp_start_writeback(descriptor, Int64(offset), Int64(count))
}

func system_pwriteDirect(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
  Int(nwp_pwrite_direct(descriptor, bytes.baseAddress, Int64(bytes.count), Int64(offset)))
}

func system_unlink(_ path: String) -> Int32 { unlink(path) }

func system_rename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }

func system_mkdir(_ path: String, _ permissions: UInt32) -> Int32 { mkdir(path, mode_t(permissions)) }

func system_access(_ path: String, readable: Bool, writable: Bool, searchable: Bool) -> Int32 {
  access(path, (readable ? R_OK : 0) | (writable ? W_OK : 0) | (searchable ? X_OK : 0))
}

func system_stat(_ path: String) -> FileStatus? {
  var status = stat()
  return stat(path, &status) == 0 ? FileStatus(status) : nil
}

func system_lstat(_ path: String) -> FileStatus? {
  var status = stat()
  return lstat(path, &status) == 0 ? FileStatus(status) : nil
}

func system_fstat(_ descriptor: Int32) -> FileStatus? {
  var status = stat()
  return fstat(descriptor, &status) == 0 ? FileStatus(status) : nil
}

func system_flock(_ descriptor: Int32, exclusive: Bool, wait: Bool) -> Int32 {
  flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB))
}

/// `opendir`/`readdir`/`closedir`: the names, or nil with `errno` when the directory cannot
/// be opened.
func system_readdir(_ path: String) -> [String]? {
  guard let stream = opendir(path) else { return nil }
  defer { closedir(stream) }
  var names: [String] = []
  while let entry = readdir(stream) {
    names.append(
      withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      })
  }
  return names
}

func system_mmap(_ descriptor: Int32, _ bytes: Int, writable: Bool, shared: Bool) -> UnsafeMutableRawPointer? {
  let mapping = mmap(
    nil, bytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, shared ? MAP_SHARED : MAP_PRIVATE, descriptor, 0)
  guard let mapping, mapping != MAP_FAILED else { return nil }
  return mapping
}

func system_munmap(_ mapping: UnsafeMutableRawPointer, _ bytes: Int) -> Int32 { munmap(mapping, bytes) }

func system_msync(_ mapping: UnsafeMutableRawPointer, _ bytes: Int) -> Int32 { msync(mapping, bytes, MS_SYNC) }

func system_discardPages(_ mapping: UnsafeMutableRawPointer, _ bytes: Int) -> Int32 {
  madvise(mapping, bytes, Int32(MADV_DONTNEED))
}

func system_adviseHugePages(_ region: UnsafeMutableRawPointer, _ bytes: Int) -> Int32 {
  #if os(Linux)
    madvise(region, bytes, Int32(MADV_HUGEPAGE))
  #else
    0
  #endif
}

func system_memcmp(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, _ count: Int) -> Int32 {
  memcmp(first, second, count)
}

func system_pageSize() -> Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

func system_getpid() -> Int32 { getpid() }

func system_kill(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid, signal) }

func system_gethostname() -> String? {
  var buffer = [CChar](repeating: 0, count: 256)
  guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
  return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func system_time() -> Int64 { Int64(time(nil)) }

func system_monotonicNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// `getrusage(RUSAGE_SELF)`'s `ru_maxrss` in bytes (Linux counts KiB, Darwin bytes).
func system_peakResidentBytes() -> Int? {
  var usage = rusage()
  #if os(Linux)
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
    return Int(usage.ru_maxrss) * 1024
  #else
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
    return Int(usage.ru_maxrss)
  #endif
}

/// glibc's `mallopt`, looked up: malloc.h is not in Swift's Glibc module. Its options are
/// glibc's fixed values (M_TRIM_THRESHOLD −1, M_MMAP_THRESHOLD −3). False where there is no
/// `mallopt` (not glibc), and nothing changes.
func system_mallopt(_ option: Int32, _ value: Int32) -> Bool {
  #if canImport(Glibc)
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
    return unsafeBitCast(symbol, to: MallOpt.self)(option, value) == 1
  #else
    return false
  #endif
}

#if os(Linux)
  func system_inotify_init() -> Int32 { inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC)) }

  func system_inotify_add_watch(_ descriptor: Int32, _ path: String, _ events: UInt32) -> Int32 {
    inotify_add_watch(descriptor, path, events)
  }

  func system_queuedBytes(_ descriptor: Int32) -> Int? {
    var queued: CInt = 0
    return ioctl(descriptor, UInt(FIONREAD), &queued) == 0 ? Int(queued) : nil
  }
#endif
