// The target's only content is its header; SwiftPM needs one source file to build it.
#include "CLibFuzzer.h"
