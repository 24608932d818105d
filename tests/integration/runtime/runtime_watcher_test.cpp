// RuntimeWatcher on the daemon's sd-event loop: against a Podman service
// without events (events_logger="none"), the real one of with-testenv.sh, and
// a fake for what the real one cannot do on cue.

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>

#include "captured_log.h"
#include "fake_podman.h"
#include "podman_without_events.h"
#include "scratch_directory.h"
#include "service/runtime_watcher.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

namespace resized::integration {
namespace {

using namespace std::chrono_literals;
using service::RuntimeWatcher;
using test::FakePodman;
using testing::ElementsAre;

// What the node's logic would be told, one line per lifecycle step.
class RecordingEvents final : public service::ContainerEvents {
public:
    void containerCreated(const std::string&, const std::string& name) override { record("created " + name); }
    void containerStarted(const std::string&, const std::string& name) override { record("started " + name); }
    void containerPaused(const std::string&, const std::string& name) override { record("paused " + name); }
    void containerUnpaused(const std::string&, const std::string& name) override { record("unpaused " + name); }
    void containerStopped(const std::string&, const std::string& name, uint64_t) override
    {
        record("stopped " + name);
    }
    void containerRemoved(const std::string&, const std::string& name) override { record("removed " + name); }
    void containerRenamed(const std::string& id, const std::string& newName) override
    {
        record("renamed " + id + " " + newName);
    }
    void resynchronise() override { ++resyncs; }
    void runtimeLost() override { ++losses; }

    bool saw(const std::string& step) const { return std::ranges::find(steps, step) != steps.end(); }

    std::vector<std::string> steps;
    int resyncs = 0;
    int losses = 0;
    // A step that throws after it was recorded, as a locked state file does.
    std::string failingStep;

private:
    void record(std::string step)
    {
        steps.push_back(step);
        if (step == failingStep)
            throw std::runtime_error("database is locked");
    }
};

// The daemon's loop, dispatched until done() holds or timeout passes.
bool runUntil(service::EventLoop& loop, const std::function<bool()>& done,
              std::chrono::milliseconds timeout)
{
    const auto giveUp = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < giveUp)
        sd_event_run(loop.handle(), 50'000);
    return done();
}

// The delays the watcher announced before each reconnection.
std::vector<long> announcedRetryDelays(const test::CapturedLog& log)
{
    static const std::regex retry(R"(event stream.* in (\d+) ms)");
    std::vector<long> delays;
    for (const auto& message : log.messages())
        if (std::smatch match; std::regex_search(message, match, retry))
            delays.push_back(std::stol(match[1]));
    return delays;
}

constexpr auto kFirst = RuntimeWatcher::kFirstRetry.count();

using RuntimeWatcherTest = IntegrationTest;

// Issue 13, case 12: every reconnection ran a full resync and reset the
// backoff to 250 ms, and RuntimeConnected flapped (8 resyncs in 5 s).
TEST_F(RuntimeWatcherTest, PodmanWithoutEventsNeitherResynchronisesNorFlaps)
{
    test::PodmanWithoutEvents podman;
    test::CapturedLog log;
    service::EventLoop loop;
    RecordingEvents events;
    RuntimeWatcher watcher(loop, events, podman.socketPath());

    watcher.start();
    ASSERT_TRUE(runUntil(loop, [&] { return announcedRetryDelays(log).size() >= 4; }, 60s));

    EXPECT_EQ(events.resyncs, 0);
    EXPECT_EQ(events.losses, 0) << "Podman answered: it is not lost";
    // The backoff grows: a stream that ends at once is no healthy one.
    const auto delays = announcedRetryDelays(log);
    EXPECT_THAT(std::vector<long>(delays.begin(), delays.begin() + 4),
                ElementsAre(kFirst, 2 * kFirst, 4 * kFirst, 8 * kFirst));
    EXPECT_THAT(log.messages(),
                testing::Contains(testing::HasSubstr(R"(cannot read events with the "none" backend)")))
        << "the end reason should be Podman's own";
}

TEST_F(RuntimeWatcherTest, EveryLifecycleStepOfARealContainer)
{
    service::EventLoop loop;
    RecordingEvents events;
    RuntimeWatcher watcher(loop, events, environment().podmanSocket.string());
    watcher.start();
    // Healthy once it stayed open a while: from then on nothing is missed.
    ASSERT_TRUE(runUntil(loop, [&] { return events.resyncs == 1; }, 30s));

    const PodmanCli podman(environment());
    const std::string name = "rt-watch";
    const std::string renamed = "rt-watched";
    const std::string id = podman.runContainer(name);
    struct RemoveAtScopeExit {
        const PodmanCli& podman;
        const std::string& id;
        ~RemoveAtScopeExit() { podman.remove(id); }
    } removeAtScopeExit{podman, id};
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"pause", name}, {"unpause", name}, {"rename", name, renamed},
          {"stop", "--time", "0", renamed}, {"start", renamed}, {"restart", "--time", "0", renamed},
          {"rm", "--force", "--time", "0", renamed}})
        ASSERT_TRUE(podman.run(command).succeeded()) << command.front();

    ASSERT_TRUE(runUntil(loop, [&] { return events.saw("removed " + renamed); }, 30s));
    // died and stop both report a stop; restart stops, then starts.
    EXPECT_THAT(events.steps,
                testing::IsSupersetOf({"created " + name, "started " + name, "paused " + name,
                                       "unpaused " + name, "renamed " + id + " " + renamed,
                                       "stopped " + renamed, "started " + renamed,
                                       "removed " + renamed}));
    std::vector<std::string> firstSteps(events.steps.begin(), events.steps.begin() + 5);
    EXPECT_THAT(firstSteps, ElementsAre("created " + name, "started " + name, "paused " + name,
                                        "unpaused " + name, "renamed " + id + " " + renamed));
    EXPECT_EQ(events.resyncs, 1);
    EXPECT_EQ(events.losses, 0);
}

