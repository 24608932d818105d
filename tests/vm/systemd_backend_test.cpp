#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <sdbus-c++/sdbus-c++.h>

#include "cgroup/systemd_backend.h"
#include "core/resources.h"
#include "support/unique_fd.h"

// The systemd backend against real systemd (PID 1) and cgroup v2: runs in
// the VM guest only, where guest-test.sh starts it inside the sandbox of
// resized.service.
namespace resized::cgroup {
namespace {

using core::kUnlimited;

constexpr uint64_t kMi = 1 << 20;
constexpr const char* kSystemd = "org.freedesktop.systemd1";
constexpr const char* kManager = "org.freedesktop.systemd1.Manager";
constexpr const char* kScope = "org.freedesktop.systemd1.Scope";
const std::filesystem::path kCgroupRoot = "/sys/fs/cgroup";

using Properties = std::vector<sdbus::Struct<std::string, sdbus::Variant>>;
using AuxiliaryUnits = std::vector<sdbus::Struct<std::string, Properties>>;

// A transient scope holding one sleeping child, as Podman makes one for
// each container; stopped and its child reaped however the test ends. The
// child execs only once it is in the scope, so that the scope is charged
// for the memory of a process: a child that ran before the move was charged
// to the test's cgroup, and the scope's memory.current could stay 0.
class TransientScope {
public:
    TransientScope(sdbus::IConnection& bus, std::string name) : bus_(bus), name_(std::move(name))
    {
        auto [gateOut, gateIn] = makePipe();
        auto [execedOut, execedIn] = makePipe();
        child_ = fork();
        if (child_ == 0) {
            char go = 0;
            if (read(gateOut.get(), &go, 1) == 1)
                execl("/bin/sleep", "sleep", "infinity", nullptr);
            _exit(127);
        }
        gateOut.reset();
        execedIn.reset();
        const Properties properties{{"PIDs", sdbus::Variant(std::vector<uint32_t>{uint32_t(child_)})},
                                    {"Description", sdbus::Variant(std::string("resized systemd backend test"))}};
        sdbus::ObjectPath job;
        manager()->callMethod("StartTransientUnit").onInterface(kManager)
            .withArguments(name_, std::string("fail"), properties, AuxiliaryUnits{}).storeResultsTo(job);
        manager()->callMethod("GetUnit").onInterface(kManager).withArguments(name_).storeResultsTo(unitPath_);
        unit_ = sdbus::createProxy(bus_, kSystemd, unitPath_);
        waitForControlGroup();
        waitForCgroupOf(child_);
        // The child's end of `execed` closes with the exec: EOF then.
        const char go = 1;
        if (write(gateIn.get(), &go, 1) != 1)
            throw std::system_error(errno, std::generic_category(), "releasing the scope's child");
        char ignored = 0;
        while (read(execedOut.get(), &ignored, 1) < 0 && errno == EINTR) {
        }
    }

    ~TransientScope()
    {
        try {
            sdbus::ObjectPath job;
            manager()->callMethod("StopUnit").onInterface(kManager)
                .withArguments(name_, std::string("replace")).storeResultsTo(job);
        } catch (const sdbus::Error&) {
            // Gone already; the child is killed below either way.
        }
        kill(child_, SIGKILL);
        waitpid(child_, nullptr, 0);
    }

    TransientScope(const TransientScope&) = delete;
    TransientScope& operator=(const TransientScope&) = delete;

    const std::string& cgroup() const { return cgroup_; }

    sdbus::Variant property(const std::string& name)
    {
        return unit_->getProperty(name).onInterface(kScope);
    }

private:
    // {read end, write end}, both closed on exec.
    static std::pair<integration::UniqueFd, integration::UniqueFd> makePipe()
    {
        int ends[2];
        if (pipe2(ends, O_CLOEXEC) != 0)
            throw std::system_error(errno, std::generic_category(), "pipe2");
        return {integration::UniqueFd(ends[0]), integration::UniqueFd(ends[1])};
    }

    std::unique_ptr<sdbus::IProxy> manager() { return sdbus::createProxy(bus_, kSystemd, "/org/freedesktop/systemd1"); }

    // StartTransientUnit returns once the job is queued: the scope has a
    // cgroup once the job has run.
    void waitForControlGroup()
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while ((cgroup_ = property("ControlGroup").get<std::string>()).empty()) {
            if (std::chrono::steady_clock::now() >= deadline)
                throw std::runtime_error(name_ + " never got a cgroup");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }

    // The child is in the scope when its cgroup lists it.
    void waitForCgroupOf(pid_t pid)
    {
        const auto procs = kCgroupRoot / cgroup_.substr(1) / "cgroup.procs";
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < deadline) {
            std::ifstream file(procs);
            for (pid_t listed; file >> listed;)
                if (listed == pid)
                    return;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        FAIL() << "pid " << pid << " never appeared in " << procs;
    }

