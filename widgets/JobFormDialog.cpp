#include "widgets/JobFormDialog.h"

#include "client/ApiClient.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace jobdeck {

using nlohmann::json;

namespace {

// One parameter per line keeps long lists readable.
QString parametersText(const std::vector<std::string>& parameters) {
    if (parameters.empty())
        return QStringLiteral("[]");
    QStringList lines;
    for (const auto& p : parameters)
        lines << QStringLiteral("  ") + QString::fromStdString(json(p).dump());
    return QStringLiteral("[\n") + lines.join(QStringLiteral(",\n")) + QStringLiteral("\n]");
}

} // namespace

JobFormDialog::JobFormDialog(ApiClient* client, std::optional<SparkJob> job, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_job(std::move(job))
    , m_name(new QLineEdit(this))
    , m_type(new QComboBox(this))
    , m_cluster(new QLineEdit(this))
    , m_maxRuns(new QSpinBox(this))
    , m_parameters(new QPlainTextEdit(this))
    , m_message(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("jobFormDialog"));
    setWindowTitle(m_job ? tr("Edit job %1").arg(QString::fromStdString(m_job->name)) : tr("New job"));
    m_name->setObjectName(QStringLiteral("jobFormName"));
    m_type->setObjectName(QStringLiteral("jobFormType"));
    m_type->addItems({QStringLiteral("JAR"), QStringLiteral("PYTHON")});
    m_cluster->setObjectName(QStringLiteral("jobFormCluster"));
    m_maxRuns->setObjectName(QStringLiteral("jobFormMaxRuns"));
    m_maxRuns->setRange(1, 1000);
    m_parameters->setObjectName(QStringLiteral("jobFormParameters"));
    m_parameters->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_parameters->setPlaceholderText(QStringLiteral(
        "[\"--class\", \"com.example.App\", \"--hudi-conf\", \"hoodie.x=y\", \"s3://bucket/app.jar\"]"));
    m_message->setObjectName(QStringLiteral("jobFormMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons->button(QDialogButtonBox::Save)->setObjectName(QStringLiteral("jobFormSave"));

    if (m_job) {
        m_name->setText(QString::fromStdString(m_job->name));
        m_name->setReadOnly(true); // a job cannot be renamed
        m_type->setCurrentIndex(m_job->type == JobType::Python ? 1 : 0);
        m_type->setEnabled(false); // nor change type
        m_cluster->setText(QString::fromStdString(m_job->cluster));
        m_maxRuns->setValue(m_job->maxConcurrentRuns);
        m_parameters->setPlainText(parametersText(m_job->parameters));
    } else {
        m_parameters->setPlainText(QStringLiteral("[]"));
    }

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Type"), m_type);
    form->addRow(tr("Cluster"), m_cluster);
    form->addRow(tr("Max concurrent runs"), m_maxRuns);
    form->addRow(tr("Parameters (JSON array)"), m_parameters);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form, 1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &JobFormDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 480);
}

QString JobFormDialog::messageText() const {
    return m_message->text();
}

void JobFormDialog::showMessage(const QString& text, bool error) {
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    m_message->setText(text);
}

void JobFormDialog::setBusy(bool busy) {
    m_busy = busy;
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(!busy);
}

void JobFormDialog::submit() {
    if (m_busy || !m_client)
        return;
    const std::string text = m_parameters->toPlainText().toStdString();
    const json parsed = json::parse(text, nullptr, false);
    if (!parsed.is_array()) {
        showMessage(
            tr("Parameters must be a JSON array of strings, like [\"--class\", \"A\", \"s3://b/app.jar\"]."),
            true);
        return;
    }
    std::vector<std::string> parameters;
    for (const auto& p : parsed) {
        if (!p.is_string()) {
            showMessage(
                tr("Every parameter must be a string; %1 is not.").arg(QString::fromStdString(p.dump())),
                true);
            return;
        }
        parameters.push_back(p.get<std::string>());
    }
    const std::string name = m_name->text().trimmed().toStdString();
    const std::string cluster = m_cluster->text().trimmed().toStdString();
    if (name.empty() || cluster.empty()) {
        showMessage(tr("A job needs a name and a cluster."), true);
        return;
    }
    ApiReply<json>* reply = nullptr;
    QString done;
    if (!m_job) {
        CreateJobStatement s{name, m_type->currentIndex() == 1 ? JobType::Python : JobType::Jar, parameters,
                             cluster, std::nullopt};
        if (m_maxRuns->value() != 1)
            s.maxConcurrentRuns = m_maxRuns->value();
        reply = m_client->createJob(s);
        done = tr("Job %1 created.").arg(QString::fromStdString(name));
    } else {
        AlterJobStatement s{name, std::nullopt, std::nullopt, std::nullopt};
        if (parameters != m_job->parameters)
            s.parameters = parameters;
        if (cluster != m_job->cluster)
            s.cluster = cluster;
        if (m_maxRuns->value() != m_job->maxConcurrentRuns)
            s.maxConcurrentRuns = m_maxRuns->value();
        if (!s.parameters && !s.cluster && !s.maxConcurrentRuns) {
            showMessage(tr("Nothing changed."), false);
            return;
        }
        reply = m_client->alterJob(s);
        done = tr("Job %1 altered.").arg(QString::fromStdString(name));
    }
    setBusy(true);
    showMessage(tr("Sending…"), false);
    reply->then(this, [this, done, name](const ApiReply<json>& r) {
        setBusy(false);
        if (r.isError()) {
            // The service's own words, so the form says exactly what the API would.
            showMessage(r.error().message, true);
            return;
        }
        showMessage(done, false);
        emit saved(QString::fromStdString(name), done);
        accept();
    });
}

} // namespace jobdeck
