#pragma once

#include "core/parameters/Diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace jobdeck {

// Every finding about the edited parameters, one row each: severity, message (the service's exact text)
// and the editor line it concerns (1-based on display, -1 when it concerns the whole list).
class DiagnosticsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, MessageColumn, LineColumn, ColumnCount };
    enum Role {
        SeverityRole = Qt::UserRole + 1, // int(Severity)
        CodeRole,                        // QString
        LineRole,                        // int, 0-based editor line or -1
        TokenIndexRole,                  // int
        FixCountRole,                    // int
        FixTitlesRole,                   // QStringList
    };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    // `lines[i]` is the 0-based editor line of diagnostics[i] (-1: none); missing lines are -1. Only the rows
    // that changed are copied; the others keep the fixes they had (see diagnostic()).
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::vector<int>& lines);
    const Diagnostic& diagnostic(int row) const { return m_diagnostics.at(static_cast<std::size_t>(row)); }
    int lineOf(int row) const;
    int countOf(Severity severity) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QColor severityColor(Severity severity);

private:
    std::vector<Diagnostic> m_diagnostics;
    std::vector<int> m_lines;
};

} // namespace jobdeck
