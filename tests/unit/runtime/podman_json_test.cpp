// The parsers on replies captured from Podman 4.3.1 on a hybrid-cgroup host
// (cgroupfs manager, runc), and on what a broken or foreign service could send.

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "runtime/podman_json.h"

using namespace resized;
using namespace resized::runtime;

namespace {

std::string sample(const std::string& file)
{
    std::ifstream in(std::string(RUNTIME_TEST_DATA) + "/" + file);
    if (!in)
        throw std::runtime_error("missing sample " + file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// parse refuses every broken body, and a captured sample cut in half.
template <typename Parse, size_t count>
void expectAllMalformed(Parse&& parse, const char* const (&broken)[count], const std::string& sampleFile)
{
    for (const char* body : broken)
        EXPECT_THROW(parse(body), MalformedReply) << body;
    const auto body = sample(sampleFile);
    EXPECT_THROW(parse(body.substr(0, body.size() / 2)), MalformedReply) << sampleFile;
}

constexpr const char* kLimitsId = "02b27ec08eb951afe090d13800b77d762f1a5db3bb8a2d5dd6e42e6bbf05c184";
constexpr const char* kPodId = "dc59191d5ea0aeec28ad9e668b6e50db8d19671594998ed85842e8b996f9df0a";
constexpr const char* kInfraId = "c290a5b14c8d9472d810ab3bb2544028a578a9b417d345237c520fd9b3bdb471";

}  // namespace

TEST(ParseInspect, RunningContainerWithCreateLimits)
{
    auto container = parseInspect(sample("inspect-limits.json"));
    EXPECT_EQ(container.id, kLimitsId);
    EXPECT_EQ(container.name, "rt-lim");
    EXPECT_TRUE(container.running);
    EXPECT_EQ(container.pid, 4514);
    EXPECT_EQ(container.cgroupPath, std::string("/libpod_parent/libpod-") + kLimitsId);
    EXPECT_EQ(container.podId, "");
    EXPECT_EQ(container.podName, "");

    // podman run --cpus 0.5 --memory 64m --memory-reservation 32m
    //            --cpu-shares 512 --cpuset-cpus 0
    core::Resources expected;
    expected.cpuMillis = 500;
    expected.memoryMax = 64ull << 20;
    expected.memoryHigh = 32ull << 20;
    expected.cpuWeight = 50;
    expected.allowedCpus = core::CpuSet{0};
    EXPECT_EQ(container.createLimits, expected);
}

TEST(ParseInspect, ContainerWithoutLimitsHasNoKeys)
{
    auto container = parseInspect(sample("inspect-running.json"));
    EXPECT_EQ(container.name, "rt-plain");
    EXPECT_TRUE(container.running);
    EXPECT_GT(container.pid, 0);
    EXPECT_TRUE(container.createLimits.empty()) << core::describe(container.createLimits);
}

TEST(ParseInspect, CreatedContainerHasNoPidAndNoCgroup)
{
    auto container = parseInspect(sample("inspect-created.json"));
    EXPECT_EQ(container.name, "rt-stopped");
    EXPECT_FALSE(container.running);
    EXPECT_EQ(container.pid, 0);
    EXPECT_EQ(container.cgroupPath, "");
}

TEST(ParseInspect, PausedContainerRunsAndKeepsItsCgroup)
{
    // Podman says State.Running=false, State.Paused=true of it.
    auto container = parseInspect(sample("inspect-paused.json"));
    EXPECT_EQ(container.name, "rt-paused");
    EXPECT_TRUE(container.running);
    EXPECT_TRUE(container.paused);
    EXPECT_EQ(container.pid, 10098);
    EXPECT_EQ(container.cgroupPath, "/libpod_parent/libpod-" + container.id);
    EXPECT_EQ(container.labels, (Labels{{"app", "web"}, {"tier", "front"}}));
}

TEST(ParseInspect, OnlyAPausedContainerIsPaused)
{
    for (const char* file : {"inspect-limits.json", "inspect-running.json", "inspect-created.json"})
        EXPECT_FALSE(parseInspect(sample(file)).paused) << file;
}

TEST(ParseInspect, ContainerInPodCarriesThePodIdOnly)
{
    auto container = parseInspect(sample("inspect-in-pod.json"));
    EXPECT_EQ(container.name, "rt-inpod");
    EXPECT_EQ(container.podId, "edc27917844d3466afe66b6f64f1d09cacd987215d1c1799c31d52dcdaab5bc5");
    EXPECT_EQ(container.podName, "");
}

namespace {

// A minimal inspect reply of a running container with this HostConfig.
std::string inspectWithHostConfig(const std::string& hostConfig)
{
    return R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":7,"CgroupPath":"/x"},)"
           R"("HostConfig":)" + hostConfig + "}";
}

// A minimal inspect reply of a running container with this Config.
std::string inspectWithConfig(const std::string& config)
{
    return R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":7},"HostConfig":{},)"
           R"("Config":)" + config + "}";
}

core::Resources limitsOf(const std::string& hostConfig)
{
    return parseInspect(inspectWithHostConfig(hostConfig)).createLimits;
}

}  // namespace

TEST(ParseInspect, CpuQuotaWithoutNanoCpus)
{
    EXPECT_EQ(limitsOf(R"({"CpuQuota":150000,"CpuPeriod":100000})").cpuMillis, 1500u);
    EXPECT_EQ(limitsOf(R"({"CpuQuota":25000,"CpuPeriod":50000})").cpuMillis, 500u);
    // Without a period, the kernel's (and Podman's) default of 100 ms.
    EXPECT_EQ(limitsOf(R"({"CpuQuota":20000})").cpuMillis, 200u);
    // -1 is "unlimited" to the kernel.
    EXPECT_EQ(limitsOf(R"({"CpuQuota":-1,"CpuPeriod":100000})").cpuMillis, std::nullopt);
}

TEST(ParseInspect, FractionalMillicoresRoundUp)
{
    EXPECT_EQ(limitsOf(R"({"NanoCpus":1500000})").cpuMillis, 2u);
    EXPECT_EQ(limitsOf(R"({"CpuQuota":1,"CpuPeriod":100000})").cpuMillis, 1u);
}

TEST(ParseInspect, NanoCpusWinsOverQuota)
{
    EXPECT_EQ(limitsOf(R"({"NanoCpus":2000000000,"CpuQuota":50000,"CpuPeriod":100000})").cpuMillis,
              2000u);
}

TEST(ParseInspect, CpusetIsCanonical)
{
    EXPECT_EQ(limitsOf(R"({"CpusetCpus":"3,0-1,2"})").allowedCpus, (core::CpuSet{0, 1, 2, 3}));
    EXPECT_EQ(limitsOf(R"({"CpusetCpus":""})").allowedCpus, std::nullopt);
}

TEST(ParseInspect, EmptyHostConfigMeansNoLimits)
{
    EXPECT_TRUE(limitsOf("{}").empty());
    EXPECT_TRUE(limitsOf(R"({"Memory":0,"MemoryReservation":0,"CpuShares":0,"NanoCpus":0})").empty());
}

TEST(ParseInspect, LabelsAreOptional)
{
    EXPECT_TRUE(parseInspect(inspectWithConfig("{}")).labels.empty());
    EXPECT_TRUE(parseInspect(inspectWithConfig(R"({"Labels":null})")).labels.empty());
    EXPECT_EQ(parseInspect(inspectWithConfig(R"({"Labels":{"a":""}})")).labels, (Labels{{"a", ""}}));
}

TEST(CpuSharesToWeight, FollowsSystemdMapping)
{
    EXPECT_EQ(cpuSharesToWeight(0), 0u);
    EXPECT_EQ(cpuSharesToWeight(1024), 100u);
    EXPECT_EQ(cpuSharesToWeight(512), 50u);
    EXPECT_EQ(cpuSharesToWeight(2048), 200u);
    EXPECT_EQ(cpuSharesToWeight(2), 1u);
    EXPECT_EQ(cpuSharesToWeight(262144), 10000u);
}

TEST(ParseInspect, MalformedRepliesThrow)
{
    const char* broken[] = {
        "",
        "not json",
        "[]",
        "null",
        R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":7}})",                 // no HostConfig
        R"({"Name":"n","State":{"Running":true,"Pid":7},"HostConfig":{}})",            // no Id
        R"({"Id":"abc","Name":"n","HostConfig":{}})",                                  // no State
        R"({"Id":"abc","Name":"n","State":{"Running":"yes","Pid":7},"HostConfig":{}})",
        R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":"7"},"HostConfig":{}})",
        R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":-3},"HostConfig":{}})",
        R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":99999999999},"HostConfig":{}})",
        R"({"Id":7,"Name":"n","State":{"Running":true,"Pid":7},"HostConfig":{}})",
        R"({"Id":"abc","Name":"n","State":[],"HostConfig":{}})",
        R"({"Id":"abc","Name":"n","State":{"Running":true,"Pid":7,"CgroupPath":5},"HostConfig":{}})",
    };
    for (const char* body : broken)
        EXPECT_THROW(parseInspect(body), MalformedReply) << body;

    for (const char* config : {R"({"Labels":[["a","b"]]})", R"({"Labels":{"a":1}})", R"({"Labels":"a=b"})"})
        EXPECT_THROW(parseInspect(inspectWithConfig(config)), MalformedReply) << config;
    EXPECT_THROW(parseInspect(R"({"Id":"abc","Name":"n","State":{"Running":false,"Paused":"yes","Pid":0},)"
                              R"("HostConfig":{}})"),
                 MalformedReply);

    for (const char* hostConfig : {R"({"Memory":"64m"})", R"({"NanoCpus":0.5})",
                                   R"({"CpusetCpus":7})", R"({"CpusetCpus":"0-x"})", "[]"})
        EXPECT_THROW(parseInspect(inspectWithHostConfig(hostConfig)), MalformedReply) << hostConfig;
}

TEST(ParseInspect, TruncatedSampleThrows)
{
    auto body = sample("inspect-limits.json");
    for (size_t length : {size_t(1), body.size() / 3, body.size() / 2, body.size() - 3})
        EXPECT_THROW(parseInspect(body.substr(0, length)), MalformedReply) << length;
}

TEST(ParseList, AllContainersWithPodNames)
{
    auto entries = parseList(sample("list.json"));
    ASSERT_EQ(entries.size(), 4u);
    EXPECT_EQ(entries[0].id, kLimitsId);
    EXPECT_EQ(entries[0].name, "rt-lim");
    EXPECT_TRUE(entries[0].running);
    EXPECT_EQ(entries[0].pid, 4514);
    EXPECT_EQ(entries[0].podName, "");

    EXPECT_EQ(entries[2].name, "rt-stopped");
    EXPECT_FALSE(entries[2].running);
    EXPECT_EQ(entries[2].pid, 0);

    EXPECT_EQ(entries[3].name, "rt-inpod");
    EXPECT_EQ(entries[3].podId, "edc27917844d3466afe66b6f64f1d09cacd987215d1c1799c31d52dcdaab5bc5");
    EXPECT_EQ(entries[3].podName, "rt-pod");
}

TEST(ParseList, PausedContainerRunsWithItsLabels)
{
    auto entries = parseList(sample("list-paused.json"));
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].name, "rt-paused");
    EXPECT_TRUE(entries[0].running);
    EXPECT_TRUE(entries[0].paused);
    EXPECT_EQ(entries[0].pid, 10098);
    EXPECT_EQ(entries[0].labels, (Labels{{"app", "web"}, {"tier", "front"}}));

