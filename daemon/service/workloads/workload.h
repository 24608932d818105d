#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "service/event_loop.h"
#include "service/workloads/change.h"

namespace resized::service {

// What resized holds of one workload between two events, beside its record
// in the store: the change set applying to its cgroups, the requests
// waiting for that change to end, and the timer that ends a removed
// container's allocation. One object a workload, so that a Forget, a plan
// and an update of the same workload see one another.
class Workload {
public:
    explicit Workload(std::string name) : name_(std::move(name)) {}
    Workload(const Workload&) = delete;
    Workload& operator=(const Workload&) = delete;

    const std::string& name() const { return name_; }

    // Its cgroups are being changed: whatever else is asked of it waits.
    bool busy() const { return change_ != nullptr; }
    // The change set it is part of now; owned by Workloads.
    ChangeSet* change() const { return change_; }

    void enqueue(QueuedRequest request) { waiting_.push_back(std::move(request)); }
    // The request asked first, if any.
    std::optional<QueuedRequest> dequeue();

    // Ends its allocation once the removed container's grace is over;
    // replaced by a later call, cancelled by clearReleaseTimer().
    void setReleaseTimer(EventSource timer) { releaseTimer_ = std::move(timer); }
    bool releaseTimerSet() const { return static_cast<bool>(releaseTimer_); }
    void clearReleaseTimer() { releaseTimer_ = {}; }

    // Nothing of it is left to hold: it may be dropped.
    bool idle() const { return !busy() && waiting_.empty() && !releaseTimer_; }

private:
    friend class Workloads;

    std::string name_;
    ChangeSet* change_ = nullptr;
    std::deque<QueuedRequest> waiting_;
    EventSource releaseTimer_;
};

// The workloads that hold something now, by canonical name, and the change
// sets applying to them; a workload that holds nothing has no object and
// is as good as idle.
class Workloads {
public:
    // The workload's object, made when it has none.
    Workload& operator[](const std::string& name);
    Workload* find(const std::string& name);
    const Workload* find(const std::string& name) const;
    bool busy(const std::string& name) const;
    // Drops the object when it holds nothing any more.
    void release(const std::string& name);

    // Takes `set` and makes each of its workloads busy with it.
    ChangeSet& begin(std::unique_ptr<ChangeSet> set);
    ChangeSet* changeSet(uint64_t id);
    // Its workloads are free for what waits for them.
    std::unique_ptr<ChangeSet> end(uint64_t id);

private:
    std::map<std::string, std::unique_ptr<Workload>, std::less<>> byName_;
    std::map<uint64_t, std::unique_ptr<ChangeSet>> changeSets_;
    uint64_t lastChangeSet_ = 0;
};

}  // namespace resized::service
