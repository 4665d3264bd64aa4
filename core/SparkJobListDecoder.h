#pragma once

#include "core/SparkJob.h"
#include "core/SparkJobList.h"
#include "core/StreamedText.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// Reads the SHOW JOBS answer straight from its bytes into a SparkJobList, without building a JSON DOM of
// the jobs: for 100,000 jobs (70 MB) the DOM cost three times the time and memory of the jobs
// themselves. Every job is checked as from_json checks it, and only its summary is kept beside its
// text. The outcome is exactly what from_json gives for the same text: the same jobs (SparkJobList::
// job()), and for a job from_json refuses, the same exception message. Text that is not JSON
// (malformed, truncated, invalid UTF-8) throws nlohmann::json::parse_error, as json::parse would.
class SparkJobListDecoder final {
public:
    struct Status final {
        // The whole answer except apiResponse.showJobsApiResponse.sparkJobs when that is an array:
        // the array's items are in `jobs` (or `jobsError`) instead.
        nlohmann::json envelope;
        // The decoded array when every item is a valid job.
        std::optional<SparkJobList> jobs;
        // What `array.get<std::vector<SparkJob>>()` throws when an item is not a valid job.
        std::optional<std::string> jobsError;
    };

    // A status envelope (`{"apiStatus": ..., "apiResponse": {"showJobsApiResponse": {"sparkJobs":
    // [...]}}}`); the fields may come in any order, and a duplicated key counts once, the last time.
    // The jobs view `text`, whose bytes `owner` keeps.
    static Status decodeStatus(std::string_view text, std::shared_ptr<const void> owner);
    // The same, read while the text arrives (on another thread than the one receiving it): the result
    // and any message are those of the whole text once finished, so a decode can overlap the transfer.
    static Status decodeStatus(const std::shared_ptr<StreamedText>& text);

    // A JSON array of jobs; throws what json::parse(text).get<std::vector<SparkJob>>() throws.
    static SparkJobList decodeList(std::string_view text, std::shared_ptr<const void> owner);
    // One job object; throws what json::parse(text).get<SparkJob>() throws.
    static SparkJob decodeJob(std::string_view text);
};

} // namespace jobdeck
