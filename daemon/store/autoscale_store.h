#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

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
    // Each drops what the in-memory history dropped: rows at or before `keepAfter`.
    void addRecommendation(const std::string& workload, std::string_view resource,
                           const core::autoscale::Recommendation& recommendation, core::autoscale::Micros keepAfter);
    void addEvent(const std::string& workload, std::string_view resource, const core::autoscale::ScaleEvent& event,
                  core::autoscale::Micros keepAfter);

private:
    Database& db_;
};

// Policies are stored as JSON. Throws StoreError for text that is not one.
std::string toJson(const core::autoscale::Policy& policy);
core::autoscale::Policy policyFromJson(const std::string& text);

}  // namespace resized::store
