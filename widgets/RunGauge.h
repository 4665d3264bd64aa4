#pragma once

#include <QWidget>

namespace jobdeck {

// Active runs against the limit: "n of max". The bar is never drawn above the limit; when more runs are
// active than the limit allows (it was lowered while they ran, and lowering cancels nothing) the text
// says so instead. A cluster's gauge (setCluster) counts the drivers in use on it against its MAX_OCU.
class RunGauge final : public QWidget {
    Q_OBJECT
public:
    explicit RunGauge(QWidget* parent = nullptr);

    void setValues(int active, int limit);
    // Drivers in use on `cluster` against its MAX_OCU (core clusterDriversText).
    void setCluster(const QString& cluster, int inUse, int maxOcu);
    QString cluster() const { return m_cluster; }
    int active() const { return m_active; }
    int limit() const { return m_limit; }
    // What the bar shows: active runs clamped to [0, limit].
    int shownActive() const;
    QString text() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int m_active = 0;
    int m_limit = 1;
    QString m_cluster; // empty: a job's runs
};

} // namespace jobdeck
