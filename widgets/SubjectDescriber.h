#pragma once

#include <QObject>

#include <string>

namespace jobdeck {

class ApiClient;
class DescribeViewer;
class JobDescriber;

// The Describe menu's other subjects: DESCRIBE PROJECT, DESCRIBE CLUSTER and the DESCRIBE JOB_RUN of a
// job's latest run, shown in the viewer (the selected job's own DESCRIBE is JobDescriber's). Each takes
// the viewer from JobDescriber first, so a job's answer still on its way cannot replace it.
class SubjectDescriber final : public QObject {
    Q_OBJECT
public:
    SubjectDescriber(ApiClient* client, JobDescriber* jobs, DescribeViewer* viewer,
                     QObject* parent = nullptr);

    void describeProject();
    void describeCluster(const std::string& cluster);
    // SHOW JOB_RUNS for the latest run, then its DESCRIBE JOB_RUN.
    void describeLatestRun(const std::string& jobName);

private:
    ApiClient* m_client;
    JobDescriber* m_jobs;
    DescribeViewer* m_viewer;
};

} // namespace jobdeck
