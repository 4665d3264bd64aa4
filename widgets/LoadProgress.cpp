#include "widgets/LoadProgress.h"

#include <QLocale>

namespace jobdeck {

LoadProgress::LoadProgress(QWidget* parent)
    : QProgressBar(parent) {
    setObjectName(QStringLiteral("loadProgress"));
    setTextVisible(true);
    setMaximumWidth(fontMetrics().averageCharWidth() * 40);
    hide();
}

QString LoadProgress::sizeText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

void LoadProgress::onTransfer(qint64 received, qint64 total) {
    if (total <= 0 || total < m_threshold)
        return;
    // QProgressBar counts in int: kilobytes keep a 69 MB answer well inside it.
    setMaximum(int(total / 1024) + 1);
    setValue(int(received / 1024) + (received >= total ? 1 : 0));
    setFormat(tr("Loading: %1 of %2").arg(sizeText(received), sizeText(total)));
    setVisible(received < total);
}

} // namespace jobdeck
