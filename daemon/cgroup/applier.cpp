#include "cgroup/applier.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <span>

#include "core/cpuset.h"
#include "core/drift.h"
#include "core/quantity.h"
#include "failpoint/failpoint.h"

namespace resized::cgroup {

namespace {

using core::ResourceKey;

// Decreases are written in this order, the memory.max shrink last (it may
// wait for reclaim), and increases in the reverse order: memory is raised
// before the CPU that will use it, and CPU lowered before the memory it used.
constexpr std::array kWriteOrder{ResourceKey::CpuMillis,  ResourceKey::CpuWeight,  ResourceKey::AllowedCpus,
                                 ResourceKey::MemoryNodes, ResourceKey::MemoryHigh, ResourceKey::MemoryMax};
static_assert(kWriteOrder.size() == core::kCgroupResourceKeys.size() &&
                  std::is_permutation(kWriteOrder.begin(), kWriteOrder.end(), core::kCgroupResourceKeys.begin()),
              "every key kept in a cgroup needs its place in the write order");
static_assert(kWriteOrder.back() == ResourceKey::MemoryMax);
constexpr auto kDecreaseOrder = std::span(kWriteOrder).first<kWriteOrder.size() - 1>();
constexpr auto kIncreaseOrder = [] {
    auto order = kWriteOrder;
    std::reverse(order.begin(), order.end());
    return order;
}();

// kUnlimited is the largest number.
bool lowers(const core::NumberKey&, uint64_t from, uint64_t to) { return to < from; }

// A set of CPUs is lower when it is a strict subset, and the empty set (all
// CPUs) is the largest.
bool lowers(const core::CpuListKey&, const core::CpuSet& from, const core::CpuSet& to)
{
    if (to.empty())
        return false;
    return from.empty() || (to != from && core::isSubset(to, from));
}

// Whether going from `from` to `to` lowers `key`; both must name it.
bool lowers(ResourceKey key, const core::Resources& from, const core::Resources& to)
{
    bool lower = false;
    core::visitResourceKey(key, [&](const auto& descriptor) {
        lower = lowers(descriptor, *descriptor.of(from), *descriptor.of(to));
    });
    return lower;
}

std::string formatDuration(std::chrono::microseconds duration)
{
    using namespace std::chrono;
    if (duration % seconds(1) == microseconds::zero())
        return std::to_string(duration_cast<seconds>(duration).count()) + "s";
    if (duration % milliseconds(1) == microseconds::zero())
        return std::to_string(duration_cast<milliseconds>(duration).count()) + "ms";
    return std::to_string(duration.count()) + "us";
}

std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const auto& word : words)
        text += (text.empty() ? "" : ", ") + word;
    return text;
}

}  // namespace

core::Resources keysTouchedBy(const core::Resources& target)
{
    core::Resources touched = target;
    if (touched.memoryMax && !touched.memoryHigh)
        touched.memoryHigh = 0;
    return touched;
}

ApplyTransaction::ApplyTransaction(LimitsBackend& backend, std::string cgroup,
                                   core::Resources target, ApplyOptions options)
    : backend_(backend), cgroup_(std::move(cgroup)), target_(std::move(target)), options_(options)
{
}

std::optional<std::chrono::milliseconds> ApplyTransaction::advance()
{
    try {
        if (phase_ == Phase::Start)
            start();
        else if (phase_ == Phase::WaitingForReclaim)
            waitForReclaim();
        if (phase_ == Phase::Finishing)
            finish();
    } catch (const CgroupError& error) {
        fail(ApplyOutcome::Failed, "cgroup " + cgroup_ + ": " + error.what());
    }
    if (phase_ != Phase::WaitingForReclaim)
        return std::nullopt;
    const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(
        reclaimDeadline_ - std::chrono::steady_clock::now());
    return std::max(std::min(remaining, options_.reclaimPollInterval), std::chrono::milliseconds(1));
}

void ApplyTransaction::start()
{
    previous_ = backend_.read(cgroup_);
    previousUnreported_ = backend_.readUnreported(cgroup_);
    for (const auto key : kDecreaseOrder)
        if (decreases(key) && !write(key, target_))
            return;
    if (decreases(ResourceKey::MemoryMax)) {
        if (!options_.force) {
            startMemoryShrink();
            return;
        }
        if (!write(ResourceKey::MemoryMax, target_))
            return;
    }
    phase_ = Phase::Finishing;
}

