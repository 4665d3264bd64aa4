#include "widgets/RunTimeline.h"

#include "models/RunsTableModel.h"
#include "models/ThemeColors.h"

#include <QDateTime>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace jobdeck {

namespace {
constexpr int kMargin = 6;
constexpr int kAxisHeight = 16;

QString clockText(TimePoint t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}
} // namespace

RunTimeline::RunTimeline(QWidget* parent)
    : QWidget(parent) {
    setToolTip(tr("Runs over time (one bar per run; light: queued, solid: running) and the number of active "
                  "runs against the limit; shaded: at the limit"));
}

void RunTimeline::setRuns(std::vector<SparkJobRun> runs, int limit, TimePoint now) {
    m_runs = std::move(runs);
    m_limit = limit;
    m_now = now;
    std::vector<TimelineRun> input;
    input.reserve(m_runs.size());
    for (const SparkJobRun& run : m_runs)
        input.push_back({run.queuedAt, run.startedAt, run.endedAt});
    m_layout = layoutRunTimeline(input, std::max(1, limit), now);
    if (limit <= 0)
        m_layout.atCap.clear();
    update();
}

void RunTimeline::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (m_runs.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No runs to show"));
        return;
    }
    const QRectF area = QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin - kAxisHeight);
    const double span = std::max<double>(
        1.0, static_cast<double>(
                 std::chrono::duration_cast<std::chrono::milliseconds>(m_layout.to - m_layout.from).count()));
    const auto xOf = [&](TimePoint t) {
        const double ms = static_cast<double>(
            std::chrono::duration_cast<std::chrono::milliseconds>(t - m_layout.from).count());
        return area.left() + area.width() * ms / span;
    };

    // Lanes take the upper 60%, the concurrency plot the rest.
    const QRectF lanes(area.left(), area.top(), area.width(), area.height() * 0.6);
    const QRectF plot(area.left(), lanes.bottom() + 4, area.width(), area.bottom() - lanes.bottom() - 4);

    const int levels = std::max({m_layout.peak, m_limit, 1});
    const auto yOf = [&](int level) { return plot.bottom() - plot.height() * level / levels; };
    painter.setPen(Qt::NoPen);
    for (const TimeInterval& cap : m_layout.atCap)
        painter.fillRect(QRectF(QPointF(xOf(cap.start), lanes.top()), QPointF(xOf(cap.end), plot.bottom())),
                         ThemeColors::color(ThemeColor::OverLimitBand));

    const double laneHeight = lanes.height() / std::max(1, m_layout.laneCount);
    for (const TimelineBar& bar : m_layout.bars) {
        const SparkJobRun& run = m_runs[bar.run];
        const double top = lanes.top() + bar.lane * laneHeight + 1;
        const double height = std::max(2.0, laneHeight - 2);
        const double right = std::max(xOf(bar.end), xOf(bar.start) + 2);
        QColor color = RunsTableModel::statusColor(run.status);
        QColor light = color;
        light.setAlpha(80);
        painter.fillRect(QRectF(xOf(bar.start), top, right - xOf(bar.start), height), light);
        if (bar.runningFrom)
            painter.fillRect(QRectF(xOf(*bar.runningFrom), top, right - xOf(*bar.runningFrom), height),
                             color);
    }

    // Concurrency as a step line, and the limit.
    QPainterPath path;
    path.moveTo(plot.left(), yOf(0));
    for (const ConcurrencyStep& step : m_layout.concurrency) {
        path.lineTo(xOf(step.at), path.currentPosition().y());
        path.lineTo(xOf(step.at), yOf(step.level));
    }
    path.lineTo(plot.right(), path.currentPosition().y());
    painter.setPen(QPen(palette().color(QPalette::Text), 1.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    if (m_limit > 0) {
        painter.setPen(QPen(ThemeColors::color(ThemeColor::LimitLine), 1, Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), yOf(m_limit)), QPointF(plot.right(), yOf(m_limit)));
        painter.drawText(QRectF(plot.left(), yOf(m_limit) - 14, plot.width(), 14),
                         Qt::AlignRight | Qt::AlignBottom, tr("limit %1").arg(m_limit));
    }

    painter.setPen(palette().color(QPalette::Text));
    const QRectF axis(area.left(), area.bottom() + 2, area.width(), kAxisHeight);
    painter.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, clockText(m_layout.from));
    painter.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, clockText(m_layout.to));
    painter.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter, tr("peak %1 active").arg(m_layout.peak));
}

} // namespace jobdeck
