#include "service/resource_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <iomanip>
#include <mutex>
#include <sstream>

#include "cgroup_tree.h"
#include "service/background_listing.h"
#include "fake_source.h"
#include "run_loop.h"
#include "temp_directory.h"

// The node's logic end to end below the bus: the daemon's ResourceManager
// with a fake container source, a real state file, the daemon's cgroup
// driver on a v1 file tree, and the sd-event loop. The allocation rules over
// a workload's life are design.md §1b.
namespace resized::service {
namespace {

using namespace std::chrono_literals;
using core::Amounts;
using core::RunState;
using core::SyncState;
using core::UpdateState;

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;
// The node: four CPUs and 4 GiB, nothing reserved for the system.
const core::CpuSet kNodeCpus{0, 1, 2, 3};
constexpr uint64_t kNodeMemory = 4 * kGi;
// What every container's cgroup holds as created (see CgroupTree).
constexpr uint64_t kCreatedMemory = 256 * kMi;
constexpr auto kRemovedGrace = 200ms;
const std::string kPodmanParent = "/libpod_parent";

// A container ID of 64 hex digits made from `seed`.
std::string idOf(const std::string& seed)
{
    std::ostringstream id;
    id << std::hex << std::setfill('0') << std::setw(16) << std::hash<std::string>{}(seed);
    return id.str() + id.str() + id.str() + id.str();
}

std::optional<ErrorCode> errorCodeOf(const std::function<void()>& call)
{
    try {
        call();
    } catch (const ResizeError& error) {
        return error.code();
    }
    return std::nullopt;
}

class ResourceManagerTest : public ::testing::Test {
protected:
    ResourceManagerTest() { startManager(settings(), WorkloadSources{.containers = &source_}); }

    struct NotStarted {};
    // For a fixture that starts the manager with settings or sources of its
    // own.
    explicit ResourceManagerTest(NotStarted) {}

    Settings settings() const
    {
        Settings settings;
        settings.stateDir = state_.path();
        settings.cgroupRoot = tree_.root();
        settings.systemReserve = {};
        // No periodic pass: every reconciliation here is one a test asked for.
        settings.syncInterval = 1h;
        settings.cgroupDriver = cgroup::DriverChoice::Cgroupfs;
        settings.removedGrace = kRemovedGrace;
        return settings;
    }

    void startManager(const Settings& settings, WorkloadSources sources)
    {
        // One core per CPU, on one NUMA node.
        std::map<unsigned, core::CpuLocation> cores;
        for (const unsigned cpu : kNodeCpus)
            cores[cpu] = {.socket = 0, .coreId = cpu, .numaNode = 0};
        manager_.emplace(loop_, settings,
                         NodeInfo{.cpus = kNodeCpus,
                                  .memoryTotal = kNodeMemory,
                                  .cgroupVersion = "v1",
                                  .topology = core::CpuTopology(std::move(cores))},
                         store_, sources, drivers_);
        manager_->start();
    }

    // A container created, not started, with kCreatedMemory and
    // `createLimits` besides; the manager is told as by the event stream.
    void create(const std::string& name, const std::string& id, core::Resources createLimits = {})
    {
        createLimits.memoryMax = kCreatedMemory;
        source_.add({.name = {core::WorkloadKind::Container, name},
                     .id = id,
                     .pod = "",
                     .state = RunState::Stopped,
                     .cgroupPath = "",
                     .createLimits = createLimits,
                     .poolLabel = ""});
        manager_->containerEvents().containerCreated(id, name);
    }

    // Starts a created container in a fresh cgroup below `parent`, and tells
    // the manager as Podman's event stream would. Returns its cgroup.
    std::string start(const std::string& name, const std::string& parent = kPodmanParent)
    {
        Instance& instance = source_.at(name);
        instance.state = RunState::Running;
        instance.cgroupPath = parent + "/libpod-" + instance.id;
        tree_.add(instance.cgroupPath, kCreatedMemory);
        manager_->containerEvents().containerStarted(instance.id, name);
        return instance.cgroupPath;
    }

    std::string run(const std::string& name, const std::string& id, const std::string& parent = kPodmanParent)
    {
        create(name, id);
        return start(name, parent);
    }
    std::string run(const std::string& name) { return run(name, idOf(name)); }

    // Removed (its cgroup `old` with it) and created again running with
    // the ID `id` and the pool label `poolLabel`, and no event told of
    // either, as while Podman's event stream is away.
    const Instance& createdAgainUnseen(const std::string& name, const std::string& old, const std::string& id,
                                       const std::string& poolLabel = "")
    {
        tree_.remove(old);
        Instance& again = source_.add({.name = {core::WorkloadKind::Container, name},
                                       .id = id,
                                       .pod = "",
                                       .state = RunState::Running,
                                       .cgroupPath = kPodmanParent + "/libpod-" + id,
                                       .createLimits = {},
                                       .poolLabel = poolLabel});
        tree_.add(again.cgroupPath, kCreatedMemory);
        return again;
    }

