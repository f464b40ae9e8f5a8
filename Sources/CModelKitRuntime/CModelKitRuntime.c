// CModelKitRuntime only declares Swift runtime functions (see include/CModelKitRuntime.h); a C
// target needs one source file.
#include "CModelKitRuntime.h"
