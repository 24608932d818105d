#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/names.h"
#include "service/workload_source.h"

namespace resized::service::test {

// A WorkloadSource whose containers the test sets up, changes and removes, as
// Podman would; it answers by the same naming rule as the Podman source (a
// name, a full ID, or a unique prefix of at least 12 hex digits), and can be
// made unreachable.
class FakeSource final : public WorkloadSource {
public:
    // Adds or replaces the container of that name.
    Instance& add(Instance instance)
    {
        remove(instance.name.name);
        return instances_.emplace_back(std::move(instance));
    }

    void remove(const std::string& name)
    {
        std::erase_if(instances_, [&](const Instance& instance) { return instance.name.name == name; });
    }

    Instance& at(const std::string& name)
    {
        const auto found = std::find_if(instances_.begin(), instances_.end(),
                                        [&](const Instance& instance) { return instance.name.name == name; });
        if (found == instances_.end())
            throw std::out_of_range("the fake source has no container " + name);
        return *found;
    }

    // While unreachable, every call throws SourceUnavailable.
    void setReachable(bool reachable) { reachable_ = reachable; }

    // How many times find() was asked, as Podman's inspects are.
    int finds() const { return finds_; }

    std::optional<Instance> find(const core::WorkloadName& name) override
    {
        ++finds_;
        requireReachable();
        std::vector<const Instance*> matches;
        for (const auto& instance : instances_) {
            if (instance.name.name == name.name)
                return instance;
            if (runtime::namesExactly(name.name, instance.id, instance.name.name))
                matches.push_back(&instance);
        }
        if (matches.size() > 1)
            throw AmbiguousName("\"" + name.name + "\" matches more than one container");
        if (matches.empty())
            return std::nullopt;
        return *matches.front();
    }

    std::vector<Instance> list() override
    {
        requireReachable();
        return instances_;
    }

private:
    void requireReachable() const
    {
        if (!reachable_)
            throw SourceUnavailable("the fake runtime is unreachable");
    }

    std::vector<Instance> instances_;
    bool reachable_ = true;
    int finds_ = 0;
};

}  // namespace resized::service::test
