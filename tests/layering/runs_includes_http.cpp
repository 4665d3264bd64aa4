// Must not compile: the runs layer sees no header of the HTTP routes above it.
#include "service/http/LogRoutes.h"