    for (const auto& entry : parseList(sample("list.json"))) {
        EXPECT_FALSE(entry.paused) << entry.name;
        EXPECT_TRUE(entry.labels.empty()) << entry.name;
    }
}

TEST(ParseList, EmptyListIsEmpty)
{
    EXPECT_TRUE(parseList("[]").empty());
}

TEST(ParseList, MalformedRepliesThrow)
{
    const char* broken[] = {
        "", "{}", "[1]", "[{}]",
        R"([{"Id":"a","Names":[],"State":"running","Pid":1}])",
        R"([{"Id":"a","Names":"n","State":"running","Pid":1}])",
        R"([{"Id":"a","Names":["n"],"State":true,"Pid":1}])",
        R"([{"Id":"a","Names":["n"],"State":"running"}])",
        R"([{"Id":"a","Names":["n"],"State":"paused"}])",
        R"([{"Id":"a","Names":["n"],"State":"exited","Labels":["x"]}])",
    };
    expectAllMalformed(parseList, broken, "list.json");
}

TEST(ParsePod, RunningPodWithInfraAndMember)
{
    // podman pod create --name rt-pod --label team=a --cpus 1 --memory 256m
    auto pod = parsePod(sample("pod-inspect-running.json"));
    EXPECT_EQ(pod.id, kPodId);
    EXPECT_EQ(pod.name, "rt-pod");
    EXPECT_EQ(pod.state, PodState::Running);
    EXPECT_EQ(pod.cgroupPath, std::string("/libpod_parent/") + kPodId);
    EXPECT_EQ(pod.infraContainerId, kInfraId);
    EXPECT_EQ(pod.members,
              (std::vector<PodMember>{
                  {"8e14a94a44d1c5db7870e4ad712f2a6519ad7e7eab40158e33661a3b9259995a", "rt-inpod"},
                  {kInfraId, "dc59191d5ea0-infra"}}));
    EXPECT_EQ(pod.labels, (Labels{{"team", "a"}}));
    core::Resources expected;
    expected.cpuMillis = 1000;
    expected.memoryMax = 256ull << 20;
    EXPECT_EQ(pod.createLimits, expected) << core::describe(pod.createLimits);
}

