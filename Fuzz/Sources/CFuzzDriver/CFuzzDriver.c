// The module exists for its header: the declaration of libFuzzer's driver entry point.
#include "CFuzzDriver.h"
