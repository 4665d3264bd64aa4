#pragma once

#include "core/statements/Statement.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>
#include <vector>

class QAbstractButton;
class QAbstractItemView;
class QAction;
class QActionGroup;
class QLabel;
class QProgressBar;
class QTableView;
class QWidget;

namespace jobdeck {

// What the project, clusters and audit views share: copying rows, the busy bar, notes, and what a role
// may send.

// Ctrl+C on `view` copies the selected rows, one line each, cells separated by tabs (what the columns show).
void installCopyRows(QAbstractItemView* view);
QString selectedRowsText(const QAbstractItemView* view);

// An indeterminate bar shown while a load is under way.
QProgressBar* makeBusyBar(const QString& objectName, QWidget* parent);
// The audit log's columns in a view as narrow as a dock beside the jobs (about 460 pixels): when, the
// role, the outcome and the statement first, then the key id (elided in the middle), kind, target, error.
void fitAuditColumns(QTableView* table);

// A word-wrapped, selectable label; `error` colours it as an error.
QLabel* makeNote(const QString& objectName, QWidget* parent, bool error = false);

// The service's refusal for a key of `role` sending `statement` ("Permission denied: <role> cannot
// <action>"), nullopt when the role may send it or the role is not known yet.
std::optional<QString> roleRefusal(const QString& role, const Statement& statement);

// Disables the actions the service would refuse or cannot answer, with the reason as their tooltip and
// status tip, so it shows before anything is sent: while the service cannot be reached, every gated
// action (a gated button only for its role); otherwise those the key's role may not send (roleRefusal's
// text). Each gated action sits in a
// group of its own that the gate disables: whatever else enables the action (a selection) applies again
// once the gate lets it.
class ActionGate final : public QObject {
public:
    explicit ActionGate(QObject* parent = nullptr);

    // `statement` is what the action sends (its fields do not matter).
    void gate(QAction* action, Statement statement);
    // A button its owner enables by itself (a selection): kept disabled while the role may not send
    // `statement`, whatever its owner does.
    void gate(QAbstractButton* button, Statement statement);
    // An unknown role ("" before DESCRIBE PROJECT has answered) disables nothing: the service decides.
    void setRole(const QString& role);
    const QString& role() const { return m_role; }
    // Why the service cannot be reached now ("Not connected: …"), or nullopt once it can.
    void setUnreachable(std::optional<QString> reason);

private:
    struct Gated final {
        QPointer<QAction> action;
        QActionGroup* group;
        QPointer<QAbstractButton> button;
        Statement statement;
        QString toolTip; // the action's own, shown while the role allows it
        QString statusTip;
    };
    void apply(Gated& gated) const;
    std::optional<QString> refusal(const Gated& gated) const;
    bool eventFilter(QObject* watched, QEvent* event) override;

    std::vector<Gated> m_gated;
    QString m_role;
    std::optional<QString> m_unreachable;
};

} // namespace jobdeck
