#pragma once

#include <ostream>
#include <string>

namespace jobdeck {

// `jobdeckd backup` and `jobdeckd restore` of a SQLite data directory (docs/service.md, "Backup and
// restore"). A failure is thrown with its one-line reason; nothing is overwritten or half written.
struct BackupSource final {
    std::string dataDir; // empty: defaultDataDir()
    std::string databaseUrl;
};

// Copies the database as one consistent snapshot (VACUUM INTO) to `target`, a new file made 0600, while
// the service may be running, and checks the copy reads back whole. PostgreSQL is refused with the
// pointer to pg_dump.
void backupDatabase(const BackupSource& source, const std::string& target, std::ostream& out);

// Puts the backup `from` in place of the data directory's database while no jobdeckd serves it (it takes
// the data directory's lock): the copy is checked first, the database it replaces is kept beside it as
// jobdeck.db.replaced-<time>.
void restoreDatabase(const BackupSource& source, const std::string& from, std::ostream& out);

} // namespace jobdeck