    void pause(const std::string& name)
    {
        Instance& instance = source_.at(name);
        instance.state = RunState::Paused;
        manager_->containerEvents().containerPaused(instance.id, name);
    }

    void stop(const std::string& name)
    {
        Instance& instance = source_.at(name);
        tree_.remove(instance.cgroupPath);
        instance.state = RunState::Stopped;
        instance.cgroupPath.clear();
        manager_->containerEvents().containerStopped(instance.id, name, service::nowUsec());
    }

    void removeContainer(const std::string& name)
    {
        const Instance removed = source_.at(name);
        tree_.remove(removed.cgroupPath);
        source_.remove(name);
        manager_->containerEvents().containerRemoved(removed.id, name);
    }

    UpdateResult updateNow(const std::string& name, const core::Resources& request, const UpdateOptions& options = {})
    {
        std::optional<UpdateResult> result;
        manager_->update(name, request, options, 0, [&](UpdateResult outcome) { result = std::move(outcome); });
        if (!test::runLoopUntil(loop_, [&] { return result.has_value(); }))
            throw std::runtime_error("no answer to the update of " + name);
        return std::move(*result);
    }

    store::WorkloadRecord updated(const std::string& name, const core::Resources& request,
                                  const UpdateOptions& options = {})
    {
        auto result = updateNow(name, request, options);
        if (const auto* error = std::get_if<ResizeError>(&result))
            throw std::runtime_error("the update of " + name + " was refused: " + error->what());
        return std::get<store::WorkloadRecord>(std::move(result));
    }

    // Waits for the answer of a call that takes an Answer<Value>; throws
    // the ResizeError it answers with.
    template <typename Value>
    Value answerOf(const std::function<void(Answer<Value>)>& call)
    {
        std::optional<Outcome<Value>> outcome;
        call([&](Outcome<Value> answered) { outcome = std::move(answered); });
        if (!test::runLoopUntil(loop_, [&] { return outcome.has_value(); }))
            throw std::runtime_error("no answer");
        if (auto* error = std::get_if<ResizeError>(&*outcome))
            throw std::move(*error);
        return std::get<Value>(std::move(*outcome));
    }
    store::WorkloadRecord status(const std::string& name)
    {
        return answerOf<store::WorkloadRecord>([&](UpdateCallback done) { manager_->status(name, done); });
    }
    Verdict validate(const std::string& name, const core::Resources& request)
    {
        return answerOf<Verdict>([&](Answer<Verdict> done) { manager_->validate(name, request, done); });
    }
    void reconcile(const std::string& name)
    {
        answerOf<std::monostate>([&](Answer<std::monostate> done) { manager_->reconcile(name, done); });
    }
    void forget(const std::string& name)
    {
        answerOf<std::monostate>([&](Answer<std::monostate> done) { manager_->forget(name, 0, done); });
    }

    ResizeError refused(const std::string& name, const core::Resources& request, const UpdateOptions& options = {})
    {
        auto result = updateNow(name, request, options);
        if (std::holds_alternative<store::WorkloadRecord>(result))
            throw std::runtime_error("the update of " + name + " to " + core::describe(request) + " was admitted");
        return std::get<ResizeError>(std::move(result));
    }

    // Runs the loop until the stored record of `name` satisfies `holds`.
    bool recordBecomes(const std::string& name, const std::function<bool(const store::WorkloadRecord&)>& holds)
    {
        return test::runLoopUntil(loop_, [&] {
            const auto record = store_.find(name);
            return record && holds(*record);
        });
    }
    static bool succeeded(const store::WorkloadRecord& record)
    {
        return record.updateState == UpdateState::Success && record.syncState == SyncState::Synchronized;
    }

    store::WorkloadRecord stored(const std::string& name)
    {
        auto record = store_.find(name);
        if (!record)
            throw std::runtime_error("the store does not know " + name);
        return *record;
    }

    Amounts allocated() { return manager_->budget().allocated; }
    std::string quotaOf(const std::string& cgroup) const { return tree_.read("cpu", cgroup, "cpu.cfs_quota_us"); }

    test::CgroupTree tree_;
    resized::test::TempDirectory state_;
    store::StateStore store_{state_.path() / "state.db"};
    cgroup::DriverSelector drivers_{tree_.root(), cgroup::DriverChoice::Cgroupfs};
    EventLoop loop_;
    test::FakeSource source_;
    // The passes' listings, where a fixture lists on a thread as the
    // daemon does; the manager goes first.
    std::optional<BackgroundListing> listing_;
    std::optional<ResourceManager> manager_;
};

TEST_F(ResourceManagerTest, UpdatingARunningWorkloadWritesItsCgroupAndHoldsTheAllocation)
{
    const auto cgroup = run("web");
    // Unmanaged so far: counted at what its cgroup holds.
    EXPECT_EQ(allocated(), (Amounts{0, kCreatedMemory}));

    const auto record = updated("web", {.cpuMillis = 1500, .memoryMax = 512 * kMi});

    EXPECT_EQ(record.updateState, UpdateState::Success);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.generation, 1u);
    EXPECT_EQ(record.observedGeneration, 1u);
    EXPECT_EQ(record.desired, (core::Resources{.cpuMillis = 1500, .memoryMax = 512 * kMi}));
    EXPECT_EQ(record.actual.cpuMillis, 1500u);
    EXPECT_EQ(record.actual.memoryMax, 512 * kMi);
    EXPECT_EQ(record.containerId, idOf("web"));
    EXPECT_EQ(record.cgroupPath, cgroup);
    EXPECT_EQ(record.driver, "cgroupfs-v1");
    EXPECT_EQ(quotaOf(cgroup), "150000");
    EXPECT_EQ(tree_.read("memory", cgroup, "memory.limit_in_bytes"), std::to_string(512 * kMi));

