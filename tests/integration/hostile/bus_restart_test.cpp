// The system bus goes away under a running resized (dbus-daemon restarted).
// resized cannot serve without it and must not linger: it exits with a
// failure, so that systemd (Restart=on-failure) starts it again once the bus
// is back, and a new start serves as before.

#include "daemon/daemon_test.h"
#include "support/command.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <string>

namespace resized::integration
{
namespace
{

// The test bus of with-testenv.sh, stopped by the test and always running
// again (same configuration, same socket) when this goes out of scope. The
// new PID goes where with-testenv.sh looks for it at teardown.
class BusRestart
{
  public:
    explicit BusRestart(const std::filesystem::path& testDirectory) :
        directory_(testDirectory)
    {
        pid_t pid = 0;
        std::ifstream(pidFile()) >> pid;
        if (pid <= 0 || ::kill(pid, SIGTERM) != 0)
        {
            throw std::runtime_error("cannot stop the test bus");
        }
        // Gone once its socket answers no more.
        waitUntil([&] { return ::kill(pid, 0) != 0 || !busAnswers(); }, std::chrono::seconds(10));
    }
    BusRestart(const BusRestart&) = delete;
    BusRestart& operator=(const BusRestart&) = delete;
    ~BusRestart()
    {
        const CommandResult started =
            runCommand({"dbus-daemon", "--config-file=" + (directory_ / "system.conf").string(),
                        "--fork", "--print-pid=1"});
        if (!started.succeeded())
        {
            std::cerr << "cannot start the test bus again: " << started.standardError << "\n";
            return;
        }
        std::ofstream(pidFile()) << started.standardOutput;
        waitUntil([] { return busAnswers(); }, std::chrono::seconds(10));
    }

  private:
    std::filesystem::path pidFile() const { return directory_ / "dbus.pid"; }

    static bool busAnswers()
    {
        return runCommand({"busctl", "--system", "status", "org.freedesktop.DBus"}).succeeded();
    }

    std::filesystem::path directory_;
};

class BusRestartTest : public DaemonTest
{};

TEST_F(BusRestartTest, LosingTheBusEndsTheDaemonWithFailure)
{
    {
        const BusRestart restart(environment().directory);

        ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, std::chrono::seconds(30)))
            << "resized still runs without its bus";
        const int status = daemon().stop();
        std::cout << "resized exited with status " << status << "\n";
        EXPECT_NE(status, 0) << "an exit without failure would not be restarted by systemd";
        EXPECT_LT(status, 128) << "resized was killed by signal " << status - 128;
    }

    startDaemon();
    EXPECT_EQ(client().listWorkloads().size(), 0U);
}

} // namespace
} // namespace resized::integration
