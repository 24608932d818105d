#include "resizectl_fixture.h"

#include <gtest/gtest.h>

#include "support/cgroup_v1.h"

namespace resized::ctl {

void ResizectlTest::SetUp()
{
    IntegrationTest::SetUp();
    if (IsSkipped())
        return;
    podman_.emplace(environment());
    auto options = integration::DaemonOptions::forEnvironment(environment());
    const auto ownDirectory = environment().directory / ("resizectl-" + containerName());
    options.stateDirectory = ownDirectory / "state";
    options.logFile = ownDirectory / "resized.log";
    daemon_.emplace(std::move(options));
}

integration::CommandResult ResizectlTest::resizectl(const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{RESIZECTL_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return integration::runCommand(argv);
}

integration::CommandResult ResizectlTest::resizectlAsNobody(const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{"runuser", "-u", "nobody", "--", RESIZECTL_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return integration::runCommand(argv);
}

nlohmann::json ResizectlTest::resizectlJson(const std::vector<std::string>& arguments)
{
    std::vector<std::string> withJson{"--json"};
    withJson.insert(withJson.end(), arguments.begin(), arguments.end());
    const auto result = resizectl(withJson);
    if (!result.succeeded())
        throw std::runtime_error("resizectl failed: " + result.standardError);
    return nlohmann::json::parse(result.standardOutput);
}

std::string ResizectlTest::containerName(const std::string& suffix)
{
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    return suffix.empty() ? test : test + "-" + suffix;
}

std::optional<uint64_t> cgroupCpuMillis(const integration::ScopedContainer& container)
{
    const integration::CgroupV1 cgroup(container.cgroupPath());
    const auto quota = cgroup.readNumber("cpu", "cpu.cfs_quota_us");
    if (quota < 0)
        return std::nullopt;
    return static_cast<uint64_t>(quota) * 1000 / static_cast<uint64_t>(cgroup.readNumber("cpu", "cpu.cfs_period_us"));
}

uint64_t cgroupMemoryLimit(const integration::ScopedContainer& container)
{
    return static_cast<uint64_t>(
        integration::CgroupV1(container.cgroupPath()).readNumber("memory", "memory.limit_in_bytes"));
}

void expectExit(const integration::CommandResult& result, int exitStatus)
{
    EXPECT_EQ(result.exitStatus, exitStatus) << result.standardOutput << result.standardError;
}

}  // namespace resized::ctl
