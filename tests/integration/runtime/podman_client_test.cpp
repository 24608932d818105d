// PodmanClient against the real Podman API service of with-testenv.sh.

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>

#include "runtime/podman_client.h"
#include "scratch_directory.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

namespace resized::integration {
namespace {

using runtime::AmbiguousContainer;
using runtime::Container;
using runtime::PodmanClient;
using runtime::RuntimeUnavailable;

// A pod without an infra container (none could be pulled), removed with
// everything in it when this goes out of scope.
class ScopedPod {
public:
    ScopedPod(const PodmanCli& podman, std::string name) : podman_(podman), name_(std::move(name))
    {
        auto result = podman_.run({"pod", "create", "--infra=false", "--name", name_});
        if (!result.succeeded())
            throw std::runtime_error("podman pod create failed: " + result.standardError);
        id_ = result.standardOutput.substr(0, result.standardOutput.find('\n'));
    }
    ~ScopedPod() { podman_.run({"pod", "rm", "--force", "--time", "0", name_}); }
    ScopedPod(const ScopedPod&) = delete;
    ScopedPod& operator=(const ScopedPod&) = delete;

    const std::string& name() const { return name_; }
    const std::string& id() const { return id_; }

private:
    PodmanCli podman_;
    std::string name_;
    std::string id_;
};

class PodmanClientTest : public IntegrationTest {
protected:
    void SetUp() override
    {
        IntegrationTest::SetUp();
        if (IsSkipped())
            return;
        client = std::make_unique<PodmanClient>(environment().podmanSocket.string());
    }

    PodmanCli podman() const { return PodmanCli(environment()); }

    // Test names are unique, and the storage is private to the run.
    static std::string containerName(const std::string& suffix = "")
    {
        auto name = std::string("rt-") + testing::UnitTest::GetInstance()->current_test_info()->name();
        return suffix.empty() ? name : name + "-" + suffix;
    }

