#pragma once

#include <QProgressBar>

namespace jobdeck {

// The status bar's progress for long loads: bytes received of the total the answer announced. It
// shows while an answer of at least threshold() bytes arrives and hides when it is complete.
class LoadProgress final : public QProgressBar {
    Q_OBJECT
public:
    explicit LoadProgress(QWidget* parent = nullptr);

    void setThreshold(qint64 bytes) { m_threshold = bytes; }
    qint64 threshold() const { return m_threshold; }
    // From ApiClient::transferProgress.
    void onTransfer(qint64 received, qint64 total);
    static QString sizeText(qint64 bytes);

private:
    qint64 m_threshold = 512 * 1024;
};

} // namespace jobdeck
