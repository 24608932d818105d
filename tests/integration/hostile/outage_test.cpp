// The state database becomes unusable under a running daemon, or is
// unusable when it starts: a full file system, a read-only one, a file
// locked by another process. resized answers with an error, changes no
// limit it could not record, stays up, and the file is sound afterwards.

#include "scoped_mount.h"
#include "state_database.h"

#include "daemon/daemon_test.h"
#include "support/command.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <optional>
#include <string>

namespace resized::integration
{
namespace
{

using ::testing::HasSubstr;

constexpr auto storeFailed = "org.freedesktop.DBus.Error.Failed";

class OutageTest : public DaemonTest
{
  protected:
    void SetUp() override
    {
        DaemonTest::SetUp();
        if (!IsSkipped())
        {
            stateDirectory_ = daemon().options().stateDirectory;
            logFile_ = daemon().options().logFile;
        }
    }

    const std::filesystem::path& stateDirectory() const { return stateDirectory_; }
    std::filesystem::path stateFile() const { return stateDirectory_ / "state.db"; }

    // The update's error name ("" when it succeeded), after checking that
    // the container's cgroup holds what the daemon reports as desired.
    std::string tryUpdate(const ScopedContainer& container, std::uint64_t cpuMillis)
    {
        const auto error = errorOf([&] {
            client().updateResources(container.name(), ResourceValues{.cpuMillis = cpuMillis});
        });
        if (error)
        {
            std::cout << "UpdateResources answered " << error->getName() << ": "
                      << error->getMessage() << "\n";
        }
        EXPECT_TRUE(daemon().running()) << "resized died";
        const auto desired = desiredOf(client().getResourceStatus(container.name())).cpuMillis;
        EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), desired);
        return error ? error->getName() : "";
    }

    // How many `action` events of container the daemon has handled (its
    // debug log says so).
    std::size_t eventsSeen(const ScopedContainer& container, const std::string& action) const
    {
        return occurrencesInLog(container.name() + ": container event " + action + "\n");
    }

    // How often the daemon's log holds text.
    std::size_t occurrencesInLog(const std::string& text) const
    {
        const std::string log = readFile(logFile_);
        std::size_t seen = 0;
        for (auto at = log.find(text); at != std::string::npos; at = log.find(text, at + 1))
        {
            ++seen;
        }
        return seen;
    }

    // Waits until the daemon has handled the container's start, so that no
    // event of it races with the outage a test makes.
    void waitForStart(const ScopedContainer& container)
    {
        ASSERT_TRUE(waitUntil([&] { return eventsSeen(container, "start") > 0; },
                              std::chrono::seconds(30)))
            << "resized did not see the container start";
    }

    void expectSoundStateFile()
    {
        daemon().stop();
        EXPECT_EQ(StateDatabase(stateFile()).integrityCheck(), "ok");
    }

  private:
    static std::string readFile(const std::filesystem::path& file)
    {
        std::ifstream stream(file);
        return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
    }

    std::filesystem::path stateDirectory_;
    std::filesystem::path logFile_;
};

TEST_F(OutageTest, FullFileSystemIsAnErrorThatChangesNothing)
{
    daemon().stop();
    const auto stateMount = ScopedMount::tmpfs(stateDirectory(), 2 * mebibyte);
    startDaemon();
    const auto container = runContainer("c");
    ASSERT_EQ(tryUpdate(container, 300), "");
    waitForStart(container);

    const auto filler = stateDirectory() / "filler";
    fillFileSystem(filler);
    // The WAL may still hold room for a few writes; alternate values until the
    // store runs out of it.
    std::string refusal;
    for (std::uint64_t attempt = 0; attempt < 50 && refusal.empty(); ++attempt)
    {
        refusal = tryUpdate(container, 400 + attempt % 2 * 100);
    }
    EXPECT_EQ(refusal, storeFailed);
    EXPECT_EQ(tryUpdate(container, 700), storeFailed);

    std::filesystem::remove(filler);
    EXPECT_EQ(tryUpdate(container, 800), "");
    EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, 800U);

    expectSoundStateFile();
    startDaemon();
    EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, 800U);
}

