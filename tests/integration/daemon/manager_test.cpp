// The Manager object against the machine it runs on: capacity, cgroup
// version, runtime connection, the CPU manager's pools, and the contract's
// members in introspection.

#include "daemon_test.h"
#include "interface_members.h"

#include "support/host_cpus.h"

#include <linux/magic.h>
#include <sys/statfs.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <ostream>
#include <set>

namespace resized::integration
{
namespace
{

using ::testing::IsEmpty;
using ::testing::IsSupersetOf;
using ::testing::Not;

std::uint64_t memTotal()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kibibytes = 0;
    std::string unit;
    while (meminfo >> key >> kibibytes >> unit)
    {
        if (key == "MemTotal:")
        {
            return kibibytes * 1024;
        }
    }
    throw std::runtime_error("/proc/meminfo has no MemTotal");
}

std::string hostCgroupVersion()
{
    struct statfs filesystem{};
    if (statfs("/sys/fs/cgroup", &filesystem) != 0)
    {
        throw std::runtime_error("cannot statfs /sys/fs/cgroup");
    }
    return filesystem.f_type == CGROUP2_SUPER_MAGIC ? "v2" : "v1";
}

using ManagerTest = DaemonTest;

TEST_F(ManagerTest, CapacityIsTheMachineLessTheConfiguredReserve)
{
    EXPECT_EQ(client().managerNumber("CpuCapacityMillis"),
              affinityCpus().size() * 1000 - reservedCpuMillis);
    EXPECT_EQ(client().managerNumber("MemoryCapacity"), memTotal() - reservedMemory);
}

TEST_F(ManagerTest, NothingIsAllocatedOrReservedOnAnIdleNode)
{
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("MemoryAllocated"), 0U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
    EXPECT_EQ(client().managerNumber("CpuAvailableMillis"), cpuCapacity());
    EXPECT_EQ(client().managerNumber("MemoryAvailable"),
              client().managerNumber("MemoryCapacity"));
}

// Admission counts what running containers resized does not manage were
// created with, including containers started after resized itself.
TEST_F(ManagerTest, ContainerStartedLaterCountsItsCreateTimeLimit)
{
    const auto container = runContainer("unmanaged", {"--cpus=1.5"});

    EXPECT_TRUE(cpuAllocationReaches(1500))
        << "CpuAllocatedMillis is " << client().managerNumber("CpuAllocatedMillis");
    const auto other = runContainer("other");
    const auto [allowed, reason] = client().validateResourceUpdate(
        other.name(), ResourceValues{.cpuMillis = cpuCapacity() - 1000}.toDictionary());
    EXPECT_FALSE(allowed) << "1500m are taken, yet " << cpuCapacity() - 1000
                          << "m more of " << cpuCapacity() << "m were allowed";
}

TEST_F(ManagerTest, DescribesTheNodeAndItsRuntime)
{
    EXPECT_EQ(client().managerProperty("CgroupVersion").get<std::string>(),
              hostCgroupVersion());
    EXPECT_THAT(client().managerProperty("Version").get<std::string>(), Not(IsEmpty()));
    EXPECT_TRUE(client().managerProperty("RuntimeConnected").get<bool>());
}

// Without a CPU manager policy no CPU is reserved or exclusive: containers
// share every CPU the kernel has online.
TEST_F(ManagerTest, WithoutACpuManagerPolicyEveryOnlineCpuIsShared)
{
    const Dictionary properties = client().managerProperties();

    EXPECT_EQ(properties.at("CpuManagerPolicy").get<std::string>(), "none");
    EXPECT_EQ(properties.at("SharedCpus").get<std::string>(), onlineCpuList());
    EXPECT_EQ(properties.at("ReservedCpus").get<std::string>(), "");
    EXPECT_EQ(properties.at("ExclusiveCpuSet").get<std::string>(), "");
    EXPECT_EQ(properties.at("NumaNodes").get<std::uint32_t>(), numaNodesWithCpus());
}

// The entry of ListNodeWorkloads named name; throws when there is none.
Dictionary nodeWorkloadNamed(const std::vector<Dictionary>& listed, const std::string& name)
{
    for (const auto& entry : listed)
    {
        if (entryOf<std::string>(entry, "Name") == name)
        {
            return entry;
        }
    }
    throw std::runtime_error("ListNodeWorkloads has no " + name);
}

std::set<std::string> keysOf(const Dictionary& dictionary)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : dictionary)
    {
        keys.insert(key);
    }
    return keys;
}

// An entry of ListNodeWorkloads but its name, with the limits of Actual
// that tests set.
struct NodeWorkload
{
    std::string kind;
    bool managed = false;
    std::string pod;
    std::string pool;
    std::string runState;
    std::optional<std::uint64_t> cpuMillis;
    std::optional<std::uint64_t> memoryMax;

