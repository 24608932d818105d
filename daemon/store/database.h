#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace resized::store {

// Any SQLite failure; what() carries SQLite's own message and the statement.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Database;

// One use of a prepared statement; parameters are bound by 1-based index.
class Statement {
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, int64_t value);
    Statement& bind(int index, uint64_t value);
    Statement& bind(int index, std::string_view value);

    // Advances to the next row; false when there is none.
    bool step();
    // Runs a statement that returns no rows.
    void run();

    int64_t integer(int column) const;
    uint64_t unsignedInteger(int column) const;
    std::string text(int column) const;

private:
    Database& db_;
    sqlite3_stmt* statement_;
};

// One SQLite connection in WAL mode with foreign keys on.
class Database {
public:
    explicit Database(const std::filesystem::path& file);

    void execute(std::string_view sql);
    int64_t lastInsertId() const;
    // Rows the last INSERT, UPDATE or DELETE changed.
    int64_t changes() const;
    sqlite3* handle() const { return handle_.get(); }
    [[noreturn]] void fail(std::string_view what) const;

private:
    friend class Statement;

    // SQLite's message for the last failure, and for a lock held by another
    // process, who is waited for and how long: "database is locked" alone
    // leaves an admin guessing which file.
    std::string describeFailure(std::string_view message) const;

    struct Closer {
        void operator()(sqlite3* db) const;
    };
    struct Finalizer {
        void operator()(sqlite3_stmt* statement) const;
    };
    using PreparedStatement = std::unique_ptr<sqlite3_stmt, Finalizer>;
    struct KeptStatement {
        PreparedStatement statement;
        bool inUse = false;
    };

    // The statement kept for sql, prepared on first use; a new one when that
    // is in use already (a query run while another of the same text steps).
    // Give it back with release().
    sqlite3_stmt* acquire(std::string_view sql);
    void release(sqlite3_stmt* statement);

    std::filesystem::path file_;
    std::unique_ptr<sqlite3, Closer> handle_;
    // Preparing costs more than running most of the daemon's statements, and
    // the same few dozen run on every call. Declared after handle_: they are
    // finalized before the connection closes.
    std::map<std::string, KeptStatement, std::less<>> kept_;
};

// BEGIN IMMEDIATE on construction, so the write lock is taken before anything
// is read; ROLLBACK on destruction unless commit() ran. Inside a transaction
// already open on the connection it is a savepoint of that one instead:
// commit() hands its changes to the outer transaction, and destruction
// without commit() undoes only its own.
class WriteTransaction {
public:
    explicit WriteTransaction(Database& db);
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;

    void commit();

private:
    Database& db_;
    bool nested_;
    bool finished_ = false;
};

}  // namespace resized::store