TEST(ParsePod, StoppedPodKeepsItsCgroupPath)
{
    auto pod = parsePod(sample("pod-inspect-stopped.json"));
    EXPECT_EQ(pod.state, PodState::Exited);
    EXPECT_EQ(pod.cgroupPath, std::string("/libpod_parent/") + kPodId);
}

TEST(ParsePod, EveryLimitAPodTakes)
{
    // podman pod create --cpus 0.5 --memory 128m --cpuset-cpus 0 --cpu-shares 512
    auto pod = parsePod(sample("pod-inspect-limits.json"));
    EXPECT_EQ(pod.state, PodState::Created);
    core::Resources expected;
    expected.cpuMillis = 500;
    expected.memoryMax = 128ull << 20;
    expected.cpuWeight = 50;
    expected.allowedCpus = core::CpuSet{0};
    EXPECT_EQ(pod.createLimits, expected) << core::describe(pod.createLimits);
}

TEST(ParsePod, PodWithoutInfraHasNoCgroupAndNoMembers)
{
    auto pod = parsePod(sample("pod-inspect-noinfra.json"));
    EXPECT_EQ(pod.name, "rt-bare");
    EXPECT_EQ(pod.state, PodState::Created);
    EXPECT_EQ(pod.cgroupPath, "");
    EXPECT_EQ(pod.infraContainerId, "");
    EXPECT_TRUE(pod.members.empty());
    EXPECT_TRUE(pod.labels.empty());
    EXPECT_TRUE(pod.createLimits.empty()) << core::describe(pod.createLimits);
}

