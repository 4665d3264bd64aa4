#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace jobdeck {

class TestService;

// The database of a TestService (or any `sqlite:<path>` or `postgresql://` URI) on a connection of
// the test's own, to read or change rows behind the service's back on either backend. SQL takes `?`
// placeholders; values are bound as text, which each backend converts to the column's type.
class ServiceDatabase final {
public:
    explicit ServiceDatabase(const QString& uri);
    explicit ServiceDatabase(const TestService& service);
    ~ServiceDatabase();
    ServiceDatabase(const ServiceDatabase&) = delete;
    ServiceDatabase& operator=(const ServiceDatabase&) = delete;

    bool isOpen() const;
    QString lastError() const { return m_lastError; }

    // Runs one statement: the rows it changed, or -1 with lastError().
    int execute(const QString& sql, const QStringList& values = {});
    // The rows of one query, every column as text (NULL: a null QString); nullopt with lastError().
    std::optional<QList<QStringList>> rows(const QString& sql, const QStringList& values = {});
    // The first column of the first row; a null QString when there is no row or the query failed.
    QString value(const QString& sql, const QStringList& values = {});

    // Opens a transaction that keeps every other writer of `table` waiting until release():
    // SQLite's write lock on the whole file, PostgreSQL's EXCLUSIVE lock on the table.
    bool holdWriteLock(const QString& table);
    bool release();

    class Connection;

private:
    QString m_lastError; // before m_connection: the constructor's connect() writes it
    std::unique_ptr<Connection> m_connection;
};

} // namespace jobdeck
