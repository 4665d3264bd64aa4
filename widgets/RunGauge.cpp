#include "widgets/RunGauge.h"

#include "core/policy/RunOutcome.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"

#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace jobdeck {

RunGauge::RunGauge(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Active (queued or running) runs against the maximum number of concurrent runs"));
}

void RunGauge::setValues(int active, int limit) {
    m_active = std::max(0, active);
    m_limit = std::max(1, limit);
    setAccessibleName(text());
    update();
}

void RunGauge::setCluster(const QString& cluster, int inUse, int maxOcu) {
    m_cluster = cluster;
    setToolTip(tr("Drivers running or being started on cluster %1 against its MAX_OCU").arg(cluster));
    setValues(inUse, maxOcu);
}

int RunGauge::shownActive() const {
    return std::clamp(m_active, 0, m_limit);
}

QString RunGauge::text() const {
    if (!m_cluster.isEmpty())
        return q(clusterDriversText(m_cluster.toStdString(), m_active, m_limit));
    QString text = tr("%1 of %2 active").arg(shownActive()).arg(m_limit);
    if (m_active > m_limit)
        text += tr(" (%1 more started before the limit was lowered)").arg(m_active - m_limit);
    else if (m_active == m_limit)
        text += tr(" (at the limit)");
    return text;
}

QSize RunGauge::sizeHint() const {
    return {320, fontMetrics().height() + 12};
}
QSize RunGauge::minimumSizeHint() const {
    return {120, fontMetrics().height() + 12};
}

void RunGauge::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF frame = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(palette().color(QPalette::Base));
    painter.drawRoundedRect(frame, 3, 3);

    // One segment per allowed run, so "n of max" reads at a glance.
    const double segment = (frame.width() - 2) / m_limit;
    const QColor fill =
        ThemeColors::color(m_active >= m_limit ? ThemeColor::GaugeFull : ThemeColor::GaugeFill, palette());
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    for (int i = 0; i < shownActive(); ++i) {
        const QRectF cell(frame.left() + 1 + i * segment, frame.top() + 1, segment - (m_limit > 1 ? 1 : 0),
                          frame.height() - 2);
        painter.drawRect(cell);
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(frame, Qt::AlignCenter, text());
}

} // namespace jobdeck
