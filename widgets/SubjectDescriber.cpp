#include "widgets/SubjectDescriber.h"

#include "client/ApiClient.h"
#include "widgets/DescribeViewer.h"
#include "widgets/JobDescriber.h"

namespace jobdeck {

using nlohmann::json;

SubjectDescriber::SubjectDescriber(ApiClient* client, JobDescriber* jobs, DescribeViewer* viewer,
                                   QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_jobs(jobs)
    , m_viewer(viewer) {}

void SubjectDescriber::describeProject() {
    m_jobs->cancel();
    m_client->execute(DescribeProjectStatement{})->then(this, [this](const ApiReply<json>& r) {
        if (r.isError()) {
            m_viewer->showMessage(tr("DESCRIBE PROJECT failed"), r.error().toString());
            return;
        }
        m_viewer->showResponse(DescribeViewer::Subject::Project, {}, r.value());
    });
}

void SubjectDescriber::describeCluster(const std::string& cluster) {
    m_jobs->cancel();
    const QString name = QString::fromStdString(cluster);
    m_client->execute(DescribeClusterStatement{cluster})->then(this, [this, name](const ApiReply<json>& r) {
        if (r.isError()) {
            m_viewer->showMessage(tr("DESCRIBE CLUSTER %1 failed").arg(name), r.error().toString());
            return;
        }
        m_viewer->showResponse(DescribeViewer::Subject::Cluster, name, r.value());
    });
}

void SubjectDescriber::describeLatestRun(const std::string& jobName) {
    m_jobs->cancel();
    ShowJobRunsStatement s;
    s.jobName = jobName;
    s.limit = 1;
    m_client->showJobRuns(s)->then(this, [this, jobName](const ApiReply<std::vector<SparkJobRun>>& r) {
        const QString qname = QString::fromStdString(jobName);
        if (r.isError() || r.value().empty()) {
            m_viewer->showMessage(tr("No run to describe"),
                                  r.isError() ? r.error().toString() : tr("%1 has no runs yet.").arg(qname));
            return;
        }
        const std::string runId = r.value().front().jobRunId;
        m_client->execute(DescribeJobRunStatement{runId, jobName})
            ->then(this, [this, runId](const ApiReply<json>& d) {
                if (d.isError()) {
                    m_viewer->showMessage(tr("DESCRIBE JOB_RUN failed"), d.error().toString());
                    return;
                }
                m_viewer->showResponse(DescribeViewer::Subject::JobRun, QString::fromStdString(runId),
                                       d.value());
            });
    });
}

} // namespace jobdeck
