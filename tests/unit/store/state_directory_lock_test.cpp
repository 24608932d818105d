// One daemon per state directory: the lock is real flock(2) on a real file,
// and it conflicts between two holders in one process as between two
// processes (each holder opens the file anew).

#include "store/state_directory_lock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <system_error>

#include "temp_directory.h"

using namespace resized;

TEST(StateDirectoryLock, ASecondHolderIsRefusedUntilTheFirstLetsGo)
{
    const test::TempDirectory directory;
    std::optional<store::StateDirectoryLock> first(std::in_place, directory.path());
    EXPECT_EQ(test::readText(directory.path() / "lock"), std::to_string(getpid()) + "\n");

    try {
        store::StateDirectoryLock second(directory.path());
        FAIL() << "a second holder took the lock";
    } catch (const store::StateDirectoryBusy& error) {
        EXPECT_EQ(std::string(error.what()),
                  "the state directory " + directory.path().string() +
                      " is in use by another resized (PID " + std::to_string(getpid()) +
                      "); only one may run on a state directory");
    }

    first.reset();
    EXPECT_NO_THROW(store::StateDirectoryLock{directory.path()});
}

TEST(StateDirectoryLock, AMissingDirectoryIsAnError)
{
    const test::TempDirectory directory;
    EXPECT_THROW(store::StateDirectoryLock{directory.path() / "missing"}, std::system_error);
}
