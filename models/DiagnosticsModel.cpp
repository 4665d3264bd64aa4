#include "models/DiagnosticsModel.h"

#include "models/ThemeColors.h"

#include <QColor>
#include <QStringList>

#include <algorithm>

namespace jobdeck {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

namespace {

// What a row shows (its fixes by title). A row that shows the same is kept as it was, with the fixes it had:
// comparing (or copying) the corrected lists of a long Job on every keystroke would cost more than the
// rest of the update, so a fix to apply is looked up when it is chosen (DiagnosticsPanel's fix provider).
bool sameRow(const Diagnostic& a, int lineA, const Diagnostic& b, int lineB) {
    return lineA == lineB && a.severity == b.severity && a.tokenIndex == b.tokenIndex && a.code == b.code &&
           a.message == b.message &&
           std::equal(a.fixes.begin(), a.fixes.end(), b.fixes.begin(), b.fixes.end(),
                      [](const Fix& x, const Fix& y) { return x.title == y.title; });
}

} // namespace

void DiagnosticsModel::setDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                      const std::vector<int>& lines) {
    const auto lineAt = [&](std::size_t n) { return n < lines.size() ? lines[n] : -1; };
    const int oldCount = rowCount(), newCount = int(diagnostics.size());
    if (oldCount == 0 || newCount == 0) {
        if (oldCount == newCount)
            return;
        beginResetModel();
        m_diagnostics = diagnostics;
        m_lines.resize(diagnostics.size());
        for (std::size_t n = 0; n < diagnostics.size(); ++n)
            m_lines[n] = lineAt(n);
        endResetModel();
        return;
    }
    // A keystroke changes a few rows: keep the rows before and after them, so a view keeps its selection
    // and scroll position while the user types and repaints only what changed, and only the changed rows
    // are copied.
    auto same = [&](int oldRow, int newRow) {
        const auto o = static_cast<std::size_t>(oldRow), n = static_cast<std::size_t>(newRow);
        return sameRow(m_diagnostics[o], m_lines[o], diagnostics[n], lineAt(n));
    };
    int prefix = 0;
    while (prefix < oldCount && prefix < newCount && same(prefix, prefix))
        ++prefix;
    int suffix = 0;
    while (suffix < oldCount - prefix && suffix < newCount - prefix &&
           same(oldCount - 1 - suffix, newCount - 1 - suffix))
        ++suffix;
    const int oldMiddle = oldCount - prefix - suffix, newMiddle = newCount - prefix - suffix;
    if (oldMiddle == 0 && newMiddle == 0)
        return;
    // Rows both lists have are replaced in place; then the rows only one of them has are inserted or
    // removed, so no row changes inside an insert or remove (views and proxies rely on that).
    const int changed = std::min(oldMiddle, newMiddle);
    for (int n = prefix; n < prefix + changed; ++n) {
        m_diagnostics[std::size_t(n)] = diagnostics[std::size_t(n)];
        m_lines[std::size_t(n)] = lineAt(std::size_t(n));
    }
    if (changed > 0)
        emit dataChanged(index(prefix, 0), index(prefix + changed - 1, ColumnCount - 1));
    const int tail = prefix + changed;
    if (newMiddle < oldMiddle) {
        beginRemoveRows({}, tail, prefix + oldMiddle - 1);
        m_diagnostics.erase(m_diagnostics.begin() + tail, m_diagnostics.begin() + prefix + oldMiddle);
        m_lines.erase(m_lines.begin() + tail, m_lines.begin() + prefix + oldMiddle);
        endRemoveRows();
    } else if (newMiddle > oldMiddle) {
        beginInsertRows({}, tail, prefix + newMiddle - 1);
        m_diagnostics.insert(m_diagnostics.begin() + tail, diagnostics.begin() + tail,
                             diagnostics.begin() + prefix + newMiddle);
        m_lines.insert(m_lines.begin() + tail, static_cast<std::size_t>(newMiddle - changed), -1);
        for (int n = tail; n < prefix + newMiddle; ++n)
            m_lines[std::size_t(n)] = lineAt(std::size_t(n));
        endInsertRows();
    }
}

int DiagnosticsModel::lineOf(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < m_lines.size() ? m_lines[static_cast<std::size_t>(row)]
                                                                      : -1;
}

int DiagnosticsModel::countOf(Severity severity) const {
    return int(std::count_if(m_diagnostics.begin(), m_diagnostics.end(),
                             [severity](const Diagnostic& d) { return d.severity == severity; }));
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QColor DiagnosticsModel::severityColor(Severity severity) {
    switch (severity) {
    case Severity::Error:
        return ThemeColors::color(ThemeColor::SeverityError);
    case Severity::Warning:
        return ThemeColors::color(ThemeColor::SeverityWarning);
    case Severity::Info:
        return ThemeColors::color(ThemeColor::SeverityInfo);
    }
    return ThemeColors::color(ThemeColor::StatusQueued);
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Diagnostic& d = m_diagnostics[static_cast<std::size_t>(index.row())];
    const int line = lineOf(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromLatin1(severityName(d.severity));
        case MessageColumn:
            return QString::fromStdString(d.message);
        case LineColumn:
            return line >= 0 ? QVariant(line + 1) : QVariant(QStringLiteral("—"));
        }
        return {};
    case Qt::DecorationRole:
        // A colour, not an icon: the model stays usable without a widget style (and in GUI-less tests).
        return index.column() == SeverityColumn ? QVariant(severityColor(d.severity)) : QVariant();
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(d.message);
        if (!d.fixes.empty())
            tip += QStringLiteral("\nFixes: ") +
                   data(index, FixTitlesRole).toStringList().join(QStringLiteral("; "));
        return tip;
    }
    case SeverityRole:
        return int(d.severity);
    case CodeRole:
        return QString::fromUtf8(d.code.data(), static_cast<qsizetype>(d.code.size()));
    case LineRole:
        return line;
    case TokenIndexRole:
        return d.tokenIndex;
    case FixCountRole:
        return int(d.fixes.size());
    case FixTitlesRole: {
        QStringList titles;
        for (const Fix& f : d.fixes)
            titles << QString::fromStdString(f.title);
        return titles;
    }
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case MessageColumn:
        return tr("Message");
    case LineColumn:
        return tr("Line");
    }
    return {};
}

} // namespace jobdeck
