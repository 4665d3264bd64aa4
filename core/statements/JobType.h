#pragma once

namespace jobdeck {

// What a Job runs: CREATE JOB's TYPE = 'JAR' | 'PYTHON', and SparkJob's type on the wire.
enum class JobType { Jar, Python };

} // namespace jobdeck
