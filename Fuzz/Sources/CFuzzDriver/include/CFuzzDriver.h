#ifndef NWPCUBE_CFUZZDRIVER_H
#define NWPCUBE_CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp), linked in by -sanitize=fuzzer:
/// parses libFuzzer's command line and fuzzes `callback`. Each fuzz executable calls it from
/// its own `main`, since SwiftPM links executables against a `<module>_main` entry point
/// and so cannot use the `main` libFuzzer's runtime would provide.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
