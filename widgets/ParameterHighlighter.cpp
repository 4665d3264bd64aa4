#include "widgets/ParameterHighlighter.h"

#include "models/ThemeColors.h"

#include <QTextBlock>
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
    return ThemeColors::color(ThemeColor::ArgumentBackground);
}

ParameterHighlighter::ParameterHighlighter(QTextDocument* document)
    : QObject(document)
    , m_document(document) {
    auto set = [this](Style s, QTextCharFormat f) { m_formats[static_cast<std::size_t>(s)] = std::move(f); };
    set(Style::OptionName, colored(ThemeColors::color(ThemeColor::OptionName), true));
    set(Style::OptionValue, colored(ThemeColors::color(ThemeColor::OptionValue)));
    set(Style::ConfKey, colored(ThemeColors::color(ThemeColor::ConfKey)));
    set(Style::ConfValue, colored(ThemeColors::color(ThemeColor::OptionValue)));
    set(Style::HudiKey, colored(ThemeColors::color(ThemeColor::HudiKey), true));
    set(Style::HudiValue, colored(ThemeColors::color(ThemeColor::OptionValue)));
    set(Style::PairSeparator, colored(ThemeColors::color(ThemeColor::PairSeparator)));
    QTextCharFormat path = colored(ThemeColors::color(ThemeColor::ApplicationPath), true);
    path.setFontUnderline(false);
    set(Style::ApplicationPath, path);
    QTextCharFormat argument = colored(ThemeColors::color(ThemeColor::ArgumentText));
    argument.setBackground(argumentZoneColor());
    set(Style::ApplicationArgument, argument);
    QTextCharFormat misplaced = colored(ThemeColors::color(ThemeColor::MisplacedText));
    misplaced.setBackground(ThemeColors::color(ThemeColor::MisplacedBackground));
    misplaced.setFontItalic(true);
    set(Style::MisplacedHudiConf, misplaced);
    QTextCharFormat notApplied = colored(ThemeColors::color(ThemeColor::NotAppliedText));
    notApplied.setFontStrikeOut(true);
    set(Style::NotApplied, notApplied);
    set(Style::RefusedOption, colored(ThemeColors::color(ThemeColor::ErrorText), true));
    set(Style::UnknownOption, colored(ThemeColors::color(ThemeColor::ErrorText)));
    QTextCharFormat error;
    error.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    error.setUnderlineColor(ThemeColors::color(ThemeColor::ErrorUnderline));
    set(Style::Error, error);
    QTextCharFormat warning;
    warning.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    warning.setUnderlineColor(ThemeColors::color(ThemeColor::WarningUnderline));
    set(Style::Warning, warning);
}

int ParameterHighlighter::setLines(const std::vector<LineSpans>& lines) {
    m_lines.resize(lines.size());
    int redone = 0;
    QTextBlock block = m_document->firstBlock();
    int blockLine = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i] == m_lines[i])
            continue;
        m_lines[i] = lines[i];
        // Changed lines are few and usually close together: walk from the last one when it is near.
        const int line = int(i);
        if (line - blockLine > 64 || !block.isValid())
            block = m_document->findBlockByNumber(line);
        else
            for (; blockLine < line && block.isValid(); ++blockLine)
                block = block.next();
        blockLine = line;
        if (!block.isValid())
            break;
        QTextLayout* layout = block.layout();
        QList<QTextLayout::FormatRange> ranges = formatRanges(m_lines[i], block.length() - 1);
        // An input method's preedit text keeps the formats it was given.
        const int preeditStart = layout->preeditAreaPosition();
        const int preeditEnd = preeditStart + int(layout->preeditAreaText().size());
        if (preeditEnd > preeditStart)
            for (const QTextLayout::FormatRange& r : layout->formats())
                if (r.start >= preeditStart && r.start + r.length <= preeditEnd)
                    ranges.append(r);
        ++redone;
        if (ranges == layout->formats())
            continue;
        layout->setFormats(ranges);
        // One block's worth: the plain-text layout lays out and repaints just this line.
        m_document->markContentsDirty(block.position(), block.length());
    }
    return redone;
}

QList<QTextLayout::FormatRange> ParameterHighlighter::formatRanges(const LineSpans& line, int length) const {
    // Per UTF-16 unit, the style of its colour and of its underline (-1: none); later spans win.
    constexpr int none = -1;
    std::vector<std::pair<int, int>> styles(static_cast<std::size_t>(std::max(0, length)), {none, none});
    auto paint = [&](const std::vector<Span>& spans, bool underline) {
        for (const Span& s : spans) {
            // The spans may be a keystroke old while the editor's re-check is pending: clamp, never overrun.
            const int start = std::clamp(s.start, 0, length);
            const int end = start + std::clamp(s.length, 0, length - start);
            for (int c = start; c < end; ++c)
                (underline ? styles[std::size_t(c)].second : styles[std::size_t(c)].first) = int(s.style);
        }
    };
    paint(line.spans, false);
    paint(line.underlines, true);
    QList<QTextLayout::FormatRange> ranges;
    for (int c = 0; c < length;) {
        const std::pair<int, int> style = styles[std::size_t(c)];
        int end = c + 1;
        while (end < length && styles[std::size_t(end)] == style)
            ++end;
        if (style.first != none || style.second != none) {
            QTextCharFormat f = style.first != none ? format(Style(style.first)) : QTextCharFormat();
            // The underline is merged over the colour, so the colour stays under it.
            if (style.second != none)
                f.merge(format(Style(style.second)));
            if (!ranges.isEmpty() && ranges.back().start + ranges.back().length == c &&
                ranges.back().format == f)
                ranges.back().length += end - c; // equal formats under different styles make one run
            else
                ranges.append({c, end - c, f});
        }
        c = end;
    }
    return ranges;
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

} // namespace jobdeck
