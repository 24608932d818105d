#include "store/migrations.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace resized::store {
namespace {

int userVersion(Database& db)
{
    Statement query(db, "PRAGMA user_version");
    query.step();
    return static_cast<int>(query.integer(0));
}

}  // namespace

// The version is read inside the transaction that applies the next step:
// another process opening the same file at once may have applied it since
// this one last looked. A transaction left without commit() wrote nothing.
void migrate(Database& db, const std::vector<Migration>& migrations)
{
    const int newest = migrations.empty() ? 0 : migrations.back().version;
    for (;;) {
        WriteTransaction transaction(db);
        const int current = userVersion(db);
        if (current > newest)
            throw NewerSchemaError("the state database has schema version " +
                                   std::to_string(current) + ", newer than the " +
                                   std::to_string(newest) +
                                   " this resized understands; refusing to touch it (run a "
                                   "newer resized or move the file away)");
        const auto next = std::find_if(migrations.begin(), migrations.end(),
                                       [&](const Migration& migration) { return migration.version > current; });
        if (next == migrations.end())
            return;
        db.execute(next->sql);
        db.execute("PRAGMA user_version = " + std::to_string(next->version));
        transaction.commit();
        spdlog::info("state database migrated to schema version {} ({})", next->version,
                     next->name);
    }
}

}  // namespace resized::store