    // Committed: the record as answered, the allocation held, no
    // reservation left.
    EXPECT_EQ(stored("web"), record);
    EXPECT_TRUE(record.holdsAllocation);
    EXPECT_EQ(record.allocated, (Amounts{1500, 512 * kMi}));
    EXPECT_TRUE(store_.reservations().empty());
    EXPECT_EQ(manager_->budget().reserved, Amounts{});
    EXPECT_EQ(allocated(), (Amounts{1500, 512 * kMi}));
    const auto history = store_.history("web", 10);
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0].operation, "update");
    EXPECT_EQ(history[0].result, "success");
}

TEST_F(ResourceManagerTest, UpdatingAStoppedWorkloadHoldsItsAllocationAndWritesItWhenItStarts)
{
    create("db", idOf("db"), {.cpuMillis = 500});

    const auto record = updated("db", {.cpuMillis = 1000});

    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(record.syncState, SyncState::Pending);
    EXPECT_EQ(record.runState, RunState::Stopped);
    EXPECT_TRUE(record.holdsAllocation);
    // The memory limit it was created with counts: no desired value for it.
    EXPECT_EQ(record.allocated, (Amounts{1000, kCreatedMemory}));
    EXPECT_EQ(stored("db"), record);
    EXPECT_EQ(allocated(), (Amounts{1000, kCreatedMemory}));
    EXPECT_TRUE(store_.reservations().empty());

    const auto cgroup = start("db");
    ASSERT_TRUE(recordBecomes("db", succeeded));
    EXPECT_EQ(quotaOf(cgroup), "100000");
    EXPECT_EQ(stored("db").runState, RunState::Running);
    EXPECT_EQ(allocated(), (Amounts{1000, kCreatedMemory}));
}

TEST_F(ResourceManagerTest, AnIncreaseBeyondWhatIsAvailableIsRefusedAndChangesNothing)
{
    run("a");
    const auto b = run("b");
    updated("a", {.cpuMillis = 3000});

    const auto cpu = refused("b", {.cpuMillis = 1500});
    EXPECT_EQ(cpu.code(), ErrorCode::InsufficientResources);
    EXPECT_STREQ(cpu.what(), "asked 1500m more CPU, 1 available on this node");
    // b holds its 256Mi already; 4Gi − 2 × 256Mi are free.
    const auto memory = refused("b", {.memoryMax = kNodeMemory - 128 * kMi});
    EXPECT_EQ(memory.code(), ErrorCode::InsufficientResources);
    EXPECT_STREQ(memory.what(), "asked 3712Mi more memory, 3584Mi available on this node");

    EXPECT_EQ(quotaOf(b), "-1");
    EXPECT_EQ(tree_.read("memory", b, "memory.limit_in_bytes"), std::to_string(kCreatedMemory));
    EXPECT_FALSE(store_.find("b"));
    EXPECT_TRUE(store_.reservations().empty());
    EXPECT_EQ(allocated(), (Amounts{3000, 2 * kCreatedMemory}));
}

TEST_F(ResourceManagerTest, AnInfeasibleRequestOfAKnownWorkloadIsRecordedAsInfeasible)
{
    const auto cgroup = run("a");
    updated("a", {.cpuMillis = 1000});

    const auto error = refused("a", {.cpuMillis = 5000});

    EXPECT_EQ(error.code(), ErrorCode::Infeasible);
    EXPECT_STREQ(error.what(), "asked 5 CPU, more than this node's allocatable 4");
    const auto record = stored("a");
    EXPECT_EQ(record.updateState, UpdateState::Infeasible);
    EXPECT_EQ(record.message, error.what());
    EXPECT_EQ(record.desired, (core::Resources{.cpuMillis = 1000}));
    EXPECT_EQ(record.generation, 1u);
    EXPECT_EQ(record.allocated, (Amounts{1000, kCreatedMemory}));
    EXPECT_EQ(quotaOf(cgroup), "100000");
}

TEST_F(ResourceManagerTest, AnInfeasibleRequestOfAnUnmanagedWorkloadLeavesNoRecord)
{
    run("a");
    const auto error = refused("a", {.memoryMax = 5 * kGi});
    EXPECT_EQ(error.code(), ErrorCode::Infeasible);
    EXPECT_STREQ(error.what(), "asked 5Gi memory, more than this node's allocatable 4Gi");
    EXPECT_FALSE(store_.find("a"));
}

