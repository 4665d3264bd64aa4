#pragma once

#include "core/statements/Statement.h"
#include "core/wire/Cluster.h"

#include <QDialog>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Ui {
class ClusterDialog;
}

namespace jobdeck {

class ApiClient;

// Creates a cluster, or alters one (MAX_OCU, MIN_OCU, WITH pairs to set). Core's cluster rules check the
// input before anything is sent; the service's refusal is shown as it said it and what was typed stays.
class ClusterDialog final : public QDialog {
    Q_OBJECT
public:
    ClusterDialog(ApiClient* client, std::optional<Cluster> existing, QWidget* parent = nullptr);
    ~ClusterDialog() override;

    // The statement Save would send, or the problem core finds with the input.
    struct Check {
        std::optional<Statement> statement;
        QString problem;
    };
    Check check() const;
    QString errorText() const;

    void save();

signals:
    void saved(const QString& name);

private:
    void showProblem(const QString& problem);

    std::unique_ptr<Ui::ClusterDialog> m_ui;
    ApiClient* m_client;
    std::optional<Cluster> m_existing;
    bool m_sending = false;
};

} // namespace jobdeck
