#include "store/migrations.h"

#include <spdlog/spdlog.h>

namespace resized::store {
namespace {

int userVersion(Database& db)
{
    Statement query(db, "PRAGMA user_version");
    query.step();
    return static_cast<int>(query.integer(0));
}

}  // namespace

void migrate(Database& db, const std::vector<Migration>& migrations)
{
    const int newest = migrations.empty() ? 0 : migrations.back().version;
    const int current = userVersion(db);
    if (current > newest)
        throw NewerSchemaError("the state database has schema version " + std::to_string(current) +
                               ", newer than the " + std::to_string(newest) +
                               " this resized understands; refusing to touch it (run a newer "
                               "resized or move the file away)");
    for (const Migration& migration : migrations) {
        if (migration.version <= current)
            continue;
        WriteTransaction transaction(db);
        db.execute(migration.sql);
        db.execute("PRAGMA user_version = " + std::to_string(migration.version));
        transaction.commit();
        spdlog::info("state database migrated to schema version {} ({})", migration.version,
                     migration.name);
    }
}

}  // namespace resized::store
