// Must not compile: the statements layer sees no header of the HTTP server and routes above it.
#include "service/http/HttpServer.h"
