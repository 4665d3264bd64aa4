#include "models/LocalTime.h"

#include <QLocale>

#include <chrono>

namespace jobdeck {

QDateTime utcDateTime(TimePoint t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QString localTimeText(TimePoint t) {
    return QLocale().toString(utcDateTime(t).toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString utcTimestampText(TimePoint t) {
    return QString::fromStdString(formatTimestamp(t));
}

} // namespace jobdeck
