#pragma once

#include "core/SparkJob.h"
#include "core/StreamedText.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// Reads the SHOW JOBS answer straight from its bytes into SparkJobs, without building a JSON DOM of the
// jobs first: for 100,000 jobs (70 MB) the DOM cost three times the time and memory of the jobs
// themselves. The result is exactly what from_json gives for the same text: the same jobs, and for a
// job from_json refuses, the same exception message. Text that is not JSON (malformed, truncated,
// invalid UTF-8) throws nlohmann::json::parse_error, as json::parse would.
class SparkJobListDecoder final {
public:
    struct Status final {
        // The whole answer except apiResponse.showJobsApiResponse.sparkJobs when that is an array:
        // the array's items are in `jobs` (or `jobsError`) instead.
        nlohmann::json envelope;
        // The decoded array when every item is a valid job.
        std::optional<std::vector<SparkJob>> jobs;
        // What `array.get<std::vector<SparkJob>>()` throws when an item is not a valid job.
        std::optional<std::string> jobsError;
    };

    // A status envelope (`{"apiStatus": ..., "apiResponse": {"showJobsApiResponse": {"sparkJobs":
    // [...]}}}`); the fields may come in any order, and a duplicated key counts once, the last time.
    static Status decodeStatus(std::string_view text);
    // The same, read while the text arrives (on another thread than the one receiving it): the result
    // and any message are those of the whole text once finished, so a decode can overlap the transfer.
    static Status decodeStatus(StreamedText& text);

    // A JSON array of jobs; throws what json::parse(text).get<std::vector<SparkJob>>() throws.
    static std::vector<SparkJob> decodeList(std::string_view text);
};

} // namespace jobdeck