TEST_F(ResourceManagerTest, CpusOutsideTheNodeOrTheParentCgroupAreInfeasible)
{
    tree_.restrictParent("/restricted", "0-1");
    const auto cgroup = run("r", idOf("r"), "/restricted");

    const auto outsideNode = refused("r", {.allowedCpus = core::CpuSet{4}});
    EXPECT_EQ(outsideNode.code(), ErrorCode::Infeasible);
    EXPECT_STREQ(outsideNode.what(), "asked CPUs 4, this node has 0-3");
    const auto outsideParent = refused("r", {.allowedCpus = core::CpuSet{2, 3}});
    EXPECT_EQ(outsideParent.code(), ErrorCode::Infeasible);
    EXPECT_STREQ(outsideParent.what(), "asked CPUs 2-3, the workload's parent cgroup allows 0-1");
    EXPECT_EQ(tree_.read("cpuset", cgroup, "cpuset.cpus"), "0-1");

    EXPECT_EQ(updated("r", {.allowedCpus = core::CpuSet{1}}).updateState, UpdateState::Success);
    EXPECT_EQ(tree_.read("cpuset", cgroup, "cpuset.cpus"), "1");
}

TEST_F(ResourceManagerTest, ADeferredUpdateIsAppliedWhenAnotherWorkloadShrinks)
{
    run("a");
    const auto b = run("b");
    updated("a", {.cpuMillis = 3000});
    UpdateOptions defer;
    defer.defer = true;

    const auto waiting = updated("b", {.cpuMillis = 1500}, defer);

    EXPECT_EQ(waiting.updateState, UpdateState::Deferred);
    EXPECT_EQ(waiting.message, "waiting for capacity: asked 1500m more CPU, 1 available on this node");
    ASSERT_EQ(store_.deferredUpdates().size(), 1u);
    EXPECT_EQ(store_.deferredUpdates()[0].workload, "b");
    EXPECT_EQ(quotaOf(b), "-1");
    EXPECT_EQ(allocated().cpuMillis, 3000u);

    updated("a", {.cpuMillis = 2000});
    ASSERT_TRUE(recordBecomes("b", succeeded));
    EXPECT_EQ(quotaOf(b), "150000");
    EXPECT_EQ(stored("b").desired, (core::Resources{.cpuMillis = 1500}));
    EXPECT_TRUE(store_.deferredUpdates().empty());
    EXPECT_EQ(allocated().cpuMillis, 3500u);
}

TEST_F(ResourceManagerTest, AForgottenRunningWorkloadCountsAtWhatItsCgroupHolds)
{
    const auto cgroup = run("a");
    updated("a", {.cpuMillis = 1500, .memoryMax = 512 * kMi});

    forget("a");

    EXPECT_FALSE(store_.find("a"));
    EXPECT_EQ(quotaOf(cgroup), "150000");
    EXPECT_EQ(allocated(), (Amounts{1500, 512 * kMi}));
    // From now on as any container resized does not manage: a change by
    // hand is what counts.
    tree_.write("cpu", cgroup, "cpu.cfs_quota_us", "100000");
    manager_->resynchronise();
    EXPECT_EQ(allocated(), (Amounts{1000, 512 * kMi}));
    EXPECT_EQ(errorCodeOf([&] { forget("a"); }), ErrorCode::NoSuchWorkload);
}

// design.md §1c: a Forget of a workload whose change is in flight waits
// for that change to end, then forgets; the change does not bring the
// workload back.
TEST_F(ResourceManagerTest, AForgetWaitsForTheChangeInFlight)
{
    const std::string cgroup = run("a");
    updated("a", {.cpuMillis = 300});
    tree_.setUsage(cgroup, kCreatedMemory);
    UpdateOptions slowShrink;
    slowShrink.reclaimTimeout = 200ms;
    std::vector<std::string> answered;
    // Below what the cgroup uses: it waits for a reclaim that never comes.
    manager_->update("a", {.memoryMax = kCreatedMemory / 2}, slowShrink, 0,
                     [&](const UpdateResult& result) {
                         answered.push_back(std::holds_alternative<ResizeError>(result) ? "update refused" : "update");
                     });
    manager_->forget("a", 0, [&](const Outcome<std::monostate>& result) {
        answered.push_back(std::holds_alternative<ResizeError>(result) ? "forget refused" : "forget");
    });

    ASSERT_TRUE(test::runLoopUntil(loop_, [&] { return answered.size() == 2; }));
    EXPECT_EQ(answered, (std::vector<std::string>{"update refused", "forget"}));
    EXPECT_FALSE(store_.find("a"));
    EXPECT_TRUE(store_.reservations().empty());
}