TEST(ParsePod, EveryPodmanState)
{
    const std::pair<const char*, PodState> states[] = {
        {"Created", PodState::Created}, {"Running", PodState::Running},
        {"Degraded", PodState::Degraded}, {"Paused", PodState::Paused},
        {"Stopped", PodState::Stopped}, {"Exited", PodState::Exited}, {"Error", PodState::Error}};
    for (const auto& [text, state] : states)
        EXPECT_EQ(parsePod(std::string(R"({"Id":"a","Name":"p","State":")") + text + "\"}").state, state)
            << text;
}

TEST(ParsePod, MalformedRepliesThrow)
{
    const char* broken[] = {
        "", "[]", "<html>",
        R"({"Name":"p","State":"Running"})",
        R"({"Id":"a","State":"Running"})",
        R"({"Id":"a","Name":"p"})",
        R"({"Id":"a","Name":"p","State":"running"})",
        R"({"Id":"a","Name":"p","State":"Running","Containers":{}})",
        R"({"Id":"a","Name":"p","State":"Running","Containers":[{"Id":"c"}]})",
        R"({"Id":"a","Name":"p","State":"Running","Labels":["x"]})",
        R"({"Id":"a","Name":"p","State":"Running","memory_limit":"1g"})",
        R"({"Id":"a","Name":"p","State":"Running","cpuset_cpus":"x"})",
    };
    expectAllMalformed(parsePod, broken, "pod-inspect-running.json");
}

TEST(ParsePodIds, EveryPod)
{
    EXPECT_EQ(parsePodIds(sample("pod-list.json")), (std::vector<std::string>{kPodId}));
    EXPECT_TRUE(parsePodIds("[]").empty());
    for (const char* body : {"", "{}", "[{}]", R"([{"Id":1}])"})
        EXPECT_THROW(parsePodIds(body), MalformedReply) << body;
}

TEST(ParseApiError, AmbiguousShortId)
{
    auto error = parseApiError(sample("error-ambiguous.json"));
    EXPECT_TRUE(isAmbiguousId(error));
    EXPECT_NE(error.message.find("more than one result"), std::string::npos) << error.message;
}

TEST(ParseApiError, NoSuchContainer)
{
    auto error = parseApiError(sample("error-no-such-container.json"));
    EXPECT_FALSE(isAmbiguousId(error));
    EXPECT_TRUE(isNoSuchObject(error));
    EXPECT_EQ(error.cause, "no such container");
}

