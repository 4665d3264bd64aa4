#include "core/wire/HttpMessages.h"

namespace jobdeck {

std::string tooManyConnectionsMessage() {
    return "Too many connections";
}

std::string tooManyConnectionsFromAddressMessage() {
    return "Too many connections from this address";
}

std::string plainHttpToHttpsPortMessage() {
    return "The plain HTTP request was sent to HTTPS port: this port speaks HTTPS only; use https://";
}

} // namespace jobdeck
