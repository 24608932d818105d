#include "store/database.h"

#include <sqlite3.h>

namespace resized::store {

Statement::Statement(Database& db, std::string_view sql) : db_(db), statement_(db.acquire(sql)) {}

Statement::~Statement() { db_.release(statement_); }

Statement& Statement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK)
        db_.fail("bind");
    return *this;
}

// SQLite integers are signed 64-bit; UINT64_MAX ("no limit") is stored as -1
// and read back through unsignedInteger().
Statement& Statement::bind(int index, uint64_t value)
{
    return bind(index, static_cast<int64_t>(value));
}

Statement& Statement::bind(int index, std::string_view value)
{
    if (sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT) != SQLITE_OK)
        db_.fail("bind");
    return *this;
}

bool Statement::step()
{
    switch (sqlite3_step(statement_)) {
    case SQLITE_ROW:
        return true;
    case SQLITE_DONE:
        return false;
    default:
        db_.fail(sqlite3_sql(statement_));
    }
}

void Statement::run()
{
    while (step()) {
    }
}

int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

uint64_t Statement::unsignedInteger(int column) const
{
    return static_cast<uint64_t>(integer(column));
}

std::string Statement::text(int column) const
{
    const auto* data = sqlite3_column_text(statement_, column);
    return data ? std::string(reinterpret_cast<const char*>(data),
                              static_cast<size_t>(sqlite3_column_bytes(statement_, column)))
                : std::string();
}

void Database::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

void Database::Finalizer::operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }

sqlite3_stmt* Database::acquire(std::string_view sql)
{
    auto kept = kept_.find(sql);
    if (kept != kept_.end() && !kept->second.inUse) {
        kept->second.inUse = true;
        return kept->second.statement.get();
    }
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v3(handle_.get(), sql.data(), static_cast<int>(sql.size()),
                           kept == kept_.end() ? SQLITE_PREPARE_PERSISTENT : 0, &raw, nullptr)
        != SQLITE_OK)
        fail(sql);
    if (kept != kept_.end())
        return raw;
    KeptStatement first{PreparedStatement(raw), true};
    kept_.emplace(std::string(sql), std::move(first));
    return raw;
}

void Database::release(sqlite3_stmt* statement)
{
    for (auto& [sql, kept] : kept_) {
        if (kept.statement.get() != statement)
            continue;
        // Resetting ends the statement's read of the database; what it
        // returns repeats the last step's error, which that step reported.
        sqlite3_reset(statement);
        sqlite3_clear_bindings(statement);
        kept.inUse = false;
        return;
    }
    sqlite3_finalize(statement);
}

namespace {

// The daemon has one thread: a lock held by another process (an admin's
// sqlite3, a backup) stalls the bus for as long as this.
constexpr int kBusyTimeoutMs = 1000;

}  // namespace

Database::Database(const std::filesystem::path& file) : file_(file)
{
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                   nullptr);
    handle_.reset(raw);
    if (rc != SQLITE_OK)
        fail("open " + file.string());
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    execute("PRAGMA journal_mode=WAL");
    execute("PRAGMA synchronous=NORMAL");
    execute("PRAGMA foreign_keys=ON");
}

void Database::execute(std::string_view sql)
{
    const std::string statement(sql);
    char* error = nullptr;
    if (sqlite3_exec(handle_.get(), statement.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw StoreError(describeFailure(message));
    }
}

int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(handle_.get()); }

int64_t Database::changes() const { return sqlite3_changes64(handle_.get()); }

void Database::fail(std::string_view what) const
{
    const char* message = handle_ ? sqlite3_errmsg(handle_.get()) : "out of memory";
    throw StoreError(describeFailure(message) + " (" + std::string(what) + ")");
}

std::string Database::describeFailure(std::string_view message) const
{
    std::string description = "SQLite: " + std::string(message);
    if (handle_ && (sqlite3_errcode(handle_.get()) & 0xff) == SQLITE_BUSY)
        description += ": another process has held " + file_.string() + " for over " +
                       std::to_string(kBusyTimeoutMs) + " ms";
    return description;
}

WriteTransaction::WriteTransaction(Database& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0)
{
    db_.execute(nested_ ? "SAVEPOINT nested" : "BEGIN IMMEDIATE");
}

WriteTransaction::~WriteTransaction()
{
    if (!finished_) {
        try {
            db_.execute(nested_ ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK");
        } catch (const StoreError&) {
            // Nothing more can be done: SQLite rolls back an open transaction
            // itself when the connection closes.
        }
    }
}

void WriteTransaction::commit()
{
    db_.execute(nested_ ? "RELEASE nested" : "COMMIT");
    finished_ = true;
}

}  // namespace resized::store