TEST(RuntimeWatcherFake, EveryActionMapsToItsStep)
{
    FakePodman fake([](FakePodman::Connection& connection, unsigned) {
        connection.sendStreamHeader();
        std::string batch;
        for (const char* action : {"create", "init", "start", "pause", "unpause", "rename", "restart",
                                   "died", "cleanup", "stop", "restore", "exec", "remove"})
            batch += FakePodman::eventLine(action, "c174", action == std::string("rename") ? "new" : "old");
        connection.sendChunk(batch);
        connection.holdOpen();
    });
    service::EventLoop loop;
    RecordingEvents events;
    RuntimeWatcher watcher(loop, events, fake.socketPath());

    watcher.start();
    ASSERT_TRUE(runUntil(loop, [&] { return events.saw("removed old"); }, 10s));
    // restart is no step: Podman sends it before it stops the run, and the
    // died and start events that follow say the rest.
    EXPECT_THAT(events.steps, ElementsAre("created old", "started old", "paused old", "unpaused old",
                                          "renamed c174 new", "stopped old", "stopped old", "started old",
                                          "removed old"));
}

TEST(RuntimeWatcherFake, ResynchronisesOncePerHealthyConnection)
{
    FakePodman fake([](FakePodman::Connection& connection, unsigned) {
        connection.sendStreamHeader();
        connection.holdOpen();
    });
    service::EventLoop loop;
    RecordingEvents events;
    RuntimeWatcher watcher(loop, events, fake.socketPath());

    watcher.start();
    ASSERT_TRUE(runUntil(loop, [&] { return events.resyncs == 1; }, 30s));
    // Events on a healthy stream are just events.
    fake.push(FakePodman::eventLine("start", "c174", "web"));
    ASSERT_TRUE(runUntil(loop, [&] { return events.saw("started web"); }, 10s));
    EXPECT_EQ(events.resyncs, 1);
    EXPECT_EQ(events.losses, 0);

    // A healthy stream that ends: Podman may be gone, and once a new stream
    // proves healthy, everything is read again.
    fake.hangUp();
    ASSERT_TRUE(runUntil(loop, [&] { return events.resyncs == 2; }, 30s));
    EXPECT_EQ(fake.connections(), 2u);
    EXPECT_EQ(events.losses, 1);
}

// Issue 13, case 12: a store error in one handler dropped the rest of its
// batch and, with the stream's end in the same batch, stopped event
// following for good while the stream still said it was active.
TEST(RuntimeWatcherFake, ThrowingHandlerCostsNeitherItsBatchNorEventFollowing)
{
    FakePodman fake([](FakePodman::Connection& connection, unsigned index) {
        connection.sendStreamHeader();
        if (index == 0) {
            connection.sendChunk(FakePodman::eventLine("start", "b1", "bad")
                                 + FakePodman::eventLine("start", "a1", "good")
                                 + FakePodman::eventLine("stop", "a1", "good"));
            connection.sendLastChunk();
            return;
        }
        connection.holdOpen();
    });
    test::CapturedLog log;
    service::EventLoop loop;
    RecordingEvents events;
    events.failingStep = "started bad";
    RuntimeWatcher watcher(loop, events, fake.socketPath());

    watcher.start();
    ASSERT_TRUE(runUntil(loop, [&] { return fake.connections() == 2 && events.resyncs == 1; }, 30s));
    EXPECT_THAT(events.steps, ElementsAre("started bad", "started good", "stopped good"));
    const auto messages = log.messages();
    EXPECT_THAT(messages, testing::Contains(testing::StartsWith("bad: handling Podman's start event failed: "
                                                                "database is locked")));
}

TEST(RuntimeWatcherUnavailable, NothingListeningIsALostRuntime)
{
    test::ScratchDirectory directory;
    service::EventLoop loop;
    RecordingEvents events;
    RuntimeWatcher watcher(loop, events, (directory.path() / "podman.sock").string());

    watcher.start();
    ASSERT_TRUE(runUntil(loop, [&] { return events.losses >= 2; }, 10s));
    EXPECT_EQ(events.resyncs, 0);
}

}  // namespace
}  // namespace resized::integration
