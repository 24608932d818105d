#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cgroup/applier.h"
#include "cgroup/limits_backend.h"
#include "core/resources.h"
#include "service/event_loop.h"
#include "service/worker_thread.h"

namespace resized::service {

// One cgroup's part of a change.
struct CgroupChange {
    cgroup::LimitsBackend* backend = nullptr;
    std::string cgroup;
    core::Resources target;
    // Its cgroup may go while the change runs (another container, moved
    // along): gone, it is skipped, not a failure of the whole.
    bool mayVanish = false;
};

// Applies a change over one or more cgroups, all or nothing, without ever
// blocking the loop. The changes run one after another in the order given
// (the caller orders them: decreases first, a parent raised before its
// children and lowered after them); each is a cgroup::ApplyTransaction,
// which restores its own keys when it fails. When one fails, the ones
// already done are restored too, in reverse order. The steps of a backend
// that waits for another process (systemd) run on `peerCalls`.
class Execution {
public:
    using Done = std::function<void(Execution&)>;

    // Without `peerCalls`, every step runs on the loop.
    Execution(EventLoop& loop, std::vector<CgroupChange> changes, cgroup::ApplyOptions options, Done done,
              WorkerThread* peerCalls = nullptr);
    Execution(const Execution&) = delete;
    Execution& operator=(const Execution&) = delete;

    // Runs until done or until a step waits (memory reclaim); `done` is
    // called once, from start() itself or later from the loop.
    void start();

    cgroup::ApplyOutcome outcome() const { return outcome_; }
    const std::string& message() const { return message_; }
    // What change `index` read back at the end (after a restore, the
    // restored limits).
    const core::Resources& actual(size_t index) const { return actual_.at(index); }
    // The same for the change of `cgroup`, which must be one of them.
    const core::Resources& actualOf(const std::string& cgroup) const;
    // What `cgroup` holds now, as read back, when all was applied and its
    // change was the last: nothing was written after that read, so no
    // parent's change has moved it since. nullptr otherwise.
    const core::Resources* holdsNow(const std::string& cgroup) const;

private:
    void advance();
    void stepAdvanced(std::optional<std::chrono::milliseconds> delay);
    // The changes before the failed one go back to what they read first.
    void restoreFinished(cgroup::ApplyOutcome outcome, std::string message);
    void finish(cgroup::ApplyOutcome outcome, std::string message);
    bool offLoop(const CgroupChange& change) const { return peerCalls_ && change.backend->waitsForPeer(); }
    // The change failed because its cgroup is gone, and it may be.
    static bool vanished(const CgroupChange& change);
    // Runs `job` on peerCalls_ and its continuation on the loop, unless
    // this execution has gone by then.
    void runOffLoop(std::function<std::function<void(Execution&)>()> job);

    EventLoop& loop_;
    std::vector<CgroupChange> changes_;
    cgroup::ApplyOptions options_;
    Done done_;
    WorkerThread* peerCalls_;
    size_t current_ = 0;
    // Shared with a worker thread while it advances the step.
    std::shared_ptr<cgroup::ApplyTransaction> step_;
    std::vector<core::Resources> previous_;
    std::vector<core::Resources> actual_;
    cgroup::ApplyOutcome outcome_ = cgroup::ApplyOutcome::InProgress;
    std::string message_;
    EventSource timer_;
    // Expires with the execution: a continuation from the worker checks it.
    std::shared_ptr<Execution*> self_ = std::make_shared<Execution*>(this);
};

}  // namespace resized::service