TEST(ParseApiError, AmbiguousPodIdWrittenTwice)
{
    auto error = parseApiError(sample("pod-error-ambiguous.json"));
    EXPECT_TRUE(isAmbiguousId(error));
    EXPECT_EQ(error.message, "more than one result for ID or name 4: pod already exists");
}

TEST(ParseApiError, NoSuchPod)
{
    auto error = parseApiError(sample("pod-error-missing.json"));
    EXPECT_FALSE(isAmbiguousId(error));
    EXPECT_TRUE(isNoSuchObject(error));
    EXPECT_EQ(error.cause, "no such pod");
}

// What Podman answered for a pod removed while it looked the pod up.
TEST(ParseApiError, PodRemovedDuringTheLookUp)
{
    auto error = parseApiError(
        R"({"cause":"no such pod","message":"no pod with ID 6f0c found in database: no such pod","response":500})");
    EXPECT_TRUE(isNoSuchObject(error));
    EXPECT_FALSE(isAmbiguousId(error));
}

TEST(ParseApiError, AnythingElseBecomesTheMessage)
{
    auto error = parseApiError("502 Bad Gateway");
    EXPECT_EQ(error.message, "502 Bad Gateway");
    EXPECT_FALSE(isAmbiguousId(error));
    EXPECT_FALSE(isNoSuchObject(error));
    EXPECT_EQ(parseApiError(R"({"cause":1})").message, R"({"cause":1})");
}

TEST(ParseEvent, CapturedStream)
{
    std::istringstream lines(sample("events.jsonl"));
    std::vector<ContainerEvent> events;
    for (std::string line; std::getline(lines, line);)
        events.push_back(parseEvent(line));
    ASSERT_EQ(events.size(), 8u);

    ContainerEvent first{"container", "init",
                         "789bc49bf00c8aed9f135ca4c18fbdfdfc4156e06dd26b7d509ea28ecb0d60a3",
                         "rt-stopped", 1795993988854572465ull};
    EXPECT_EQ(events[0], first);
    std::vector<std::string> actions;
    for (const auto& event : events)
        actions.push_back(event.action);
    EXPECT_EQ(actions, (std::vector<std::string>{"init", "start", "restart", "died", "init",
                                                  "start", "died", "cleanup"}));
    EXPECT_EQ(events[3].containerName, "rt-plain");
}

TEST(ParseEvent, PauseUnpauseRenameRestore)
{
    // podman run, pause, unpause, rename rt-paused rt-renamed, container
    // restore (which failed: no CRIU here, yet Podman sent the event), stop, rm.
    std::istringstream lines(sample("events-lifecycle.jsonl"));
    std::vector<std::string> seen;
    for (std::string line; std::getline(lines, line);) {
        auto event = parseEvent(line);
        EXPECT_EQ(event.containerId, "c174be98e29d16f7dd1c9e366820e16d0d9f37dcc69e0f67229f07e3702c37aa");
        seen.push_back(event.action + " " + event.containerName);
    }
    // A rename's event carries the new name.
    EXPECT_EQ(seen, (std::vector<std::string>{
                        "create rt-paused", "init rt-paused", "start rt-paused", "pause rt-paused",
                        "unpause rt-paused", "rename rt-renamed", "restore rt-renamed",
                        "died rt-renamed", "cleanup rt-renamed", "cleanup rt-renamed",
                        "remove rt-renamed"}));
}

TEST(ParseEvent, NameIsOptional)
{
    auto event = parseEvent(R"({"Type":"container","Action":"remove","Actor":{"ID":"abc"},"timeNano":5})");
    EXPECT_EQ(event.containerId, "abc");
    EXPECT_EQ(event.containerName, "");
    EXPECT_EQ(event.timeNano, 5u);
}

TEST(ParseEvent, MalformedLinesThrow)
{
    const char* broken[] = {
        "", "{", "[]",
        R"({"Action":"start","Actor":{"ID":"a"},"timeNano":1})",
        R"({"Type":"container","Actor":{"ID":"a"},"timeNano":1})",
        R"({"Type":"container","Action":"start","timeNano":1})",
        R"({"Type":"container","Action":"start","Actor":{"ID":"a"}})",
        R"({"Type":"container","Action":"start","Actor":{"ID":"a"},"timeNano":"1"})",
        R"({"Type":"container","Action":"start","Actor":{"ID":"a","Attributes":{"name":3}},"timeNano":1})",
    };
    for (const char* line : broken)
        EXPECT_THROW(parseEvent(line), MalformedReply) << line;
}
