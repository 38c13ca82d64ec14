// Header-only module; SwiftPM needs one source file per C target.
#include "CFileSystemType.h"
