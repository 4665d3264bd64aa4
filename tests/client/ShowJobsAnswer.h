#pragma once

// The status body jobdeckd answers SHOW JOBS with, for tests and benches that serve one canned.

#include "core/ApiStatus.h"
#include "core/SparkJob.h"

#include <QByteArray>

#include <nlohmann/json.hpp>
#include <vector>

namespace jobdeck::test {

inline QByteArray showJobsAnswer(std::vector<SparkJob> jobs) {
    nlohmann::json response;
    response["showJobsApiResponse"]["sparkJobs"] = std::move(jobs);
    nlohmann::json status = ApiStatus::success(std::move(response));
    status["requestId"] = "canned";
    return QByteArray::fromStdString(status.dump());
}

} // namespace jobdeck::test