TEST_F(ResourceManagerTest, PausedAndStoppedWorkloadsKeepTheirAllocation)
{
    const auto cgroup = run("a");
    run("b");
    updated("a", {.cpuMillis = 3000});

    pause("a");
    EXPECT_EQ(stored("a").runState, RunState::Paused);
    EXPECT_TRUE(stored("a").holdsAllocation);
    EXPECT_EQ(allocated().cpuMillis, 3000u);
    EXPECT_EQ(refused("b", {.cpuMillis = 1500}).code(), ErrorCode::InsufficientResources);
    // A frozen container keeps its cgroup: it is resized at once.
    EXPECT_EQ(updated("a", {.cpuMillis = 2500}).updateState, UpdateState::Success);
    EXPECT_EQ(quotaOf(cgroup), "250000");

    stop("a");
    EXPECT_EQ(stored("a").runState, RunState::Stopped);
    EXPECT_TRUE(stored("a").holdsAllocation);
    EXPECT_EQ(allocated().cpuMillis, 2500u);
    EXPECT_EQ(refused("b", {.cpuMillis = 2000}).code(), ErrorCode::InsufficientResources);
    // Lowered while stopped: held at the new figure at once.
    EXPECT_EQ(updated("a", {.cpuMillis = 2000}).updateState, UpdateState::Pending);
    EXPECT_EQ(allocated().cpuMillis, 2000u);
    EXPECT_EQ(updated("b", {.cpuMillis = 2000}).updateState, UpdateState::Success);
}

TEST_F(ResourceManagerTest, ARemovedWorkloadsAllocationIsReleasedAfterTheGrace)
{
    run("a");
    updated("a", {.cpuMillis = 1500});

    removeContainer("a");
    // Held still: the loop has not run since, so the grace cannot be over.
    EXPECT_EQ(stored("a").runState, RunState::Removed);
    EXPECT_TRUE(stored("a").holdsAllocation);
    EXPECT_EQ(allocated().cpuMillis, 1500u);

    ASSERT_TRUE(recordBecomes("a", [](const auto& record) { return !record.holdsAllocation; }));
    EXPECT_EQ(allocated(), Amounts{});
    const auto released = stored("a");
    EXPECT_EQ(released.desired, (core::Resources{.cpuMillis = 1500}));
    EXPECT_EQ(released.updateState, UpdateState::Pending);
    EXPECT_EQ(released.allocated, Amounts{});

    // A container of that name appears later: admitted again and written.
    const auto again = run("a", idOf("a, later"));
    ASSERT_TRUE(recordBecomes("a", [](const auto& record) { return succeeded(record) && record.holdsAllocation; }));
    EXPECT_EQ(quotaOf(again), "150000");
    EXPECT_EQ(stored("a").containerId, idOf("a, later"));
    EXPECT_EQ(allocated().cpuMillis, 1500u);
}

TEST_F(ResourceManagerTest, AWorkloadRecreatedWithinTheGraceKeepsItsAllocationAndLimits)
{
    run("a");
    updated("a", {.cpuMillis = 1500});
    removeContainer("a");

    const auto again = run("a", idOf("a, replaced"));
    ASSERT_TRUE(recordBecomes("a", [](const auto& record) {
        return record.containerId == idOf("a, replaced") && succeeded(record);
    }));
    EXPECT_EQ(quotaOf(again), "150000");

    // sd-event fires a timer up to 250 ms late: this one comes after the
    // release timer whatever the delays.
    bool gracePassed = false;
    const auto afterGrace = loop_.after(kRemovedGrace + 500ms, [&] { gracePassed = true; });
    ASSERT_TRUE(test::runLoopUntil(loop_, [&] { return gracePassed; }));
    EXPECT_TRUE(stored("a").holdsAllocation);
    EXPECT_EQ(stored("a").runState, RunState::Running);
    EXPECT_EQ(allocated().cpuMillis, 1500u);
}

TEST_F(ResourceManagerTest, AKnownWorkloadsNameIsNeverAnotherContainersIdPrefix)
{
    // A name that is also a short ID: twelve hex digits.
    const std::string name = "b3b3b3b3b3b3";
    run(name);
    updated(name, {.cpuMillis = 1000});
    removeContainer(name);
    const auto other = run("other", name + std::string(52, '0'));

    const auto record = updated(name, {.cpuMillis = 1200});

    EXPECT_EQ(record.name, name);
    EXPECT_EQ(record.containerId, idOf(name));
    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(quotaOf(other), "-1");
    EXPECT_FALSE(store_.find("other"));
    EXPECT_EQ(status(name).containerId, idOf(name));
    reconcile(name);
    EXPECT_EQ(stored(name).runState, RunState::Removed);
    EXPECT_EQ(stored(name).containerId, idOf(name));
}

