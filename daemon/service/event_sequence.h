#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace resized::service {

// Numbers the container events and OCI hooks as they come, and remembers
// the number of each workload's last one. A listing begun before a
// workload's last event may show a run that has ended since: a pass over
// that listing leaves the workload to its event.
class EventSequence {
public:
    // The number of the last event seen; a listing begun now is older than
    // every event numbered after it.
    uint64_t last() const { return seen_; }

    void note(const std::string& name) { lastOf_[name] = ++seen_; }

    // Whether `name` had an event numbered after `mark`.
    bool hadEventAfter(const std::string& name, uint64_t mark) const
    {
        const auto last = lastOf_.find(name);
        return last != lastOf_.end() && last->second > mark;
    }

    // The workloads with an event after `mark`. Listings end in the order
    // they began, so what came before `mark` is forgotten: every later
    // listing began after it.
    std::set<std::string> takeNewerThan(uint64_t mark)
    {
        std::set<std::string> newer;
        for (const auto& [name, event] : lastOf_)
            if (event > mark)
                newer.insert(name);
        std::erase_if(lastOf_, [mark](const auto& entry) { return entry.second <= mark; });
        return newer;
    }

private:
    uint64_t seen_ = 0;
    std::map<std::string, uint64_t> lastOf_;
};

}  // namespace resized::service
