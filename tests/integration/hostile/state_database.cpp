#include "state_database.h"

#include <sqlite3.h>

#include <stdexcept>

namespace resized::integration
{

StateDatabase::StateDatabase(const std::filesystem::path& file)
{
    if (sqlite3_open_v2(file.c_str(), &database_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
    {
        const std::string message = sqlite3_errmsg(database_);
        sqlite3_close(database_);
        throw std::runtime_error("cannot open " + file.string() + ": " + message);
    }
}

StateDatabase::~StateDatabase()
{
    if (locked_)
    {
        sqlite3_exec(database_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    sqlite3_close(database_);
}

std::string StateDatabase::integrityCheck()
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(database_, "PRAGMA integrity_check", -1, &statement, nullptr) !=
        SQLITE_OK)
    {
        throw std::runtime_error(std::string("integrity_check: ") + sqlite3_errmsg(database_));
    }
    std::string answer;
    while (sqlite3_step(statement) == SQLITE_ROW)
    {
        if (!answer.empty())
        {
            answer += '\n';
        }
        answer += reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    return answer;
}

void StateDatabase::lockExclusively()
{
    execute("BEGIN EXCLUSIVE");
    locked_ = true;
}

void StateDatabase::release()
{
    execute("ROLLBACK");
    locked_ = false;
}

void StateDatabase::execute(const std::string& statement)
{
    char* error = nullptr;
    if (sqlite3_exec(database_, statement.c_str(), nullptr, nullptr, &error) != SQLITE_OK)
    {
        const std::string message = error != nullptr ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error(statement + ": " + message);
    }
}

} // namespace resized::integration
