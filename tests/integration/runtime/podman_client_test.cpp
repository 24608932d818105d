// PodmanClient against the real Podman API service of with-testenv.sh.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>

#include "runtime/podman_client.h"
#include "scratch_directory.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

namespace resized::integration {
namespace {

using runtime::Container;
using runtime::PodmanClient;
using runtime::RuntimeUnavailable;

// A pod removed with everything in it when this goes out of scope. Without
// extra arguments it has no infra container, and so no cgroup of its own.
class ScopedPod {
public:
    ScopedPod(const PodmanCli& podman, std::string name,
              const std::vector<std::string>& arguments = {"--infra=false"})
        : podman_(podman), name_(std::move(name))
    {
        std::vector<std::string> command{"pod", "create", "--name", name_};
        command.insert(command.end(), arguments.begin(), arguments.end());
        auto result = podman_.run(command);
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

// Creates containers or pods with make(index), kept in `created`, until two
// IDs share their first hex digit (17 always do); returns that digit.
template <typename Scoped, typename Make>
char createUntilTwoIdsShareTheirFirstDigit(std::vector<std::unique_ptr<Scoped>>& created, Make&& make)
{
    std::map<char, int> idsByFirstDigit;
    for (;;) {
        created.push_back(make(created.size()));
        const char digit = created.back()->id().front();
        if (++idsByFirstDigit[digit] == 2)
            return digit;
        if (created.size() == 17)
            throw std::logic_error("17 hex IDs without a shared first digit");
    }
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
    expected.allowedCpus = core::CpuSet{0};
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

// Issue 13: a workload "b3" whose container is gone must not land on the
// container whose ID starts with b3. Podman itself answers any unique prefix.
TEST_F(PodmanClientTest, ShortIdPrefixesAreNotNames)
{
    ScopedContainer created(podman(), containerName());
    const std::string& id = created.id();
    ASSERT_EQ(podman().inspect(id.substr(0, 11), "{{.Id}}"), id) << "Podman takes short prefixes";

    for (size_t length : {size_t(1), size_t(2), size_t(11)})
        EXPECT_EQ(client->inspect(id.substr(0, length)), std::nullopt) << id.substr(0, length);
    for (const auto& key : {id.substr(0, 12), id.substr(0, 40), id, created.name()}) {
        auto container = client->inspect(key);
        ASSERT_TRUE(container) << key;
        EXPECT_EQ(container->id, id) << key;
    }
}

// A name that is also a prefix of another container's ID is that name.
TEST_F(PodmanClientTest, NameWinsOverAnotherContainersIdPrefix)
{
    ScopedContainer other(podman(), containerName("other"));
    ScopedContainer named(podman(), other.id().substr(0, 2));

    auto container = client->inspect(named.name());
    ASSERT_TRUE(container);
    EXPECT_EQ(container->id, named.id());
}

TEST_F(PodmanClientTest, AmbiguousShortIdIsNoMatch)
{
    std::vector<std::unique_ptr<ScopedContainer>> created;
    const char sharedDigit = createUntilTwoIdsShareTheirFirstDigit(created, [&](size_t index) {
        return std::make_unique<ScopedContainer>(podman(), containerName(std::to_string(index)),
                                                 std::vector<std::string>{},
                                                 std::vector<std::string>{"true"});
    });
    EXPECT_EQ(client->inspect(std::string(1, sharedDigit)), std::nullopt);
}

// Podman says Running=false of a paused container; resized counts it as
// running (it keeps its cgroup and its memory) and paused.
TEST_F(PodmanClientTest, PausedContainerKeepsItsCgroup)
{
    ScopedContainer created(podman(), containerName());
    ASSERT_TRUE(podman().run({"pause", created.name()}).succeeded());

    auto container = client->inspect(created.name());
    ASSERT_TRUE(container);
    EXPECT_TRUE(container->running);
    EXPECT_TRUE(container->paused);
    ASSERT_GT(container->pid, 0);
    EXPECT_EQ(container->cgroupPath, cgroupOfPid(container->pid));

    auto listed = client->listSummaries();
    auto entry = std::find_if(listed.begin(), listed.end(),
                              [&](const auto& entry) { return entry.id == created.id(); });
    ASSERT_NE(entry, listed.end());
    EXPECT_TRUE(entry->running);
    EXPECT_TRUE(entry->paused);
    EXPECT_EQ(entry->pid, container->pid);

    ASSERT_TRUE(podman().run({"unpause", created.name()}).succeeded());
    container = client->inspect(created.name());
    ASSERT_TRUE(container);
    EXPECT_TRUE(container->running);
    EXPECT_FALSE(container->paused);
}

TEST_F(PodmanClientTest, Labels)
{
    ScopedContainer labelled(podman(), containerName("labelled"),
                             {"--label", "app=web", "--label", "io.resized.pool=batch"});
    ScopedContainer plain(podman(), containerName("plain"));
    const runtime::Labels expected{{"app", "web"}, {"io.resized.pool", "batch"}};

    EXPECT_EQ(client->inspect(labelled.name())->labels, expected);
    EXPECT_TRUE(client->inspect(plain.name())->labels.empty());
    std::map<std::string, runtime::Labels> listedLabels;
    for (const auto& entry : client->listSummaries())
        listedLabels[entry.name] = entry.labels;
    EXPECT_EQ(listedLabels.at(labelled.name()), expected);
    EXPECT_TRUE(listedLabels.at(plain.name()).empty());
}

// A pod with an infra container has a cgroup of its own, the parent of its
// members' cgroups, holding the pod's create-time limits.
TEST_F(PodmanClientTest, PodWithInfraContainer)
{
    ScopedPod created(podman(), containerName("pod"),
                      {"--label", "team=a", "--cpus", "1", "--memory", "256m"});
    ScopedContainer member(podman(), containerName(), {"--pod", created.name()});

    auto pod = client->inspectPod(created.name());
    ASSERT_TRUE(pod);
    EXPECT_EQ(pod->id, created.id());
    EXPECT_EQ(pod->name, created.name());
    EXPECT_EQ(pod->state, runtime::PodState::Running);
    EXPECT_EQ(pod->labels, (runtime::Labels{{"team", "a"}}));
    core::Resources limits;
    limits.cpuMillis = 1000;
    limits.memoryMax = 256ull << 20;
    EXPECT_EQ(pod->createLimits, limits) << core::describe(pod->createLimits);

    EXPECT_EQ(pod->infraContainerId, podman().run({"pod", "inspect", "--format", "{{.InfraContainerID}}",
                                                   created.name()}).standardOutput.substr(0, 64));
    EXPECT_THAT(pod->members, testing::UnorderedElementsAre(
                                  testing::Field(&runtime::PodMember::id, member.id()),
                                  testing::Field(&runtime::PodMember::id, pod->infraContainerId)));

    auto container = client->inspect(member.name());
    ASSERT_TRUE(container);
    EXPECT_EQ(std::filesystem::path(container->cgroupPath).parent_path(), pod->cgroupPath);
    EXPECT_TRUE(std::filesystem::is_directory("/sys/fs/cgroup/memory" + pod->cgroupPath))
        << pod->cgroupPath;

    ASSERT_TRUE(podman().run({"pod", "stop", "--time", "0", created.name()}).succeeded());
    pod = client->inspectPod(created.name());
    ASSERT_TRUE(pod);
    EXPECT_THAT(pod->state, testing::AnyOf(runtime::PodState::Exited, runtime::PodState::Stopped));
}

TEST_F(PodmanClientTest, PodsAreNamedExactlyToo)
{
    ScopedPod created(podman(), containerName("pod"));
    const std::string& id = created.id();

    for (size_t length : {size_t(1), size_t(2), size_t(11)})
        EXPECT_EQ(client->inspectPod(id.substr(0, length)), std::nullopt) << id.substr(0, length);
    for (const auto& key : {id.substr(0, 12), id, created.name()}) {
        auto pod = client->inspectPod(key);
        ASSERT_TRUE(pod) << key;
        EXPECT_EQ(pod->id, id) << key;
    }
    for (const auto& name : {containerName("never-created"), std::string(), std::string("../x")})
        EXPECT_EQ(client->inspectPod(name), std::nullopt) << name;
}

// Podman 4.3.1 answers an ambiguous pod prefix with 500, not 404: that is no
// match, not an unavailable runtime.
TEST_F(PodmanClientTest, AmbiguousShortPodIdIsNoMatch)
{
    std::vector<std::unique_ptr<ScopedPod>> created;
    const char sharedDigit = createUntilTwoIdsShareTheirFirstDigit(created, [&](size_t index) {
        return std::make_unique<ScopedPod>(podman(), containerName(std::to_string(index)));
    });
    EXPECT_EQ(client->inspectPod(std::string(1, sharedDigit)), std::nullopt);
}

TEST_F(PodmanClientTest, ListPods)
{
    // Podman 4.3.1 leaves memory_limit out of the pod inspect when --memory
    // comes without --cpus (its cgroup has the limit all the same).
    ScopedPod withInfra(podman(), containerName("infra"), {"--cpus", "0.5", "--memory", "64m"});
    ScopedPod without(podman(), containerName("bare"));

    std::map<std::string, runtime::Pod> byName;
    for (auto& pod : client->listPods())
        byName[pod.name] = pod;
    ASSERT_TRUE(byName.contains(withInfra.name()));
    ASSERT_TRUE(byName.contains(without.name()));
    EXPECT_EQ(byName[withInfra.name()], *client->inspectPod(withInfra.name()));
    EXPECT_EQ(byName[withInfra.name()].createLimits.memoryMax, 64ull << 20);
    EXPECT_NE(byName[withInfra.name()].cgroupPath, "");
    EXPECT_EQ(byName[without.name()].id, without.id());
    EXPECT_EQ(byName[without.name()].cgroupPath, "");
    EXPECT_EQ(byName[without.name()].infraContainerId, "");
}

TEST(PodmanClientUnavailable, NothingListening)
{
    test::ScratchDirectory dir;
    auto socket = (dir.path() / "podman.sock").string();

    PodmanClient client(socket);
    EXPECT_FALSE(client.ping());
    EXPECT_THROW(client.inspect("anything"), RuntimeUnavailable);
    EXPECT_THROW(client.list(), RuntimeUnavailable);
    EXPECT_THROW(client.inspectPod("anything"), RuntimeUnavailable);
    EXPECT_THROW(client.listPods(), RuntimeUnavailable);
    try {
        client.inspect("anything");
    } catch (const RuntimeUnavailable& e) {
        EXPECT_NE(std::string(e.what()).find(socket), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace resized::integration
