#pragma once

#include "core/resources.h"
#include "dbus_codec/autoscale_policy.h"
#include "dbus_codec/resource_dictionary.h"
#include "service/autoscaler.h"
#include "service/node_workloads.h"
#include "service/plans.h"
#include "service/pools.h"
#include "service/resource_manager.h"
#include "store/state_store.h"

namespace resized::bus {

using dbus_codec::Dictionary;
using dbus_codec::encodeResources;

// Decodes a resource dictionary of the contract. Throws
// service::ResizeError(InvalidArgument) for an unknown key, a wrong variant
// type or a value outside the contract's ranges.
core::Resources decodeResources(const Dictionary& dictionary);

// Decodes the options of UpdateResources/Update, with the same errors.
service::UpdateOptions decodeOptions(const Dictionary& dictionary);

// One change of a plan as SubmitPlan and Plan.Changes carry it.
using PlanChangeStruct = sdbus::Struct<std::string, Dictionary>;

// SubmitPlan's changes and options; throws service::ResizeError(InvalidArgument).
service::PlanRequest decodePlanRequest(const std::vector<PlanChangeStruct>& changes, const Dictionary& options);
std::vector<PlanChangeStruct> encodePlanChanges(const std::vector<store::PlanChange>& changes);

// SetPool's dictionary; throws service::ResizeError(InvalidArgument).
service::PoolSpec decodePoolSpec(const Dictionary& dictionary);

// A pool's budgets as its Budgets property shows them: every key of
// SetPool's, with the value SetPool assumes for one not given (Schedule ""
// and DurationUSec 0 for no window).
std::vector<Dictionary> encodeBudgets(const std::vector<core::DisruptionBudget>& budgets);

// SetAutoscalePolicy's dictionary; throws service::ResizeError(InvalidArgument).
core::autoscale::Policy decodeAutoscalePolicy(const Dictionary& dictionary);

// The status' AutoscaleStatus: only what the autoscaler has seen.
Dictionary encodeAutoscaleStatus(const service::AutoscaleStatus& status);

// The status dictionary of the contract.
Dictionary encodeStatus(const store::WorkloadRecord& record);

// One entry of ListNodeWorkloads: Name, Kind, Managed, Pod, Pool, RunState,
// Actual.
Dictionary encodeNodeWorkload(const service::NodeWorkload& workload);

// One entry of GetHistory. Throws store::StoreError for a request the store
// holds in a form it cannot read.
Dictionary encodeHistoryEntry(const store::HistoryEntry& entry);

}  // namespace resized::bus