TEST_F(ResourceManagerTest, AnUnknownNameIsNeverAContainerIdPrefix)
{
    const std::string id = "db" + std::string(62, 'e');
    const auto cgroup = run("web", id);

    EXPECT_EQ(refused("db", {.cpuMillis = 500}).code(), ErrorCode::NoSuchWorkload);
    EXPECT_EQ(errorCodeOf([&] { validate("db", {.cpuMillis = 500}); }), ErrorCode::NoSuchWorkload);
    EXPECT_EQ(errorCodeOf([&] { status("db"); }), ErrorCode::NoSuchWorkload);
    EXPECT_EQ(quotaOf(cgroup), "-1");

    // Twelve digits are Podman's short ID: the container, under its name.
    const auto record = updated(id.substr(0, 12), {.cpuMillis = 700});
    EXPECT_EQ(record.name, "web");
    EXPECT_EQ(quotaOf(cgroup), "70000");

    // Unless they name two containers.
    run("web2", "db" + std::string(61, 'e') + "f");
    EXPECT_EQ(refused(id.substr(0, 12), {.cpuMillis = 800}).code(), ErrorCode::NoSuchWorkload);
    EXPECT_EQ(quotaOf(cgroup), "70000");
}

TEST_F(ResourceManagerTest, AnUnreachableRuntimeIsRuntimeUnavailable)
{
    run("a");
    ASSERT_TRUE(manager_->runtimeConnected());

    source_.setReachable(false);
    EXPECT_EQ(refused("a", {.cpuMillis = 500}).code(), ErrorCode::RuntimeUnavailable);
    EXPECT_EQ(errorCodeOf([&] { validate("a", {.cpuMillis = 500}); }), ErrorCode::RuntimeUnavailable);
    EXPECT_FALSE(manager_->runtimeConnected());
    // This node has no source of pods at all.
    EXPECT_EQ(errorCodeOf([&] { validate("pod:shop", {.cpuMillis = 500}); }),
              ErrorCode::RuntimeUnavailable);

    source_.setReachable(true);
    EXPECT_EQ(updated("a", {.cpuMillis = 500}).updateState, UpdateState::Success);
    EXPECT_TRUE(manager_->runtimeConnected());
}

// While Podman's events flow they keep a binding current: a change to a
// running container resized is bound to asks the source nothing. Where the
// binding may be stale, it asks: before the stream is established, after
// it ended, when the bound cgroup is gone, and for a Reconcile.
TEST_F(ResourceManagerTest, WhileTheEventsFlowAChangeToABoundContainerAsksItsSourceNothing)
{
    const auto cgroup = run("web");
    updated("web", {.cpuMillis = 500});
    manager_->containerEvents().resynchronise();

    const int finds = source_.finds();
    EXPECT_EQ(updated("web", {.cpuMillis = 700}).actual.cpuMillis, 700u);
    EXPECT_EQ(quotaOf(cgroup), "70000");
    EXPECT_TRUE(validate("web", {.cpuMillis = 800}).first);
    EXPECT_EQ(status("web").cgroupPath, cgroup);
    EXPECT_EQ(source_.finds(), finds);

    reconcile("web");
    EXPECT_EQ(source_.finds(), finds + 1);
}

TEST_F(ResourceManagerTest, BeforeAndAfterTheEventStreamEveryChangeAsksTheSource)
{
    run("web");
    updated("web", {.cpuMillis = 500});
    int finds = source_.finds();
    updated("web", {.cpuMillis = 600});
    EXPECT_EQ(source_.finds(), finds + 1);

    manager_->containerEvents().resynchronise();
    manager_->containerEvents().runtimeLost();
    finds = source_.finds();
    source_.setReachable(false);
    EXPECT_EQ(refused("web", {.cpuMillis = 700}).code(), ErrorCode::RuntimeUnavailable);
    EXPECT_EQ(source_.finds(), finds + 1);
}

TEST_F(ResourceManagerTest, AContainerCreatedAgainBeforeItsEventsIsFoundByItsName)
{
    const auto old = run("web");
    updated("web", {.cpuMillis = 500});
    manager_->containerEvents().resynchronise();

    // Removed and created again under its name; no event has come yet.
    const Instance& again = createdAgainUnseen("web", old, idOf("web again"));
    const int finds = source_.finds();

    const auto record = updated("web", {.cpuMillis = 700});
    EXPECT_EQ(source_.finds(), finds + 1);
    EXPECT_EQ(record.containerId, idOf("web again"));
    EXPECT_EQ(quotaOf(again.cgroupPath), "70000");
}

// Watches what a pool's members hold at every change the manager
// announces, as its pool object on the bus shows it.
class PoolAllocationWatch final : public ManagerObserver {
public:
    PoolAllocationWatch(ResourceManager& manager, store::PoolRecord pool) : manager_(manager), pool_(std::move(pool))
    {
        manager_.setObserver(this);
    }
    ~PoolAllocationWatch() override { manager_.setObserver(nullptr); }

    uint64_t mostCpuMillis() const { return mostCpuMillis_; }

