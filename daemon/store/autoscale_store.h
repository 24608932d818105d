#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/autoscale.h"
#include "store/database.h"

namespace resized::store {

// The autoscaler's durable state in the state file: each workload's policy,
// and per workload and resource ("cpu", "memory") the recommendations and
// scale events its windows and rate periods still look at.
class AutoscaleStore {
public:
    explicit AutoscaleStore(Database& db) : db_(db) {}

    std::map<std::string, core::autoscale::Policy> policies();
    void savePolicy(const std::string& workload, const core::autoscale::Policy& policy);
    // The policy and everything remembered for it.
    void removePolicy(const std::string& workload);

    core::autoscale::History history(const std::string& workload, std::string_view resource);

    // One recommendation to write; the rows of its workload and resource at
    // or before `keepAfter` go, as they went from the history in memory.
    struct NewRecommendation {
        std::string workload;
        std::string resource;
        core::autoscale::Recommendation recommendation;
        core::autoscale::Micros keepAfter{0};
    };
    // In one transaction: every workload's sample of a second costs one.
    void addRecommendations(const std::vector<NewRecommendation>& recommendations);
    void addEvent(const std::string& workload, std::string_view resource, const core::autoscale::ScaleEvent& event,
                  core::autoscale::Micros keepAfter);

private:
    Database& db_;
};

// Policies are stored as JSON. Throws StoreError for text that is not one.
std::string toJson(const core::autoscale::Policy& policy);
core::autoscale::Policy policyFromJson(const std::string& text);

}  // namespace resized::store
