// Must not compile: the stores layer sees no header of the statements above it.
#include "service/statements/StatementExecutor.h"