    void workloadChanged(const store::WorkloadRecord&) override
    {
        mostCpuMillis_ = std::max(mostCpuMillis_, manager_.poolAllocated(pool_).cpuMillis);
    }
    void workloadForgotten(const std::string&) override {}
    void budgetChanged() override {}
    void runtimeConnectionChanged(bool) override {}
    void resourcesApplied(const std::string&, const core::Resources&) override {}
    void driftDetected(const std::string&, const core::Resources&, const core::Resources&) override {}
    void updateFailed(const std::string&, ErrorCode, const std::string&) override {}
    void poolDisrupted(const store::Disruption&) override {}

private:
    ResourceManager& manager_;
    store::PoolRecord pool_;
    uint64_t mostCpuMillis_ = 0;
};

// Created again with a pool's label while its events were missed (Podman
// away): the change that finds it there admits it under the pool's cap,
// not holding what it was admitted with outside the pool meanwhile.
TEST_F(ResourceManagerTest, AChangeAdmitsAContainerCreatedAgainInAPoolUnderThePoolsCap)
{
    const store::PoolRecord batch{.name = "batch", .cap = {500, core::kUnlimited}};
    store_.savePool(batch);
    manager_->poolsChanged();
    const auto old = run("job");
    updated("job", {.cpuMillis = 800});

    const Instance& again = createdAgainUnseen("job", old, idOf("job in batch"), "batch");
    const PoolAllocationWatch watch(*manager_, batch);

    const auto record = updated("job", {.cpuMillis = 100});

    EXPECT_EQ(record.pool(), "batch");
    EXPECT_EQ(quotaOf(again.cgroupPath), "10000");
    EXPECT_EQ(manager_->poolAllocated(batch).cpuMillis, 100u);
    EXPECT_LE(watch.mostCpuMillis(), 500u);
    EXPECT_EQ(allocated().cpuMillis, 100u);
}

TEST_F(ResourceManagerTest, UnmanagedContainersCountWhatTheirCgroupsHoldNow)
{
    // Created with 256Mi and no CPU limit, changed by hand since.
    const auto cgroup = run("u");
    tree_.write("cpu", cgroup, "cpu.cfs_quota_us", "50000");
    tree_.write("memory", cgroup, "memory.limit_in_bytes", std::to_string(768 * kMi));
    manager_->resynchronise();
    EXPECT_EQ(allocated(), (Amounts{500, 768 * kMi}));

    stop("u");
    EXPECT_EQ(allocated(), Amounts{});
}

TEST_F(ResourceManagerTest, KeysWithoutADesiredValueCountWhatTheCgroupHoldsNow)
{
    const auto cgroup = run("m");
    updated("m", {.cpuMillis = 1000});
    EXPECT_EQ(stored("m").allocated, (Amounts{1000, kCreatedMemory}));

    tree_.write("memory", cgroup, "memory.limit_in_bytes", std::to_string(kGi));
    reconcile("m");

    EXPECT_EQ(stored("m").allocated, (Amounts{1000, kGi}));
    EXPECT_EQ(allocated(), (Amounts{1000, kGi}));
    EXPECT_EQ(stored("m").syncState, SyncState::Synchronized);
}

// Podman still says running, the cgroup is gone (the container is exiting):
// both refuse, for the same reason, and nothing is remembered.
TEST_F(ResourceManagerTest, ACgroupThatCannotBeReadIsRefusedByValidateAndUpdateAlike)
{
    const auto cgroup = run("a");
    tree_.remove(cgroup);

    const auto [allowed, reason] = validate("a", {.cpuMillis = 500});
    const auto error = refused("a", {.cpuMillis = 500});

    EXPECT_FALSE(allowed);
    EXPECT_EQ(error.code(), ErrorCode::ApplyFailed);
    EXPECT_EQ(error.what(), reason);
    EXPECT_NE(reason.find("cannot read the workload's cgroup"), std::string::npos) << reason;
    EXPECT_FALSE(store_.find("a"));
}

