#pragma once

#include "raw_call.h"

#include "daemon/daemon_test.h"

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace resized::integration
{

namespace error
{
inline constexpr auto invalidArgument = "io.resized1.Error.InvalidArgument";
inline constexpr auto noSuchWorkload = "io.resized1.Error.NoSuchWorkload";
inline constexpr auto accessDenied = "org.freedesktop.DBus.Error.AccessDenied";
inline constexpr auto failed = "org.freedesktop.DBus.Error.Failed";
// What sd-bus answers, before resized sees the call, when the arguments do
// not match the method's signature.
inline constexpr auto invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs";
inline constexpr auto unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod";
} // namespace error

// A daemon managing one running container, attacked by a test that then
// proves nothing happened: expectUntouched() checks the container's cgroup
// files, its desired state and generation, and that the same daemon still
// runs and answers.
class HostileTest : public DaemonTest
{
  protected:
    void SetUp() override;
    void TearDown() override;

    const std::string& name() const { return container_->name(); }
    const ScopedContainer& container() const { return *container_; }
    std::string workloadPath() const { return workloadPathOf(name()); }

    RawCall managerCall(const std::string& method);
    RawCall workloadCall(const std::string& method);

    // The error name of call (a bus call through client()), "" when it
    // succeeded.
    static std::string errorNameOf(const std::function<void()>& call);

    void expectUntouched();

    static inline const ResourceValues managed{.cpuMillis = 300,
                                               .memoryMax = 256 * mebibyte};

  private:
    std::unique_ptr<sdbus::IConnection> connection_;
    std::optional<ScopedContainer> container_;
    CgroupLimits limitsBefore_;
    std::uint64_t generationBefore_ = 0;
};

} // namespace resized::integration