    std::unique_ptr<PodmanClient> client;
};

// The cgroup of pid in the hierarchy that holds the memory controller (v1),
// or in the unified hierarchy where there is none.
std::string cgroupOfPid(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
    std::map<std::string, std::string> pathByControllers;
    for (std::string line; std::getline(in, line);) {
        auto first = line.find(':');
        auto second = line.find(':', first + 1);
        pathByControllers[line.substr(first + 1, second - first - 1)] = line.substr(second + 1);
    }
    if (pathByControllers.contains("memory"))
        return pathByControllers["memory"];
    return pathByControllers[""];
}

TEST_F(PodmanClientTest, Ping)
{
    EXPECT_TRUE(client->ping());
}

TEST_F(PodmanClientTest, InspectByNameFullIdAndUniqueShortId)
{
    ScopedContainer created(podman(), containerName());
    ASSERT_EQ(created.id().size(), 64u);

    for (const auto& key : {created.name(), created.id(), created.id().substr(0, 12)}) {
        auto container = client->inspect(key);
        ASSERT_TRUE(container) << key;
        EXPECT_EQ(container->id, created.id()) << key;
        EXPECT_EQ(container->name, created.name()) << key;
        EXPECT_TRUE(container->running) << key;
        EXPECT_GT(container->pid, 0) << key;
        EXPECT_TRUE(container->createLimits.empty()) << core::describe(container->createLimits);
        EXPECT_EQ(container->podId, "");
        EXPECT_EQ(container->podName, "");
    }
}

TEST_F(PodmanClientTest, CgroupPathIsTheOneOfTheContainerProcess)
{
    ScopedContainer created(podman(), containerName());

    auto container = client->inspect(created.name());
    ASSERT_TRUE(container);
    ASSERT_GT(container->pid, 0);
    EXPECT_EQ(container->cgroupPath, cgroupOfPid(container->pid));
    EXPECT_NE(container->cgroupPath.find(created.id()), std::string::npos) << container->cgroupPath;
}

TEST_F(PodmanClientTest, CreateTimeLimits)
{
    ScopedContainer created(podman(), containerName(),
                            {"--cpus", "0.5", "--memory", "64m", "--memory-reservation", "32m",
                             "--cpu-shares", "512", "--cpuset-cpus", "0"});

    auto container = client->inspect(created.name());
    ASSERT_TRUE(container);
    core::Resources expected;
    expected.cpuMillis = 500;
    expected.memoryMax = 64ull << 20;
    expected.memoryHigh = 32ull << 20;
    expected.cpuWeight = 50;
    expected.allowedCpus = "0";
    EXPECT_EQ(container->createLimits, expected) << core::describe(container->createLimits);
}

TEST_F(PodmanClientTest, StoppedContainerAndListHoldingBoth)
{
    ScopedContainer running(podman(), containerName("running"));
    ScopedContainer stopped(podman(), containerName("stopped"), {"--memory", "32m"});
    ASSERT_TRUE(podman().run({"stop", "--time", "0", stopped.name()}).succeeded());

    auto container = client->inspect(stopped.name());
    ASSERT_TRUE(container);
    EXPECT_FALSE(container->running);
    EXPECT_EQ(container->pid, 0);
    EXPECT_EQ(container->cgroupPath, "");
    EXPECT_EQ(container->createLimits.memoryMax, 32ull << 20);

    std::map<std::string, Container> byName;
    for (auto& listed : client->list())
        byName[listed.name] = listed;
    ASSERT_TRUE(byName.contains(running.name()));
    ASSERT_TRUE(byName.contains(stopped.name()));
    EXPECT_EQ(byName[running.name()].id, running.id());
    EXPECT_TRUE(byName[running.name()].running);
    EXPECT_EQ(byName[running.name()].cgroupPath, client->inspect(running.name())->cgroupPath);
    EXPECT_EQ(byName[stopped.name()].id, stopped.id());
    EXPECT_FALSE(byName[stopped.name()].running);
    EXPECT_EQ(byName[stopped.name()].pid, 0);
    EXPECT_EQ(byName[stopped.name()].createLimits.memoryMax, 32ull << 20);
}

TEST_F(PodmanClientTest, ContainerInPod)
{
    ScopedPod pod(podman(), containerName("pod"));
    ScopedContainer created(podman(), containerName(), {"--pod", pod.name()});

    auto container = client->inspect(created.name());
    ASSERT_TRUE(container);
    EXPECT_EQ(container->podId, pod.id());
    EXPECT_EQ(container->podName, pod.name());

    bool listed = false;
    for (const auto& entry : client->list()) {
        if (entry.name != created.name())
            continue;
        listed = true;
        EXPECT_EQ(entry.podId, pod.id());
        EXPECT_EQ(entry.podName, pod.name());
    }
    EXPECT_TRUE(listed);
}

TEST_F(PodmanClientTest, UnknownNamesAreNotFound)
{
    ScopedContainer known(podman(), containerName());

    const std::vector<std::string> names{
        containerName("never-created"), "", ".", "..", "../x", "a/b", known.name() + "/../..",
        "../../_ping", known.name() + "?all=true", known.name() + "%2F", known.name() + " ",
        "-" + known.name()};
    for (const auto& name : names)
        EXPECT_EQ(client->inspect(name), std::nullopt) << '"' << name << '"';
}

TEST_F(PodmanClientTest, AmbiguousShortId)
{
    // Among 17 IDs, two share their first hex digit.
    std::vector<std::unique_ptr<ScopedContainer>> created;
    std::map<char, int> idsByFirstDigit;
    char sharedDigit = 0;
    while (!sharedDigit) {
        ASSERT_LT(created.size(), 17u);
        created.push_back(std::make_unique<ScopedContainer>(
            podman(), containerName(std::to_string(created.size())), std::vector<std::string>{},
            std::vector<std::string>{"true"}));
        if (++idsByFirstDigit[created.back()->id().front()] == 2)
            sharedDigit = created.back()->id().front();
    }
    EXPECT_THROW(client->inspect(std::string(1, sharedDigit)), AmbiguousContainer);
}

TEST(PodmanClientUnavailable, NothingListening)
{
    test::ScratchDirectory dir;
    auto socket = (dir.path() / "podman.sock").string();

    PodmanClient client(socket);
    EXPECT_FALSE(client.ping());
    EXPECT_THROW(client.inspect("anything"), RuntimeUnavailable);
    EXPECT_THROW(client.list(), RuntimeUnavailable);
    try {
        client.inspect("anything");
    } catch (const RuntimeUnavailable& e) {
        EXPECT_NE(std::string(e.what()).find(socket), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace resized::integration
