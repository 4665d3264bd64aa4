#include "widgets/ParameterDiffView.h"

#include "core/parameters/SecretMasking.h"
#include "models/ThemeColors.h"

#include <QTextBlock>

#include <algorithm>

namespace jobdeck {

ParameterDiffView::ParameterDiffView(QWidget* parent)
    : QPlainTextEdit(parent) {
    setObjectName(QStringLiteral("parameterDiffView"));
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
}

int ParameterDiffView::count(ParameterDiffLine::Kind kind) const {
    return int(
        std::count_if(m_lines.begin(), m_lines.end(), [kind](const auto& l) { return l.kind == kind; }));
}

bool ParameterDiffView::hasChanges() const {
    return std::any_of(m_lines.begin(), m_lines.end(),
                       [](const auto& l) { return l.kind != ParameterDiffLine::Kind::Same; });
}

QString ParameterDiffView::summary() const {
    using K = ParameterDiffLine::Kind;
    if (!hasChanges())
        return tr("Parameters unchanged");
    return tr("%1 added, %2 removed, %3 changed")
        .arg(count(K::Added))
        .arg(count(K::Removed))
        .arg(count(K::Changed));
}

void ParameterDiffView::setParameters(const std::vector<std::string>& before,
                                      const std::vector<std::string>& after) {
    std::vector<ParameterDiffLine> lines = diffParameters(before, after);
    if (lines == m_lines)
        return;
    m_lines = std::move(lines);
    setPlainText(linesText(maskParameters(before), maskParameters(after)).join(QLatin1Char('\n')));
    markChangedLines();
}

// Each line as the preview shows the statement: secret values as ****, a changed one said to be new.
QStringList ParameterDiffView::linesText(const std::vector<std::string>& shownBefore,
                                         const std::vector<std::string>& shownAfter) const {
    using K = ParameterDiffLine::Kind;
    const auto shown = [](const std::vector<std::string>& list, int index) {
        return QString::fromStdString(list.at(static_cast<std::size_t>(index)));
    };
    QStringList text;
    text.reserve(qsizetype(m_lines.size()));
    for (const ParameterDiffLine& l : m_lines) {
        switch (l.kind) {
        case K::Same:
            text << QStringLiteral("  ") + shown(shownAfter, l.afterIndex);
            break;
        case K::Added:
            text << QStringLiteral("+ ") + shown(shownAfter, l.afterIndex);
            break;
        case K::Removed:
            text << QStringLiteral("- ") + shown(shownBefore, l.beforeIndex);
            break;
        case K::Changed: {
            const QString was = shown(shownBefore, l.beforeIndex);
            const QString now = shown(shownAfter, l.afterIndex);
            text << (was == now ? tr("~ %1  →  %2 (a new secret value)") : QStringLiteral("~ %1  →  %2"))
                        .arg(was, now);
            break;
        }
        }
    }
    return text;
}

void ParameterDiffView::markChangedLines() {
    using K = ParameterDiffLine::Kind;
    QList<QTextEdit::ExtraSelection> selections;
    QTextBlock block = document()->begin();
    for (const ParameterDiffLine& l : m_lines) {
        if (l.kind != K::Same) {
            QTextEdit::ExtraSelection s;
            s.cursor = QTextCursor(block);
            s.format.setProperty(QTextFormat::FullWidthSelection, true);
            s.format.setBackground(ThemeColors::color(l.kind == K::Added     ? ThemeColor::DiffAdded
                                                      : l.kind == K::Removed ? ThemeColor::DiffRemoved
                                                                             : ThemeColor::DiffChanged,
                                                      palette()));
            selections << s;
        }
        block = block.next();
    }
    setExtraSelections(selections);
}

} // namespace jobdeck
