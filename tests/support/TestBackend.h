#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace jobdeck {

class PostgresCluster;

// The storage backend the service tests of this process run against, chosen by the environment
// variable JOBDECK_TEST_BACKEND: `postgresql`, or SQLite (the data directory's jobdeck.db) when it is
// unset or `sqlite`. With PostgreSQL every TestService gets a fresh database of its own on one private
// cluster per test process: started on first use, stopped when the process exits (a watchdog stops it
// when the process dies without running its exit handlers).
class TestBackend final {
public:
    enum class Kind { Sqlite, Postgresql };

    static Kind kind();
    static bool isPostgresql() { return kind() == Kind::Postgresql; }
    static QString name();
    // Why JOBDECK_TEST_BACKEND names no backend this support knows; empty when it does.
    static QString configurationError();

    // A new, empty database on this process's cluster (started at the first call): its
    // postgresql:// URI, or an empty string with `error` saying why (the cluster's lastError()).
    static QString createPostgresDatabase(QString& error);
    // For a jobdeckd a test starts itself: `--database <uri>` of a fresh database with PostgreSQL,
    // nothing with SQLite (the data directory's file); nullopt with `error` when it cannot be had.
    static std::optional<QStringList> freshDatabaseArguments(QString& error);
    // The process's cluster; nullptr until createPostgresDatabase() started it.
    static const PostgresCluster* postgresCluster();
};

} // namespace jobdeck
