// Control: the stores layer includes its own headers and core's.
#include "service/stores/Stores.h"
#include "core/wire/ApiStatus.h"

namespace jobdeck {
ApiStatus layeringProbeStores(Stores&);
} // namespace jobdeck
