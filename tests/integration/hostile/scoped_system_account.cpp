#include "scoped_system_account.h"

#include "support/command.h"

#include <grp.h>
#include <pwd.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace resized::integration
{

namespace
{

bool groupExists(const std::string& group)
{
    return ::getgrnam(group.c_str()) != nullptr;
}

bool userExists(const std::string& user)
{
    return ::getpwnam(user.c_str()) != nullptr;
}

// Asked of id(1), not of the C library calls resized itself uses.
bool isMember(const std::string& user, const std::string& group)
{
    std::istringstream groups(runCommandOrThrow({"id", "--groups", "--name", user}));
    for (std::string each; groups >> each;)
    {
        if (each == group)
        {
            return true;
        }
    }
    return false;
}

} // namespace

ScopedSystemAccount::ScopedSystemAccount(std::string user, std::string group,
                                         const std::filesystem::path& records) :
    user_(std::move(user)), group_(std::move(group))
{
    std::filesystem::create_directories(records);
    if (!groupExists(group_))
    {
        const CommandResult added = runCommand({"groupadd", "--system", group_});
        if (added.succeeded())
        {
            groupRemoval_.emplace(std::vector<std::string>{"groupdel", group_},
                                  records / ("group-" + group_));
        }
        else if (!groupExists(group_))
        {
            throw std::runtime_error("groupadd " + group_ + ": " + added.standardError);
        }
        // Else somebody else made it meanwhile: theirs to remove.
    }
    if (userExists(user_))
    {
        if (!isMember(user_, group_))
        {
            throw std::runtime_error("the existing user " + user_ + " is not a member of " +
                                     group_);
        }
        return;
    }
    runCommandOrThrow(
        {"useradd", "--system", "--no-create-home", "--groups", group_, user_});
    userRemoval_.emplace(std::vector<std::string>{"userdel", user_}, records / ("user-" + user_));
}

ScopedSystemAccount::Removal::Removal(std::vector<std::string> command,
                                      std::filesystem::path record) :
    command_(std::move(command)), record_(std::move(record))
{
    std::ofstream(record_).flush();
}

ScopedSystemAccount::Removal::~Removal()
{
    const CommandResult removed = runCommand(command_);
    if (!removed.succeeded())
    {
        std::cerr << command_.front() << " " << command_.back()
                  << " failed: " << removed.standardError << "\n";
        return;
    }
    std::error_code ignored;
    std::filesystem::remove(record_, ignored);
}

} // namespace resized::integration