TEST_F(OutageTest, LockedStateFileIsAnErrorThatChangesNothing)
{
    const auto container = runContainer("c");
    ASSERT_EQ(tryUpdate(container, 300), "");
    waitForStart(container);

    {
        StateDatabase otherWriter(stateFile());
        otherWriter.lockExclusively();
        EXPECT_EQ(tryUpdate(container, 400), storeFailed);
        EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, 300U);
        // The answer names the file another process holds, for the admin to find it.
        const auto refusal = errorOf(
            [&] { client().updateResources(container.name(), ResourceValues{.cpuMillis = 450}); });
        ASSERT_TRUE(refusal);
        EXPECT_NE(refusal->getMessage().find("another process has held " + stateFile().string()),
                  std::string::npos)
            << refusal->getMessage();
    }

    EXPECT_EQ(tryUpdate(container, 500), "");
    expectSoundStateFile();
}

// A container restarts while another process holds the state file: the
// daemon cannot record the re-application then, but must survive it and put
// the desired limits back once the file is free again.
TEST_F(OutageTest, LockedStateFileDuringContainerEventsKeepsTheDaemonUp)
{
    const auto container = runContainer("c");
    ASSERT_EQ(tryUpdate(container, 300), "");
    waitForStart(container);

    {
        StateDatabase otherWriter(stateFile());
        otherWriter.lockExclusively();
        ASSERT_TRUE(podman().run({"restart", "--time", "0", container.name()}).succeeded());
        // The lock is held until the daemon has met it handling the restart
        // (Podman ends a restart with the event of that name).
        const auto metTheLock = [&] {
            return eventsSeen(container, "restart") > 0 &&
                   occurrencesInLog("SQLite: database is locked") > 0;
        };
        ASSERT_TRUE(waitUntil([&] { return !daemon().running() || metTheLock(); },
                              std::chrono::seconds(60)))
            << "resized did not meet the locked state file handling the restart";
        ASSERT_TRUE(daemon().running()) << "resized died while the state file was locked";
    }

    EXPECT_TRUE(waitUntil(
        [&] { return CgroupLimits::read(container.cgroupPath()).cpuMillis() == 300U; },
        std::chrono::seconds(60)))
        << "the desired limits did not come back after the restart";
    EXPECT_TRUE(daemon().running());
    expectSoundStateFile();
}

// Made read-only under a running daemon, the state directory still takes
// writes through the files SQLite holds open (the kernel checks at open), so
// the update succeeds (docs/reliability.md), is recorded, and the cgroup
// agrees with the store.
TEST_F(OutageTest, ReadOnlyRemountUnderARunningDaemon)
{
    const auto container = runContainer("c");
    ASSERT_EQ(tryUpdate(container, 300), "");
    waitForStart(container);

    {
        const auto readOnly = ScopedMount::readOnlyBind(stateDirectory());
        EXPECT_EQ(tryUpdate(container, 400), "");
        EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, 400U);
    }

    EXPECT_EQ(tryUpdate(container, 500), "");
    expectSoundStateFile();
}

TEST_F(OutageTest, ReadOnlyStateDirectoryStopsTheStartNotTheData)
{
    const auto container = runContainer("c");
    ASSERT_EQ(tryUpdate(container, 300), "");
    daemon().stop();

    {
        // SQLite cannot open the database for writing: resized must end at
        // once with an error (docs/reliability.md), not serve a store it
        // cannot record in.
        const auto readOnly = ScopedMount::readOnlyBind(stateDirectory());
        std::optional<std::string> startError;
        try
        {
            startDaemon();
        }
        catch (const std::runtime_error& error)
        {
            startError = error.what();
        }
        ASSERT_TRUE(startError) << "resized started on a read-only state directory";
        EXPECT_THAT(*startError, HasSubstr("[critical] SQLite"));
    }

    EXPECT_EQ(StateDatabase(stateFile()).integrityCheck(), "ok");
    startDaemon();
    EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, 300U);
    EXPECT_EQ(tryUpdate(container, 500), "");
}

} // namespace
} // namespace resized::integration
