#include "widgets/ParameterHighlighter.h"

#include <QTextDocument>

#include <algorithm>

namespace jobdeck {

namespace {

QTextCharFormat colored(const QColor& color, bool bold = false) {
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    return f;
}

} // namespace

QColor ParameterHighlighter::argumentZoneColor() {
    return QColor(0xee, 0xf2, 0xf7);
}

ParameterHighlighter::ParameterHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {
    auto set = [this](Style s, QTextCharFormat f) { m_formats[static_cast<std::size_t>(s)] = std::move(f); };
    set(Style::OptionName, colored(QColor(0x6a, 0x1b, 0x9a), true));
    set(Style::OptionValue, colored(QColor(0x2e, 0x7d, 0x32)));
    set(Style::ConfKey, colored(QColor(0x00, 0x57, 0x9b)));
    set(Style::ConfValue, colored(QColor(0x2e, 0x7d, 0x32)));
    set(Style::HudiKey, colored(QColor(0x00, 0x69, 0x5c), true));
    set(Style::HudiValue, colored(QColor(0x2e, 0x7d, 0x32)));
    set(Style::PairSeparator, colored(QColor(0x75, 0x75, 0x75)));
    QTextCharFormat path = colored(QColor(0xbf, 0x36, 0x0c), true);
    path.setFontUnderline(false);
    set(Style::ApplicationPath, path);
    QTextCharFormat argument = colored(QColor(0x45, 0x5a, 0x64));
    argument.setBackground(argumentZoneColor());
    set(Style::ApplicationArgument, argument);
    QTextCharFormat misplaced = colored(QColor(0x8d, 0x4e, 0x00));
    misplaced.setBackground(QColor(0xff, 0xf3, 0xcd));
    misplaced.setFontItalic(true);
    set(Style::MisplacedHudiConf, misplaced);
    QTextCharFormat notApplied = colored(QColor(0x75, 0x75, 0x75));
    notApplied.setFontStrikeOut(true);
    set(Style::NotApplied, notApplied);
    set(Style::RefusedOption, colored(QColor(0xc6, 0x28, 0x28), true));
    set(Style::UnknownOption, colored(QColor(0xc6, 0x28, 0x28)));
    QTextCharFormat error;
    error.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    error.setUnderlineColor(QColor(0xd3, 0x2f, 0x2f));
    set(Style::Error, error);
    QTextCharFormat warning;
    warning.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    warning.setUnderlineColor(QColor(0xef, 0x8a, 0x00));
    set(Style::Warning, warning);
}

int ParameterHighlighter::setLines(const std::vector<LineSpans>& lines) {
    std::vector<int> changed;
    m_lines.resize(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!(lines[i] == m_lines[i])) {
            m_lines[i] = lines[i];
            changed.push_back(int(i));
        }
    int redone = 0;
    for (int line : changed) {
        const QTextBlock block = document()->findBlockByNumber(line);
        if (!block.isValid())
            break;
        rehighlightBlock(block);
        ++redone;
    }
    return redone;
}

void ParameterHighlighter::spliceLines(int first, int removed, int inserted) {
    const auto size = int(m_lines.size());
    first = std::clamp(first, 0, size);
    removed = std::clamp(removed, 0, size - first);
    const auto at = m_lines.begin() + first;
    LineSpans edited;
    edited.stale = true;
    m_lines.insert(m_lines.erase(at, at + removed), static_cast<std::size_t>(std::max(0, inserted)), edited);
}

void ParameterHighlighter::highlightBlock(const QString& text) {
    const int line = currentBlock().blockNumber();
    if (line < 0 || static_cast<std::size_t>(line) >= m_lines.size())
        return;
    const LineSpans& spans = m_lines[static_cast<std::size_t>(line)];
    const int length = int(text.size());
    // The spans may be a keystroke old while the editor's re-check is pending: clamp, never overrun.
    auto clampSpan = [length](const Span& s, int& start, int& count) {
        start = std::clamp(s.start, 0, length);
        count = std::clamp(s.length, 0, length - start);
        return count > 0;
    };
    int start = 0, count = 0;
    for (const Span& s : spans.spans)
        if (clampSpan(s, start, count))
            setFormat(start, count, format(s.style));
    for (const Span& s : spans.underlines) {
        if (!clampSpan(s, start, count))
            continue;
        const QTextCharFormat& overlay = format(s.style);
        // Merge per run of equal formats so the base colours stay under the underline.
        int pos = start;
        while (pos < start + count) {
            QTextCharFormat merged = QSyntaxHighlighter::format(pos);
            int run = 1;
            while (pos + run < start + count && QSyntaxHighlighter::format(pos + run) == merged)
                ++run;
            merged.merge(overlay);
            setFormat(pos, run, merged);
            pos += run;
        }
    }
}

} // namespace jobdeck
