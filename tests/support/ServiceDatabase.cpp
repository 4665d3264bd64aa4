#include "tests/support/ServiceDatabase.h"

#include "tests/support/TestService.h"

#include <sqlite3.h>

#ifdef JOBDECK_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include <vector>

namespace jobdeck {

// One backend's connection; every call reports failure through `error`.
class ServiceDatabase::Connection {
public:
    virtual ~Connection() = default;
    virtual bool isPostgresql() const = 0;
    // `rows` null: a statement, whose changed row count is returned; else the query's rows.
    virtual int run(const QString& sql, const QStringList& values, QList<QStringList>* rows,
                    QString& error) = 0;
};

namespace {

class SqliteConnection final : public ServiceDatabase::Connection {
public:
    SqliteConnection(const QString& path, QString& error) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
            error = QStringLiteral("cannot open %1: %2").arg(path, QString::fromUtf8(sqlite3_errmsg(m_db)));
        else
            sqlite3_busy_timeout(m_db, 10000);
    }
    ~SqliteConnection() override { sqlite3_close(m_db); }
    bool isPostgresql() const override { return false; }

    int run(const QString& sql, const QStringList& values, QList<QStringList>* rows,
            QString& error) override {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.toUtf8().constData(), -1, &statement, nullptr) != SQLITE_OK)
            return fail(error);
        std::vector<QByteArray> texts;
        texts.reserve(static_cast<std::size_t>(values.size()));
        for (int i = 0; i < values.size(); ++i) {
            texts.push_back(values.at(i).toUtf8());
            sqlite3_bind_text(statement, i + 1, texts.back().constData(),
                              static_cast<int>(texts.back().size()), SQLITE_STATIC);
        }
        int step = SQLITE_ROW;
        while ((step = sqlite3_step(statement)) == SQLITE_ROW)
            if (rows)
                rows->append(rowOf(statement));
        sqlite3_finalize(statement);
        return step == SQLITE_DONE ? sqlite3_changes(m_db) : fail(error);
    }

private:
    static QStringList rowOf(sqlite3_stmt* statement) {
        QStringList row;
        for (int column = 0; column < sqlite3_column_count(statement); ++column) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
            row << (text ? QString::fromUtf8(text) : QString());
        }
        return row;
    }
    int fail(QString& error) const {
        error = QString::fromUtf8(sqlite3_errmsg(m_db));
        return -1;
    }

    sqlite3* m_db = nullptr;
};

#ifdef JOBDECK_HAVE_LIBPQ
// `?` placeholders as PostgreSQL's $1, $2, ...; those inside quoted literals stay.
QByteArray numberedPlaceholders(const QString& sql) {
    QByteArray out;
    int number = 0;
    bool quoted = false;
    for (const QChar c : sql) {
        if (c == QLatin1Char('\''))
            quoted = !quoted;
        if (c == QLatin1Char('?') && !quoted)
            out += '$' + QByteArray::number(++number);
        else
            out += QString(c).toUtf8();
    }
    return out;
}

class PostgresConnection final : public ServiceDatabase::Connection {
public:
    PostgresConnection(const QString& uri, QString& error)
        : m_db(PQconnectdb(uri.toUtf8().constData())) {
        if (PQstatus(m_db) != CONNECTION_OK)
            error =
                QStringLiteral("cannot connect to %1: %2").arg(uri, QString::fromUtf8(PQerrorMessage(m_db)));
    }
    ~PostgresConnection() override { PQfinish(m_db); }
    bool isPostgresql() const override { return true; }

    int run(const QString& sql, const QStringList& values, QList<QStringList>* rows,
            QString& error) override {
        std::vector<QByteArray> texts;
        std::vector<const char*> pointers;
        for (const QString& value : values)
            texts.push_back(value.toUtf8());
        for (const QByteArray& text : texts)
            pointers.push_back(text.constData());
        PGresult* result =
            PQexecParams(m_db, numberedPlaceholders(sql).constData(), static_cast<int>(pointers.size()),
                         nullptr, pointers.data(), nullptr, nullptr, 0);
        const ExecStatusType status = PQresultStatus(result);
        int changed = -1;
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
            changed = QByteArray(PQcmdTuples(result)).toInt();
            for (int row = 0; rows && row < PQntuples(result); ++row)
                rows->append(rowOf(result, row));
        } else {
            error = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
        }
        PQclear(result);
        return changed;
    }

private:
    static QStringList rowOf(PGresult* result, int row) {
        QStringList values;
        for (int column = 0; column < PQnfields(result); ++column)
            values << (PQgetisnull(result, row, column) ? QString()
                                                        : QString::fromUtf8(PQgetvalue(result, row, column)));
        return values;
    }

    PGconn* m_db = nullptr;
};
#endif

std::unique_ptr<ServiceDatabase::Connection> connect(const QString& uri, QString& error) {
    if (uri.startsWith(QLatin1String("sqlite:")))
        return std::make_unique<SqliteConnection>(uri.mid(7), error);
    if (uri.startsWith(QLatin1String("postgresql://"))) {
#ifdef JOBDECK_HAVE_LIBPQ
        return std::make_unique<PostgresConnection>(uri, error);
#else
        error = QStringLiteral("libpq was not found when the build was configured: cannot open ") + uri;
        return nullptr;
#endif
    }
    error = QStringLiteral("no database at '%1' (a test service that was never started?)").arg(uri);
    return nullptr;
}

} // namespace

ServiceDatabase::ServiceDatabase(const QString& uri)
    : m_connection(connect(uri, m_lastError)) {
    if (!m_lastError.isEmpty())
        m_connection.reset();
}

ServiceDatabase::ServiceDatabase(const TestService& service)
    : ServiceDatabase(service.databaseUri()) {}

ServiceDatabase::~ServiceDatabase() = default;

bool ServiceDatabase::isOpen() const {
    return m_connection != nullptr;
}

int ServiceDatabase::execute(const QString& sql, const QStringList& values) {
    return m_connection ? m_connection->run(sql, values, nullptr, m_lastError) : -1;
}

std::optional<QList<QStringList>> ServiceDatabase::rows(const QString& sql, const QStringList& values) {
    QList<QStringList> result;
    if (!m_connection || m_connection->run(sql, values, &result, m_lastError) < 0)
        return std::nullopt;
    return result;
}

QString ServiceDatabase::value(const QString& sql, const QStringList& values) {
    const auto result = rows(sql, values);
    return result && !result->isEmpty() && !result->first().isEmpty() ? result->first().first() : QString();
}

bool ServiceDatabase::holdWriteLock(const QString& table) {
    if (!m_connection)
        return false;
    if (!m_connection->isPostgresql())
        return execute(QStringLiteral("BEGIN IMMEDIATE")) >= 0;
    return execute(QStringLiteral("BEGIN")) >= 0 &&
           execute(QStringLiteral("LOCK TABLE %1 IN EXCLUSIVE MODE").arg(table)) >= 0;
}

bool ServiceDatabase::release() {
    return execute(QStringLiteral("ROLLBACK")) >= 0;
}

} // namespace jobdeck
