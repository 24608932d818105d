#pragma once

#include <string_view>

#include "core/admission.h"
#include "core/cpuset.h"
#include "core/invariants.h"
#include "service/ledger.h"
#include "store/state_store.h"

namespace resized::service {

// Checks the rules of design.md §1c that hold at every instant
// (core::brokenInvariants) against what the store holds after a commit.
// Off unless RESIZED_CHECK_INVARIANTS is set: "log" logs what breaks, as an
// error; "abort" logs it and aborts, so that a test or a soak run stops at
// the step that broke a rule rather than finding the damage at its end.
class InvariantCheck {
public:
    enum class Mode { Off, Log, Abort };

    InvariantCheck(store::StateStore& store, Ledger& ledger, core::CpuSet reservedCpus);

    // The mode RESIZED_CHECK_INVARIANTS names (Off when unset or unknown).
    static Mode modeFromEnvironment();

    // `after` says what was committed, for the log.
    void check(std::string_view after);

private:
    core::AdmittedState admittedState();
    core::Amounts coveredByPlans();
    // What the store holds that the rules sum up, for the log.
    void logAdmitted();

    store::StateStore& store_;
    Ledger& ledger_;
    core::CpuSet reservedCpus_;
    Mode mode_;
    core::Tolerances tolerances_;
};

}  // namespace resized::service
