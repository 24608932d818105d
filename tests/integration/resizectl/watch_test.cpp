// `resizectl watch` as a long-running process: it reports the daemon's
// signals as they happen and ends cleanly on SIGTERM.

#include <csignal>
#include <fstream>
#include <iterator>
#include <sstream>

#include <gtest/gtest.h>

#include "resizectl_fixture.h"
#include "support/child_process.h"
#include "support/wait.h"

namespace resized::ctl {
namespace {

using integration::ScopedContainer;
using namespace std::chrono_literals;

std::string contentOf(const std::filesystem::path& file)
{
    std::ifstream stream(file);
    return {std::istreambuf_iterator<char>(stream), {}};
}

// The first JSON line of `text` whose "event" is `event` and whose
// "workload" is `workload`.
std::optional<nlohmann::json> findEvent(const std::string& text, const std::string& event,
                                        const std::string& workload)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto object = nlohmann::json::parse(line, nullptr, false);
        if (object.is_object() && object.value("event", "") == event && object.value("workload", "") == workload)
            return object;
    }
    return std::nullopt;
}

class WatchTest : public ResizectlTest {
protected:
    std::filesystem::path outputFile() const { return environment().directory / (containerName() + "-watch.log"); }
};

TEST_F(WatchTest, ReportsAnAppliedChangeAndStopsOnSigterm)
{
    const ScopedContainer container(podman(), containerName());
    integration::ChildProcess watcher({RESIZECTL_BINARY, "watch", "--json"}, outputFile());
    ASSERT_TRUE(integration::waitUntil(
        [&] { return contentOf(outputFile()).find("Watching io.resized1") != std::string::npos; }, 10s))
        << contentOf(outputFile());

    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "300m"}).exitStatus, 0);

    std::optional<nlohmann::json> applied;
    EXPECT_TRUE(integration::waitUntil(
        [&] {
            applied = findEvent(contentOf(outputFile()), "ResourcesApplied", container.name());
            return applied.has_value();
        },
        10s))
        << contentOf(outputFile());
    if (applied) {
        EXPECT_EQ((*applied)["actual"]["CpuMillis"], 300u) << *applied;
    }
    EXPECT_EQ(watcher.signalAndWait(SIGTERM), 0);
}

TEST_F(WatchTest, ReportsTheDaemonLeavingTheBus)
{
    integration::ChildProcess watcher({RESIZECTL_BINARY, "watch"}, outputFile());
    ASSERT_TRUE(integration::waitUntil(
        [&] { return contentOf(outputFile()).find("Watching io.resized1") != std::string::npos; }, 10s));

    ASSERT_EQ(daemon().stop(), 0);

    EXPECT_TRUE(integration::waitUntil(
        [&] { return contentOf(outputFile()).find(" manager DaemonStopped") != std::string::npos; }, 10s))
        << contentOf(outputFile());
    EXPECT_EQ(watcher.signalAndWait(SIGINT), 0);
}

}  // namespace
}  // namespace resized::ctl
