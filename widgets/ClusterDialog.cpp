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
        QStringList lines;
        for (const auto& [k, v] : m_existing->with)
            lines << q(k) + QLatin1Char('=') + q(v);
        m_ui->clusterWithEdit->setPlainText(lines.join(QLatin1Char('\n')));
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

std::optional<std::vector<std::pair<std::string, std::string>>>
ClusterDialog::withPairs(QString* problem) const {
    std::vector<std::pair<std::string, std::string>> pairs;
    const QStringList lines = m_ui->clusterWithEdit->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            *problem = tr("Line %1 of the defaults is not <key>=<value>: %2").arg(i + 1).arg(line);
            return std::nullopt;
        }
        pairs.emplace_back(line.left(eq).trimmed().toStdString(), line.mid(eq + 1).trimmed().toStdString());
    }
    return pairs;
}

ClusterDialog::Check ClusterDialog::check() const {
    QString problem;
    auto with = withPairs(&problem);
    if (!with)
        return {std::nullopt, problem};
    if (auto p = checkClusterWith(*with))
        return {std::nullopt, q(*p)};
    // As the service refuses it: a **** that no stored secret stands for (pasted from DESCRIBE CLUSTER).
    if (const auto masked = unmaskPairs(*with, m_existing ? m_existing->with : ConfigPairs{}).unresolved)
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
        return {Statement{CreateClusterStatement{name, type, maxOcu, minOcu, std::move(*with)}}, {}};
    }
    AlterClusterStatement alter;
    alter.name = m_existing->name;
    if (maxOcu != m_existing->maxOcu)
        alter.maxOcu = maxOcu;
    if (minOcu != m_existing->minOcu)
        alter.minOcu = minOcu;
    for (auto& pair : *with)
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