void ApplyTransaction::startMemoryShrink()
{
    // Throttling at the new limit makes the workload give memory back
    // without being OOM-killed, as the hard limit would.
    const uint64_t newMax = *target_.memoryMax;
    const auto memoryHigh = decreases(ResourceKey::MemoryHigh) ? target_.memoryHigh : previous_.memoryHigh;
    if (memoryHigh && *memoryHigh > newMax) {
        throttled_ = true;
        core::Resources throttle;
        throttle.memoryHigh = newMax;
        if (!write(ResourceKey::MemoryHigh, throttle))
            return;
    }
    reclaimDeadline_ = std::chrono::steady_clock::now() + options_.reclaimTimeout;
    phase_ = Phase::WaitingForReclaim;
    waitForReclaim();
}

void ApplyTransaction::waitForReclaim()
{
    const uint64_t newMax = *target_.memoryMax;
    uint64_t usage = backend_.memoryUsage(cgroup_);
    if (usage > newMax) {
        backend_.reclaim(cgroup_, usage - newMax);
        usage = backend_.memoryUsage(cgroup_);
    }
    if (usage <= newMax) {
        if (write(ResourceKey::MemoryMax, target_))
            phase_ = Phase::Finishing;
        return;
    }
    if (std::chrono::steady_clock::now() >= reclaimDeadline_)
        fail(ApplyOutcome::MemoryInUse,
             "memory usage " + core::formatBytes(usage) + " stays above the requested memory.max "
                 + core::formatBytes(newMax) + " after " + formatDuration(options_.reclaimTimeout)
                 + " of reclaim");
}

void ApplyTransaction::finish()
{
    const auto wanted = expected();
    for (const auto key : kIncreaseOrder) {
        const bool raise = changes(key) && !decreases(key);
        const bool unthrottle = key == ResourceKey::MemoryHigh && throttled_;
        if ((raise || unthrottle) && !write(key, wanted))
            return;
    }
    actual_ = backend_.read(cgroup_);
    const auto drifted = core::driftedKeys(asBackendReads(backend_, cgroup_, wanted), actual_);
    if (!drifted.empty()) {
        fail(ApplyOutcome::Failed, "cgroup " + cgroup_ + " reads back "
                                       + core::describe(actual_.restrictedTo(wanted))
                                       + " after writing " + core::describe(wanted) + " ("
                                       + joined(drifted) + " differ)");
        return;
    }
    outcome_ = ApplyOutcome::Applied;
    phase_ = Phase::Done;
}

void ApplyTransaction::fail(ApplyOutcome outcome, std::string message)
{
    restore();
    outcome_ = outcome;
    message_ = std::move(message);
    phase_ = Phase::Done;
}

void ApplyTransaction::restore()
{
    for (auto key = touched_.rbegin(); key != touched_.rend(); ++key) {
        if (!core::names(previous_, *key))
            continue;
        try {
            backend_.write(cgroup_, core::only(previous_, *key));
        } catch (const CgroupError& error) {
            spdlog::warn("cgroup {}: restoring {} failed: {}", cgroup_, core::nameOf(*key), error.what());
        }
    }
    try {
        backend_.restoreUnreported(cgroup_, previousUnreported_);
    } catch (const CgroupError& error) {
        spdlog::warn("cgroup {}: restoring the limits beside them failed: {}", cgroup_, error.what());
    }
    try {
        actual_ = backend_.read(cgroup_);
    } catch (const CgroupError& error) {
        spdlog::warn("cgroup {}: reading back after a restore failed: {}", cgroup_, error.what());
    }
}

bool ApplyTransaction::changes(ResourceKey key) const
{
    return core::names(target_, key) && core::only(target_, key) != core::only(previous_, key);
}

bool ApplyTransaction::decreases(ResourceKey key) const
{
    return changes(key) && core::names(previous_, key) && lowers(key, previous_, target_);
}

bool ApplyTransaction::write(ResourceKey key, const core::Resources& source)
{
    if (std::find(touched_.begin(), touched_.end(), key) == touched_.end())
        touched_.push_back(key);
    const auto value = core::only(source, key);
    try {
        backend_.write(cgroup_, value);
        failpoint("between-writes");
        return true;
    } catch (const CgroupError& error) {
        // v1 refuses a memory limit under usage it cannot reclaim with EBUSY.
        const bool memoryInUse = key == ResourceKey::MemoryMax && error.error() == EBUSY;
        fail(memoryInUse ? ApplyOutcome::MemoryInUse : ApplyOutcome::Failed,
             std::string(core::nameOf(key)) + " (" + core::describe(value) + "): " + error.what());
        return false;
    }
}

core::Resources ApplyTransaction::expected() const
{
    auto wanted = target_;
    if (throttled_ && !target_.memoryHigh)
        wanted.memoryHigh = previous_.memoryHigh;
    return wanted;
}

}  // namespace resized::cgroup
