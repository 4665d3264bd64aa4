#include "widgets/ClusterDialog.h"

#include "client/ApiClient.h"
#include "core/hudi/EffectiveConfig.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ClusterRules.h"
#include "models/QtStrings.h"
#include "ui_ClusterDialog.h"

#include <QPushButton>

#include <algorithm>

namespace jobdeck {

ClusterDialog::ClusterDialog(ApiClient* client, std::optional<Cluster> existing, QWidget* parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::ClusterDialog>())
    , m_client(client)
    , m_existing(std::move(existing)) {
    m_ui->setupUi(this);
    setObjectName(QStringLiteral("clusterDialog"));
    m_ui->maxOcuSpin->setRange(1, int(kMaxOcuCeiling));
    m_ui->minOcuSpin->setRange(0, int(kMaxOcuCeiling));
    m_ui->clusterError->hide();
    m_ui->clusterBusy->hide();
    if (m_existing) {
        setWindowTitle(tr("Alter cluster %1").arg(q(m_existing->name)));
        m_ui->clusterNameEdit->setText(q(m_existing->name));
        m_ui->clusterNameEdit->setReadOnly(true);
        m_ui->clusterTypeCombo->setEnabled(false);
        m_ui->maxOcuSpin->setValue(m_existing->maxOcu);
        m_ui->minOcuSpin->setValue(m_existing->minOcu);
        m_ui->clusterWithEdit->setPlainText(q(pairLinesText(m_existing->with)));
        m_ui->withLabel->setText(
            m_ui->withLabel->text() +
            tr(" Keys listed are set (a new value replaces the old one); a key cannot be "
               "removed from a cluster."));
    } else {
        setWindowTitle(tr("Create cluster"));
        m_ui->maxOcuSpin->setValue(1);
        m_ui->minOcuSpin->setValue(0);
    }
    connect(m_ui->buttons, &QDialogButtonBox::accepted, this, &ClusterDialog::save);
    connect(m_ui->buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

ClusterDialog::~ClusterDialog() = default;

ClusterDialog::Check ClusterDialog::check() const {
    PairLines with = readPairLines(m_ui->clusterWithEdit->toPlainText().toStdString());
    if (with.problem)
        return {std::nullopt, q(*with.problem)};
    if (auto p = checkClusterWith(with.pairs))
        return {std::nullopt, q(*p)};
    // As the service refuses it: a **** that no stored secret stands for (pasted from DESCRIBE CLUSTER).
    if (const auto masked = unmaskPairs(with.pairs, m_existing ? m_existing->with : ConfigPairs{}).unresolved)
        return {std::nullopt, q(masked->message(UnresolvedMask::Holder::Cluster))};
    const std::int64_t maxOcu = m_ui->maxOcuSpin->value();
    const std::int64_t minOcu = m_ui->minOcuSpin->value();
    if (auto p = checkClusterOcu(maxOcu, minOcu))
        return {std::nullopt, q(*p)};
    if (!m_existing) {
        const std::string name = m_ui->clusterNameEdit->text().trimmed().toStdString();
        if (name.empty())
            return {std::nullopt, tr("Give the cluster a name.")};
        const std::string type = m_ui->clusterTypeCombo->currentText().toStdString();
        if (auto p = checkClusterType(type))
            return {std::nullopt, q(*p)};
        return {Statement{CreateClusterStatement{name, type, maxOcu, minOcu, std::move(with.pairs)}}, {}};
    }
    AlterClusterStatement alter;
    alter.name = m_existing->name;
    if (maxOcu != m_existing->maxOcu)
        alter.maxOcu = maxOcu;
    if (minOcu != m_existing->minOcu)
        alter.minOcu = minOcu;
    for (auto& pair : with.pairs)
        if (std::find(m_existing->with.begin(), m_existing->with.end(), pair) == m_existing->with.end())
            alter.with.push_back(std::move(pair));
    if (!alter.maxOcu && !alter.minOcu && alter.with.empty())
        return {std::nullopt, tr("Nothing changed.")};
    return {Statement{std::move(alter)}, {}};
}

QString ClusterDialog::errorText() const {
    return m_ui->clusterError->isVisible() ? m_ui->clusterError->text() : QString();
}

void ClusterDialog::showProblem(const QString& problem) {
    m_ui->clusterError->setText(problem);
    m_ui->clusterError->setVisible(!problem.isEmpty());
}

void ClusterDialog::save() {
    if (m_sending)
        return;
    const Check c = check();
    if (!c.statement) {
        showProblem(c.problem); // nothing sent; what was typed stays
        return;
    }
    showProblem({});
    m_sending = true;
    m_ui->clusterBusy->show();
    m_ui->buttons->button(QDialogButtonBox::Save)->setEnabled(false);
    const QString name = m_ui->clusterNameEdit->text().trimmed();
    m_client->execute(*c.statement)->then(this, [this, name](const ApiReply<nlohmann::json>& r) {
        m_sending = false;
        m_ui->clusterBusy->hide();
        m_ui->buttons->button(QDialogButtonBox::Save)->setEnabled(true);
        if (r.isError()) {
            showProblem(r.error().message);
            return;
        }
        emit saved(name);
        accept();
    });
}

} // namespace jobdeck
