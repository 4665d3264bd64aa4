#include "core/SparkJobList.h"

#include "core/SparkJobListDecoder.h"

namespace jobdeck {

SparkJobSummary summaryOf(const SparkJob& job) {
    return {job.name, job.cluster, job.type, job.maxConcurrentRuns, job.activeRuns, job.updatedAt};
}

SparkJob SparkJobList::job(std::size_t i) const {
    const Item& item = m_items.at(i);
    return SparkJobListDecoder::decodeJob(m_text.substr(item.offset, item.length));
}

std::vector<SparkJob> SparkJobList::jobs() const {
    std::vector<SparkJob> all;
    all.reserve(size());
    for (std::size_t i = 0; i < size(); ++i)
        all.push_back(job(i));
    return all;
}

} // namespace jobdeck