// ValidateResourceUpdate and UpdateResources must never disagree: one
// request after another, through both, on workloads in every situation.
TEST_F(ResourceManagerTest, ValidateAndADryRunGiveTheSameAnswerForEveryRequest)
{
    tree_.restrictParent("/restricted", "0-1");
    run("filler");
    updated("filler", {.cpuMillis = 2000, .memoryMax = 2 * kGi});
    run("managed");
    updated("managed", {.cpuMillis = 500});
    run("unmanaged");
    run("restricted", idOf("restricted"), "/restricted");
    create("stopped", idOf("stopped"), {.cpuMillis = 700});
    run("removed");
    updated("removed", {.cpuMillis = 300});
    removeContainer("removed");
    // Left: 4000m − 2000m − 500m − 300m of CPU; 4Gi − 2Gi − 4 × 256Mi of memory.
    ASSERT_EQ(manager_->budget().available(), (Amounts{1200, kGi}));

    std::vector<core::Resources> requests;
    const uint64_t cpus[] = {1, 300, 1000, 1500, 2500, 4000, 4001, core::kUnlimited};
    const uint64_t memories[] = {4 * kMi, 256 * kMi, kGi, kGi + 512 * kMi, 4 * kGi, 5 * kGi, core::kUnlimited};
    const core::CpuSet cpusets[] = {{}, {0}, {1, 2}, {3}, {4}};
    for (const auto cpu : cpus) {
        requests.push_back({.cpuMillis = cpu});
        for (const auto memory : memories)
            requests.push_back({.cpuMillis = cpu, .memoryMax = memory});
        for (const auto& cpuset : cpusets)
            requests.push_back({.cpuMillis = cpu, .allowedCpus = cpuset});
    }
    for (const auto memory : memories)
        requests.push_back({.memoryMax = memory, .memoryHigh = memory == core::kUnlimited ? memory : memory / 2});
    for (const auto& cpuset : cpusets)
        requests.push_back({.cpuWeight = 200, .allowedCpus = cpuset});

    std::map<std::string, int> answers;
    UpdateOptions dryRun;
    dryRun.dryRun = true;
    for (const std::string workload : {"managed", "unmanaged", "restricted", "stopped", "removed"}) {
        for (const auto& request : requests) {
            SCOPED_TRACE(workload + ": " + core::describe(request));
            const auto [allowed, reason] = validate(workload, request);
            const auto before = store_.workloads();
            const auto result = updateNow(workload, request, dryRun);
            if (allowed) {
                EXPECT_TRUE(std::holds_alternative<store::WorkloadRecord>(result))
                    << std::get<ResizeError>(result).what();
                ++answers["admitted"];
            } else if (const auto* error = std::get_if<ResizeError>(&result)) {
                EXPECT_TRUE(error->code() == ErrorCode::InsufficientResources || error->code() == ErrorCode::Infeasible)
                    << toString(error->code());
                EXPECT_EQ(error->what(), reason);
                ++answers[std::string(toString(error->code()))];
            } else {
                ADD_FAILURE() << "validate refused (" << reason << "), the dry run admitted";
            }
            EXPECT_EQ(store_.workloads(), before) << "a dry run changed the store";
        }
    }
    // The grid reaches every answer.
    EXPECT_GT(answers["admitted"], 0);
    EXPECT_GT(answers["InsufficientResources"], 0);
    EXPECT_GT(answers["Infeasible"], 0);
}

// A listing that, as Podman's under load, ends a while after it began:
// it shows the containers as they were when the test took its snapshot,
// once the test lets it end.
class SlowListing final : public WorkloadSource {
public:
    void snapshot(std::vector<Instance> instances)
    {
        const std::lock_guard lock(mutex_);
        snapshot_ = std::move(instances);
    }
    void end()
    {
        const std::lock_guard lock(mutex_);
        ended_ = true;
        endedChanged_.notify_all();
    }

    std::optional<Instance> find(const core::WorkloadName&) override { return std::nullopt; }
    std::vector<Instance> list() override
    {
        std::unique_lock lock(mutex_);
        endedChanged_.wait(lock, [this] { return ended_; });
        ended_ = false;
        return snapshot_;
    }

private:
    std::mutex mutex_;
    std::condition_variable endedChanged_;
    std::vector<Instance> snapshot_;
    bool ended_ = false;
};

// The static CPU manager, with the passes listing on a thread of their own.
class CpuManagerPassTest : public ResourceManagerTest {
protected:
    CpuManagerPassTest() : ResourceManagerTest(NotStarted{})
    {
        Settings withSlices = settings();
        withSlices.cpuManager.policy = core::CpuManagerPolicy::Static;
        listing_.emplace(loop_, slowListing_);
        startManager(withSlices, WorkloadSources{.containers = &source_, .podmanListing = &*listing_});
    }
    ~CpuManagerPassTest() override
    {
        // A listing under way ends, and its thread is joined, before the
        // source it lists goes.
        slowListing_.end();
        manager_.reset();
        listing_.reset();
    }

    SlowListing slowListing_;
};

// A container that starts while a pass's listing is under way is missing
// from that listing: the pass must not forget it, or a slice given after
// leaves it running on the slice's CPUs (seen under AddressSanitizer, where
// the listing is slower, with a pod's infra container).
TEST_F(CpuManagerPassTest, AContainerStartedWhileAPassListsLeavesASliceGivenAfter)
{
    bool passed = false;
    manager_->reconcile("", [&](Outcome<std::monostate>) { passed = true; });
    const auto other = run("other");
    slowListing_.end();
    ASSERT_TRUE(test::runLoopUntil(loop_, [&] { return passed; }));

    run("web");
    const auto record = updated("web", {.exclusiveCpus = 1});
    ASSERT_TRUE(record.desired.allowedCpus);
    const core::CpuSet shared = core::difference(kNodeCpus, *record.desired.allowedCpus);
    EXPECT_TRUE(test::runLoopUntil(
        loop_, [&] { return tree_.read("cpuset", other, "cpuset.cpus") == core::formatCpuSet(shared); }))
        << "other runs on CPUs " << tree_.read("cpuset", other, "cpuset.cpus") << ", not "
        << core::formatCpuSet(shared);
}

}  // namespace
}  // namespace resized::service
