#pragma once

// The project of a row that a statement finds by its own unique key (a run id, a job id, a cluster id),
// as a filter on that row rather than a condition an index on the project could serve. PostgreSQL
// plans a prepared statement once for all later runs of it on a connection (a generic plan); planned
// while the table was still small, "project_uid = ? AND run_id = ?" was as cheap through an index that
// starts with the project as through the run id's, and the plan kept reading every row of the project
// as the table grew (docs/performance.md, "Replicas"). No index serves an IS TRUE test, so the unique
// key's index is the only one left to plan with, on either backend; the column is NOT NULL, so the
// test means the same as the comparison. Binds one parameter, the project's uid.
namespace jobdeck {

inline constexpr const char* kOfProject = "(project_uid = ?) IS TRUE";

} // namespace jobdeck