    static NodeWorkload of(const Dictionary& entry)
    {
        const auto actual = ResourceValues::fromDictionary(entryOf<Dictionary>(entry, "Actual"));
        return {entryOf<std::string>(entry, "Kind"),     entryOf<bool>(entry, "Managed"),
                entryOf<std::string>(entry, "Pod"),      entryOf<std::string>(entry, "Pool"),
                entryOf<std::string>(entry, "RunState"), actual.cpuMillis,
                actual.memoryMax};
    }

    bool operator==(const NodeWorkload&) const = default;
};

void PrintTo(const NodeWorkload& workload, std::ostream* out)
{
    *out << "{" << workload.kind << ", managed " << workload.managed << ", pod \"" << workload.pod
         << "\", pool \"" << workload.pool << "\", " << workload.runState << ", cpu "
         << workload.cpuMillis.value_or(0) << ", memory " << workload.memoryMax.value_or(0) << "}";
}

// What resizectl list shows comes from the daemon: every container of the
// node, managed or not, with what its cgroup holds (design.md §1c).
TEST_F(ManagerTest, ListNodeWorkloadsShowsManagedAndUnmanagedContainers)
{
    const auto managed = runContainer("managed");
    const auto unmanaged =
        runContainer("unmanaged", {"--cpus=0.5", "--memory=64m", "--label=io.resized1.pool=batch"});
    ASSERT_TRUE(daemon().waitForStartEvent(managed.name()));
    ASSERT_TRUE(daemon().waitForStartEvent(unmanaged.name()));
    client().updateResources(managed.name(), ResourceValues{.cpuMillis = 300, .memoryMax = 128 * mebibyte});

    const auto listed = client().listNodeWorkloads();

    const std::set<std::string> keys{"Actual", "Kind", "Managed", "Name", "Pod", "Pool", "RunState"};
    const Dictionary managedEntry = nodeWorkloadNamed(listed, managed.name());
    EXPECT_EQ(keysOf(managedEntry), keys);
    EXPECT_EQ(NodeWorkload::of(managedEntry),
              (NodeWorkload{"container", true, "", "", "running", 300, 128 * mebibyte}));
    const Dictionary unmanagedEntry = nodeWorkloadNamed(listed, unmanaged.name());
    EXPECT_EQ(keysOf(unmanagedEntry), keys);
    EXPECT_EQ(NodeWorkload::of(unmanagedEntry),
              (NodeWorkload{"container", false, "", "batch", "running", 500, 64 * mebibyte}));

    // A read method: the bus policy lets anybody call it.
    EXPECT_EQ(callAsNobody({"ListNodeWorkloads"}), "ok");
}

// A stopped container holds no limits: it is listed without any.
TEST_F(ManagerTest, ListNodeWorkloadsShowsAStoppedContainerWithoutLimits)
{
    const auto container = runContainer("stopped", {"--cpus=1.5"});
    ASSERT_TRUE(daemon().waitForStartEvent(container.name()));
    podman().run({"stop", "-t", "0", container.name()});

    const Dictionary entry = nodeWorkloadNamed(client().listNodeWorkloads(), container.name());
    EXPECT_EQ(entryOf<std::string>(entry, "RunState"), "stopped");
    EXPECT_TRUE(entryOf<Dictionary>(entry, "Actual").empty());
}

TEST_F(ManagerTest, IntrospectionListsEveryMemberOfTheContract)
{
    const std::string xml = client().introspect(managerPath);

    EXPECT_THAT(membersOf(xml, managerInterface),
                IsSupersetOf<std::set<std::string>>({
                    "method UpdateResources",
                    "method ValidateResourceUpdate",
                    "method GetResourceStatus",
                    "method ListWorkloads",
                    "method ListNodeWorkloads",
                    "method Reconcile",
                    "method Forget",
                    "method GetHistory",
                    "signal ResourcesApplied",
                    "signal DriftDetected",
                    "signal UpdateFailed",
                    "property Version s",
                    "property CgroupVersion s",
                    "property RuntimeConnected b",
                    "property CpuCapacityMillis t",
                    "property MemoryCapacity t",
                    "property CpuAllocatedMillis t",
                    "property MemoryAllocated t",
                    "property CpuReservedMillis t",
                    "property MemoryReserved t",
                    "property CpuAvailableMillis t",
                    "property MemoryAvailable t",
                    "property CpuManagerPolicy s",
                    "property SharedCpus s",
                    "property ReservedCpus s",
                    "property ExclusiveCpuSet s",
                    "property NumaNodes u",
                }));
    EXPECT_THAT(membersOf(xml, "org.freedesktop.DBus.ObjectManager"),
                IsSupersetOf<std::set<std::string>>({"method GetManagedObjects",
                                                     "signal InterfacesAdded",
                                                     "signal InterfacesRemoved"}));
    for (const char* standard : {"org.freedesktop.DBus.Properties",
                                 "org.freedesktop.DBus.Introspectable",
                                 "org.freedesktop.DBus.Peer"})
    {
        EXPECT_THAT(membersOf(xml, standard), Not(IsEmpty())) << standard;
    }
}

} // namespace
} // namespace resized::integration
