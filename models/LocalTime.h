#pragma once

#include "core/wire/Timestamp.h"

#include <QDateTime>
#include <QString>

namespace jobdeck {

// `t` as a UTC QDateTime, to the millisecond.
QDateTime utcDateTime(TimePoint t);

// A time as every view shows it: local time to the second, in one sortable form that no locale makes
// ambiguous (2026-12-05 19:56:02). Exports and tooltips give core's UTC timestamp instead.
QString localTimeText(TimePoint t);

// The UTC timestamp of the wire (2026-12-05T19:56:02.123Z): what a time's tooltip and export give.
QString utcTimestampText(TimePoint t);

} // namespace jobdeck
