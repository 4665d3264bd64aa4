#pragma once

#include "core/policy/RunTimelineLayout.h"
#include "core/wire/SparkJobRun.h"

#include <QWidget>

#include <vector>

namespace jobdeck {

// Runs over time, so a user sees when a Job ran at its cap: one bar per run on the lanes of
// RunTimelineLayout (queued part light, running part solid, coloured by status), and below them the
// number of active runs over time with the limit as a line and the at-cap stretches shaded.
class RunTimeline final : public QWidget {
    Q_OBJECT
public:
    explicit RunTimeline(QWidget* parent = nullptr);

    // `limit` 0: several Jobs with different limits, so no limit line.
    void setRuns(std::vector<SparkJobRun> runs, int limit, TimePoint now);
    const RunTimelineLayout& layoutData() const { return m_layout; }
    const std::vector<SparkJobRun>& runs() const { return m_runs; }
    int limit() const { return m_limit; }

    QSize sizeHint() const override { return {600, 220}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<SparkJobRun> m_runs;
    RunTimelineLayout m_layout;
    int m_limit = 0;
    TimePoint m_now{};
};

} // namespace jobdeck
