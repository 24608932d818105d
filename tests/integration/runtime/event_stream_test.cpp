// EventStream against the real Podman API service of with-testenv.sh, driven
// by a poll(2) loop the way the daemon's event loop drives it.

#include <algorithm>
#include <gtest/gtest.h>

#include "fake_podman.h"
#include "podman_without_events.h"
#include "poll_loop.h"
#include "runtime/event_stream.h"
#include "scratch_directory.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

namespace resized::integration {
namespace {

using namespace std::chrono_literals;
using runtime::ContainerEvent;
using runtime::EventStream;
using runtime::EventStreamHandlers;

// Everything the stream handed out.
struct Recorder {
    int established = 0;
    std::vector<ContainerEvent> events;
    std::optional<std::string> endReason;
    // Events of this container throw once recorded, as a handler may.
    std::string failingContainer;

    EventStreamHandlers handlers()
    {
        return {[this] { ++established; },
                [this](const ContainerEvent& event) {
                    events.push_back(event);
                    if (event.containerName == failingContainer)
                        throw std::runtime_error("database is locked");
                },
                [this](const std::string& reason) { endReason = reason; }};
    }

    const ContainerEvent* find(const std::string& name, const std::string& action) const
    {
        auto found = std::find_if(events.begin(), events.end(), [&](const ContainerEvent& event) {
            return event.containerName == name && event.action == action;
        });
        return found == events.end() ? nullptr : &*found;
    }
};

using EventStreamTest = IntegrationTest;

TEST_F(EventStreamTest, DeliversContainerLifecycle)
{
    test::PollLoop loop;
    Recorder recorder;
    EventStream stream(environment().podmanSocket.string(), loop, recorder.handlers());
    loop.attach(stream);

    stream.start();
    ASSERT_TRUE(loop.runUntil([&] { return recorder.established > 0; }, 5s));
    EXPECT_TRUE(stream.active());

    const std::string name = "rt-events";
    std::string id;
    {
        ScopedContainer container(PodmanCli(environment()), name);
        id = container.id();
        ASSERT_TRUE(loop.runUntil([&] { return recorder.find(name, "start"); }, 10s));
    }
    // The scope's end removed it.
    ASSERT_TRUE(loop.runUntil([&] { return recorder.find(name, "remove"); }, 10s));

    EXPECT_EQ(recorder.find(name, "start")->containerId, id);
    EXPECT_EQ(recorder.find(name, "remove")->containerId, id);
    EXPECT_LT(recorder.find(name, "start")->timeNano, recorder.find(name, "remove")->timeNano);
    for (const auto& event : recorder.events)
        EXPECT_EQ(event.type, "container");
    EXPECT_EQ(recorder.endReason, std::nullopt);

    stream.stop();
    EXPECT_FALSE(stream.active());
    EXPECT_EQ(loop.watchedSockets(), 0u);
}

// events_logger="none": Podman answers 200, then an error object, then ends.
TEST_F(EventStreamTest, PodmanWithoutEventsEndsWithItsReason)
{
    test::PodmanWithoutEvents podman;
    test::PollLoop loop;
    Recorder recorder;
    EventStream stream(podman.socketPath(), loop, recorder.handlers());
    loop.attach(stream);

    stream.start();
    ASSERT_TRUE(loop.runUntil([&] { return recorder.endReason.has_value(); }, 10s));
    EXPECT_EQ(recorder.established, 1);
    EXPECT_TRUE(recorder.events.empty());
    EXPECT_EQ(*recorder.endReason,
              R"(Podman ended the event stream: cannot read events with the "none" backend)");
    EXPECT_FALSE(stream.active());
    EXPECT_EQ(loop.watchedSockets(), 0u);
}

// A handler that throws costs neither the rest of its batch nor the end of
// the stream, which would otherwise stay active with nothing reading it.
TEST(EventStreamFake, ThrowingHandlerCostsNeitherTheBatchNorTheEnd)
{
    test::FakePodman fake([](test::FakePodman::Connection& connection, unsigned) {
        connection.sendStreamHeader();
        connection.sendChunk(test::FakePodman::eventLine("start", "b1", "bad")
                             + test::FakePodman::eventLine("start", "a1", "good")
                             + test::FakePodman::eventLine("died", "a1", "good"));
        connection.sendLastChunk();
    });
    test::PollLoop loop;
    Recorder recorder;
    recorder.failingContainer = "bad";
    EventStream stream(fake.socketPath(), loop, recorder.handlers());
    loop.attach(stream);

    stream.start();
    ASSERT_TRUE(loop.runUntil([&] { return recorder.endReason.has_value(); }, 10s));
    std::vector<std::string> delivered;
    for (const auto& event : recorder.events)
        delivered.push_back(event.action + " " + event.containerName);
    EXPECT_EQ(delivered, (std::vector<std::string>{"start bad", "start good", "died good"}));
    EXPECT_EQ(*recorder.endReason, "Podman closed the event stream");
    EXPECT_FALSE(stream.active());
    EXPECT_EQ(loop.watchedSockets(), 0u);
}

TEST(EventStreamUnavailable, EndsWhenNothingListens)
{
    test::ScratchDirectory dir;
    test::PollLoop loop;
    Recorder recorder;
    EventStream stream((dir.path() / "podman.sock").string(), loop, recorder.handlers());
    loop.attach(stream);

    stream.start();
    ASSERT_TRUE(loop.runUntil([&] { return recorder.endReason.has_value(); }, 5s));
    EXPECT_NE(recorder.endReason->find("connect"), std::string::npos) << *recorder.endReason;
    EXPECT_EQ(recorder.established, 0);
    EXPECT_FALSE(stream.active());
    EXPECT_EQ(loop.watchedSockets(), 0u);

    // It can be started again, and ends again the same way.
    recorder.endReason.reset();
    stream.start();
    EXPECT_TRUE(loop.runUntil([&] { return recorder.endReason.has_value(); }, 5s));
}

}  // namespace
}  // namespace resized::integration
