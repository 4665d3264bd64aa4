// Must not compile: the HTTP layer sees no header of ServiceApp, which wires the layers together above it.
#include "service/ServiceApp.h"
