#pragma once

#include <QWidget>

namespace jobdeck {

// Active runs against the limit: "n of max". The bar is never drawn above the limit; when more runs are
// active than the limit allows (it was lowered while they ran, and lowering cancels nothing) the text
// says so instead.
class RunGauge final : public QWidget {
    Q_OBJECT
public:
    explicit RunGauge(QWidget* parent = nullptr);

    void setValues(int active, int limit);
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
};

} // namespace jobdeck
