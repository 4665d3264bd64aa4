// Must not compile: the stores layer sees no header of the runs layer above it.
#include "service/runs/RunManager.h"
