#pragma once

#include <filesystem>
#include <string>

struct sqlite3;

namespace resized::integration
{

// The daemon's SQLite file, opened by the test on its own.
class StateDatabase
{
  public:
    explicit StateDatabase(const std::filesystem::path& file);
    StateDatabase(const StateDatabase&) = delete;
    StateDatabase& operator=(const StateDatabase&) = delete;
    ~StateDatabase();

    // The answer of PRAGMA integrity_check: "ok" for a sound file.
    std::string integrityCheck();

    // BEGIN EXCLUSIVE: no other connection may write until release() or
    // destruction (which rolls back).
    void lockExclusively();
    void release();

  private:
    void execute(const std::string& statement);

    sqlite3* database_ = nullptr;
    bool locked_ = false;
};

} // namespace resized::integration
