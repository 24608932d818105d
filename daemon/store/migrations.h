#pragma once

#include <string_view>
#include <vector>

#include "store/database.h"

namespace resized::store {

struct Migration {
    int version;             // the schema version this migration leads to
    std::string_view name;   // its file in schema/
    std::string_view sql;
};

// schema/NNN_*.sql, compiled in by embed-migrations.py.
const std::vector<Migration>& builtinMigrations();

// The database was written by a newer resized; an older daemon must not touch it.
class NewerSchemaError : public StoreError {
public:
    using StoreError::StoreError;
};

// Applies every migration above the database's PRAGMA user_version, each in
// its own write transaction together with the new user_version, the version
// read inside it. Throws NewerSchemaError, leaving the file untouched, when
// the file's version is above the newest migration.
void migrate(Database& db, const std::vector<Migration>& migrations = builtinMigrations());

}  // namespace resized::store
