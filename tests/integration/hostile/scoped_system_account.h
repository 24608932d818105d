#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration
{

// A real system user that is a member of a real system group, in /etc/passwd
// and /etc/group, for as long as this lives: whoever looks a caller's groups
// up (dbus-daemon for its policy, resized for its own check) sees them as an
// administrator's accounts. Only what did not exist yet is created, and
// exactly that is removed on destruction, whatever the test did. Each account
// made is recorded as an empty file user-NAME or group-NAME in a folder of
// the test environment while it exists, so that with-testenv.sh removes it
// when the test process is killed outright.
class ScopedSystemAccount
{
  public:
    // Creates group unless it exists, then user as a member of it unless it
    // exists (useradd also gives it a group of its own name, which userdel
    // removes with it), recording each in records (the test environment's
    // system-accounts folder). Throws std::runtime_error when a command fails
    // or an existing user is not a member of group.
    ScopedSystemAccount(std::string user, std::string group,
                        const std::filesystem::path& records);

    const std::string& user() const { return user_; }
    const std::string& group() const { return group_; }

  private:
    // Records an account just made; when destroyed, runs the command that
    // removes it, then drops the record.
    class Removal
    {
      public:
        Removal(std::vector<std::string> command, std::filesystem::path record);
        Removal(const Removal&) = delete;
        Removal& operator=(const Removal&) = delete;
        ~Removal();

      private:
        std::vector<std::string> command_;
        std::filesystem::path record_;
    };

    std::string user_;
    std::string group_;
    // In this order, so that the user goes before the group it belongs to,
    // also when the constructor throws half-way.
    std::optional<Removal> groupRemoval_;
    std::optional<Removal> userRemoval_;
};

} // namespace resized::integration