    sdbus::IConnection& bus_;
    std::string name_;
    pid_t child_ = -1;
    sdbus::ObjectPath unitPath_;
    std::unique_ptr<sdbus::IProxy> unit_;
    std::string cgroup_;
};

class SystemdBackendTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!std::filesystem::exists("/run/systemd/system") || sysconf(_SC_NPROCESSORS_ONLN) < 2)
            GTEST_SKIP() << "needs systemd as PID 1 and two CPUs (the VM guest)";
        bus_ = sdbus::createSystemBusConnection();
        // A name of its own for each test: the previous test's scope may
        // still be stopping.
        static unsigned scopes = 0;
        scope_ = std::make_unique<TransientScope>(
            *bus_, "resized-backend-test-" + std::to_string(getpid()) + "-" + std::to_string(++scopes) + ".scope");
    }

    void daemonReload()
    {
        sdbus::createProxy(*bus_, kSystemd, "/org/freedesktop/systemd1")->callMethod("Reload").onInterface(kManager);
    }

    std::unique_ptr<sdbus::IConnection> bus_;
    std::unique_ptr<TransientScope> scope_;
    SystemdBackend backend_{kCgroupRoot};
};

// The guest has two NUMA nodes: memory node 1 is a restriction.
const core::Resources kLimits{.cpuMillis = 250, .memoryMax = 64 * kMi, .memoryHigh = 48 * kMi,
                              .cpuWeight = 50, .allowedCpus = core::CpuSet{1}, .memoryNodes = core::CpuSet{1}};

// systemd answers with its whole CPU_ALLOC_SIZE() mask: zeros follow.
std::vector<uint8_t> significant(std::vector<uint8_t> mask)
{
    while (!mask.empty() && mask.back() == 0)
        mask.pop_back();
    return mask;
}

TEST_F(SystemdBackendTest, WritesEveryLimitAsAUnitProperty)
{
    backend_.write(scope_->cgroup(), kLimits);

    EXPECT_EQ(backend_.read(scope_->cgroup()), kLimits);
    EXPECT_EQ(scope_->property("CPUQuotaPerSecUSec").get<uint64_t>(), 250'000u);
    EXPECT_EQ(scope_->property("CPUQuotaPeriodUSec").get<uint64_t>(), 100'000u);
    EXPECT_EQ(scope_->property("MemoryMax").get<uint64_t>(), 64 * kMi);
    EXPECT_EQ(scope_->property("MemoryHigh").get<uint64_t>(), 48 * kMi);
    EXPECT_EQ(scope_->property("CPUWeight").get<uint64_t>(), 50u);
    EXPECT_EQ(significant(scope_->property("AllowedCPUs").get<std::vector<uint8_t>>()), std::vector<uint8_t>{0x02});
    EXPECT_EQ(significant(scope_->property("AllowedMemoryNodes").get<std::vector<uint8_t>>()),
              std::vector<uint8_t>{0x02});
}

TEST_F(SystemdBackendTest, LimitsOutliveADaemonReload)
{
    backend_.write(scope_->cgroup(), kLimits);

    daemonReload();

    EXPECT_EQ(backend_.read(scope_->cgroup()), kLimits);
}

TEST_F(SystemdBackendTest, UnlimitedLiftsEachLimit)
{
    backend_.write(scope_->cgroup(), kLimits);

    const core::Resources unlimited{.cpuMillis = kUnlimited, .memoryMax = kUnlimited, .memoryHigh = kUnlimited,
                                    .cpuWeight = 100, .allowedCpus = core::CpuSet{}, .memoryNodes = core::CpuSet{}};
    backend_.write(scope_->cgroup(), unlimited);

    EXPECT_EQ(backend_.read(scope_->cgroup()), unlimited);
    EXPECT_EQ(scope_->property("MemoryMax").get<uint64_t>(), kUnlimited);
    EXPECT_EQ(scope_->property("CPUQuotaPerSecUSec").get<uint64_t>(), kUnlimited);
}

TEST_F(SystemdBackendTest, WritesOnlyTheKeysItIsGiven)
{
    backend_.write(scope_->cgroup(), kLimits);

    backend_.write(scope_->cgroup(), core::Resources{.memoryMax = 80 * kMi});

    EXPECT_EQ(backend_.read(scope_->cgroup()), kLimits.overlaidWith(core::Resources{.memoryMax = 80 * kMi}));
}

TEST_F(SystemdBackendTest, ReadsUsageAndParentCpusFromTheCgroup)
{
    backend_.write(scope_->cgroup(), core::Resources{.allowedCpus = core::CpuSet{1}});

    EXPECT_GT(backend_.memoryUsage(scope_->cgroup()), 0u);
    const core::CpuSet online{0, 1};
    EXPECT_TRUE(core::isSubset(online, backend_.parentCpus(scope_->cgroup())));
}

TEST_F(SystemdBackendTest, ReportsWhatSystemdRefuses)
{
    // systemd refuses a zero quota; the backend passes 0 millis on unchecked.
    try {
        backend_.write(scope_->cgroup(), core::Resources{.cpuMillis = 0});
        FAIL() << "systemd accepted CPUQuotaPerSecUSec=0";
    } catch (const CgroupError& error) {
        EXPECT_NE(std::string(error.what()).find("CPUQuotaPerSecUSec"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace resized::cgroup
