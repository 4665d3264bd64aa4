#pragma once

#include "core/parameters/ParameterLineAnalysis.h"

#include <QList>
#include <QObject>
#include <QRectF>

#include <functional>
#include <vector>

class QColor;
class QPainter;
class QPlainTextEdit;

namespace jobdeck {

// Hides the secret values of a QPlainTextEdit's lines, as a password field shows typed text: each is
// painted over with a bullet a character, except on the line being edited (the cursor's, while the edit
// has the focus). The text itself is untouched: Save and Copy use what was typed. The edit calls
// paint() at the end of its paintEvent; the mask repaints the viewport when the edited line or the focus
// changes. Ranges come from core's masking rules (ParameterLineSpans::secretValues, pairSecretRanges).
class SecretValueMask final : public QObject {
    Q_OBJECT
public:
    // The secret values of a line (UTF-16 ranges), nullptr when it has none or they are not known yet (a
    // line edited since they were computed).
    using RangesOfLine = std::function<const std::vector<LineRange>*(int line)>;
    // The background the bullets go on, for a line.
    using BackgroundOfLine = std::function<QColor(int line)>;

    SecretValueMask(QPlainTextEdit* edit, RangesOfLine ranges, BackgroundOfLine background);

    // Where secret values are painted over, in viewport coordinates.
    QList<QRectF> hiddenRects() const;
    void paint(QPainter& painter) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Hidden {
        QRectF rect;
        int characters = 0;
        int line = 0;
        bool selected = false;
    };
    std::vector<Hidden> hidden() const;

    QPlainTextEdit* m_edit;
    RangesOfLine m_ranges;
    BackgroundOfLine m_background;
    int m_cursorLine = 0; // as last painted: a move to another line repaints
};

} // namespace jobdeck
