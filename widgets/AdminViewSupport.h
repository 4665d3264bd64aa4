#pragma once

#include "core/Statement.h"

#include <QString>

#include <optional>

class QAbstractItemView;
class QLabel;
class QProgressBar;
class QWidget;

namespace jobdeck {

// What the project, clusters and audit views share: copying rows, the busy bar, notes, and what a role
// may send.

// Ctrl+C on `view` copies the selected rows, one line each, cells separated by tabs (what the columns show).
void installCopyRows(QAbstractItemView* view);
QString selectedRowsText(const QAbstractItemView* view);

// An indeterminate bar shown while a load is under way.
QProgressBar* makeBusyBar(const QString& objectName, QWidget* parent);
// A word-wrapped, selectable label; `error` colours it as an error.
QLabel* makeNote(const QString& objectName, QWidget* parent, bool error = false);

// The service's refusal for a key of `role` sending `statement` ("Permission denied: <role> cannot
// <action>"), nullopt when the role may send it or the role is not known yet.
std::optional<QString> roleRefusal(const QString& role, const Statement& statement);

} // namespace jobdeck
