#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cgroup/limits_backend.h"
#include "core/resource_keys.h"
#include "core/resources.h"

namespace resized::cgroup {

struct ApplyOptions {
    // Allow memory.max below the current usage (the kernel may OOM-kill).
    bool force = false;
    // How long a memory shrink may wait for usage to fall under the new limit.
    std::chrono::microseconds reclaimTimeout = std::chrono::seconds(5);
    // How often usage is checked while waiting.
    std::chrono::milliseconds reclaimPollInterval = std::chrono::milliseconds(50);
};

enum class ApplyOutcome {
    InProgress,   // call advance() again after the returned delay
    Applied,      // every key written and read back within tolerance
    MemoryInUse,  // shrink refused: usage stayed above the new limit; restored
    Failed,       // a write failed or read back wrong; restored
};

// The keys a transaction to `target` may write: a memory.max shrink lowers
// memory.high for a while, so whoever undoes it after a crash must be able
// to put that back too.
core::Resources keysTouchedBy(const core::Resources& target);

// One update of one cgroup, all or nothing. It never blocks: a memory shrink
// that waits for reclaim returns InProgress with a delay, and the caller (the
// event loop) calls advance() again after it.
//
// Order: decreases before increases (so a cpuset or memory move never needs
// both old and new at once); a memory.max shrink first lowers memory.high (and
// asks for reclaim where the kernel can), waits for usage to fall below the
// new limit, and only then sets memory.max. Every value is read back and
// compared with core::matches; on any failure every key is restored to what
// was read before the first write, and so is what the writes moved beside
// them (LimitsBackend::readUnreported).
class ApplyTransaction {
public:
    ApplyTransaction(LimitsBackend& backend, std::string cgroup, core::Resources target,
                     ApplyOptions options);

    // Runs until done or until it must wait. Returns the delay before the next
    // call while the outcome is InProgress.
    std::optional<std::chrono::milliseconds> advance();

    ApplyOutcome outcome() const { return outcome_; }
    // A sentence for a person on why it failed (empty when applied).
    const std::string& message() const { return message_; }
    // Limits read before the first write.
    const core::Resources& previous() const { return previous_; }
    // Limits read back at the end (after a restore, the restored ones).
    const core::Resources& actual() const { return actual_; }

private:
    enum class Phase { Start, WaitingForReclaim, Finishing, Done };

    void start();
    void waitForReclaim();
    void finish();
    void fail(ApplyOutcome outcome, std::string message);
    void restore();

    void startMemoryShrink();
    bool changes(core::ResourceKey key) const;
    bool decreases(core::ResourceKey key) const;
    // Writes `key` with its value in `source`; on failure fails the
    // transaction (which restores) and returns false.
    bool write(core::ResourceKey key, const core::Resources& source);
    // The limits this transaction leaves behind when it succeeds.
    core::Resources expected() const;

    LimitsBackend& backend_;
    std::string cgroup_;
    core::Resources target_;
    ApplyOptions options_;
    Phase phase_ = Phase::Start;
    ApplyOutcome outcome_ = ApplyOutcome::InProgress;
    std::string message_;
    core::Resources previous_;
    // What the writes may move besides the keys, read with previous_.
    UnreportedLimits previousUnreported_;
    core::Resources actual_;
    std::chrono::steady_clock::time_point reclaimDeadline_;
    // memory.high lowered to the new memory.max for a shrink; set back to its
    // target in finish().
    bool throttled_ = false;
    // In the order first written, for a restore in reverse.
    std::vector<core::ResourceKey> touched_;
};

}  // namespace resized::cgroup
