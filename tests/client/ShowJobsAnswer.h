#pragma once

// The status bodies jobdeckd answers SHOW JOBS and SHOW JOBS SUMMARY with, for tests that serve one
// canned.

#include "core/wire/ApiStatus.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobSummary.h"

#include <QByteArray>

#include <nlohmann/json.hpp>
#include <vector>

namespace jobdeck::test {

// A SUCCESS status with `response` as its apiResponse.
inline QByteArray successAnswer(nlohmann::json response) {
    nlohmann::json status = ApiStatus::success(std::move(response));
    status["requestId"] = "canned";
    return QByteArray::fromStdString(status.dump());
}

inline QByteArray showJobsAnswer(std::vector<SparkJob> jobs) {
    return successAnswer({{"showJobsApiResponse", {{"sparkJobs", std::move(jobs)}}}});
}

inline QByteArray showJobSummariesAnswer(std::vector<SparkJobSummary> jobs) {
    return successAnswer({{"showJobsSummaryApiResponse", {{"jobs", std::move(jobs)}}}});
}

} // namespace jobdeck::test
