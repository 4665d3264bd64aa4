#pragma once

#include "core/parameters/ParameterLineAnalysis.h"

#include <QList>
#include <QObject>
#include <QTextCharFormat>
#include <QTextLayout>

#include <array>
#include <vector>

class QTextDocument;

namespace jobdeck {

// Colours the parameter editor from what the core classifier and validator found; it has no rules of its
// own. The editor hands it, per line, the spans to colour and the spans to underline, and asks it to redo
// only the lines whose spans changed. It sets a line's formats on the block's layout itself rather than
// through QSyntaxHighlighter, whose re-highlight marks twice the block's length dirty and so makes the
// plain-text layout repaint the whole viewport for every line it touches.
class ParameterHighlighter final : public QObject {
    Q_OBJECT
public:
    // What to draw is decided by core (analyseParameterLines); these name it here.
    using Style = ParameterSpanStyle;
    using Span = ParameterSpan;
    using LineSpans = ParameterLineSpans;

    explicit ParameterHighlighter(QTextDocument* document);

    // Replaces the spans of every line and re-highlights the lines that changed; returns how many.
    int setLines(const std::vector<LineSpans>& lines);
    // An edit replaced `removed` lines from `first` on with `inserted` new ones: the lines after them keep
    // their spans (and formats), the new ones are re-highlighted by the next setLines().
    void spliceLines(int first, int removed, int inserted);
    const QTextCharFormat& format(Style style) const { return m_formats[static_cast<std::size_t>(style)]; }
    static QColor argumentZoneColor();

private:
    // The layout formats of a line `length` UTF-16 units long: the base colours, the underline merged over
    // them, in runs of equal formats.
    QList<QTextLayout::FormatRange> formatRanges(const LineSpans& line, int length) const;

    QTextDocument* m_document;
    std::array<QTextCharFormat, static_cast<std::size_t>(Style::Count)> m_formats;
    std::vector<LineSpans> m_lines;
};

} // namespace jobdeck
