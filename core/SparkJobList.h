#pragma once

#include "core/HugePageAllocator.h"
#include "core/SparkJob.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// What the Jobs list shows of a job.
struct SparkJobSummary final {
    std::string_view name;
    std::string_view cluster;
    JobType type = JobType::Jar;
    int maxConcurrentRuns = 1;
    int activeRuns = 0;
    TimePoint updatedAt{};
    bool operator==(const SparkJobSummary&) const = default;
};

// The summary of a whole job, viewing its strings.
SparkJobSummary summaryOf(const SparkJob& job);

// SHOW JOBS' jobs as the Jobs list holds them: each job's summary, and the job itself as its JSON text
// in the answer, decoded when it is asked for (job()). Decoding 100,000 whole jobs put 100 MB of
// strings, vectors and maps in fresh memory that the list never reads; the answer's text (70 MB) is
// already in memory. Made by SparkJobListDecoder, which checked every job as from_json would, so
// job() gives what from_json gives for that job's text. Immutable once made, so any thread may read it.
class SparkJobList final {
public:
    SparkJobList() = default;

    std::size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    const SparkJobSummary& summary(std::size_t i) const { return m_items[i].summary; }
    SparkJob job(std::size_t i) const;
    // Every job, decoded (for tests and comparisons; the console decodes a job when it opens it).
    std::vector<SparkJob> jobs() const;

private:
    friend class SparkJobListBuilder; // in SparkJobListDecoder.cpp
    struct Item final {
        SparkJobSummary summary;
        std::size_t offset = 0; // of the job's object in m_text
        std::size_t length = 0;
    };

    std::shared_ptr<const void> m_owner; // keeps m_text's bytes alive
    std::string_view m_text;
    std::vector<Item, HugePageAllocator<Item>> m_items;
    // Summary strings that are not bytes of the text (they had escapes); a deque never moves them.
    // Shared, as the text is, so a copy's summaries view strings that live as long as it does.
    std::shared_ptr<std::deque<std::string>> m_strings;
};

} // namespace jobdeck
