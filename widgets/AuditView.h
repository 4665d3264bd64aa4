#pragma once

#include "core/policy/AuditFilter.h"
#include "core/wire/ProjectEvent.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QDateTimeEdit;
class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableView;

namespace jobdeck {

class ApiClient;
class AuditFilterProxy;
class AuditLogModel;

// SHOW AUDIT_LOG as a table: time, who (key and role), statement kind, target, outcome, the statement and
// the error, secrets masked by the service. Filters by text, kind, outcome and time range (core's
// AuditFilter, applied by AuditFilterProxy). New entries appear live: every project event (a job, run,
// cluster or settings change, each an audited statement) makes the view ask again and add what is newer;
// it does not poll, since each SHOW AUDIT_LOG is itself audited. Admin keys only: another role sees the
// service's reason.
class AuditView final : public QWidget {
    Q_OBJECT
public:
    explicit AuditView(ApiClient* client, QWidget* parent = nullptr);

    void reload();
    // Another service, or none: no entry shown before stays, no answer about them is used.
    void forget();
    void onEvents(const QList<ProjectEvent>& events);
    AuditLogModel* model() const { return m_model; }
    AuditFilterProxy* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    bool isLoading() const { return m_loading; }

signals:
    void loaded();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void applyFilter();

    ApiClient* m_client;
    AuditLogModel* m_model;
    AuditFilterProxy* m_proxy;
    QTableView* m_table;
    QLineEdit* m_text;
    QComboBox* m_kind;
    QComboBox* m_outcome;
    QCheckBox* m_useRange;
    QCheckBox* m_showReads;
    QDateTimeEdit* m_from;
    QDateTimeEdit* m_to;
    QLabel* m_count;
    QLabel* m_error;
    QProgressBar* m_busy;
    QTimer m_eventsTimer; // a burst of events is one reload
    bool m_loading = false;
    bool m_reloadAgain = false;
    int m_generation = 0; // forget() drops the answers to requests sent before it
    bool m_refused = false;
};

} // namespace jobdeck
