#include "service/ledger.h"

#include <gtest/gtest.h>

#include "temp_directory.h"

// The node's budget and the one admission decision, over a real state file.
namespace resized::service {
namespace {

using core::Amounts;
using core::Verdict;

constexpr uint64_t kGi = 1ull << 30;
const Amounts kCapacity{4000, 8 * kGi};

class LedgerTest : public ::testing::Test {
protected:
    // A workload the store holds an allocation for (or only remembers).
    void remember(const std::string& name, Amounts allocated, bool holdsAllocation = true,
                  const std::string& poolLabel = "")
    {
        store::WorkloadRecord record;
        record.name = name;
        record.runState = core::RunState::Running;
        record.holdsAllocation = holdsAllocation;
        record.allocated = allocated;
        record.poolLabel = poolLabel;
        store_.save(record);
    }

    // A pod (`pod:NAME`) holding its limit, or one of its members.
    void rememberPod(const std::string& pod, Amounts limit)
    {
        remember("pod:" + pod, limit);
        auto record = *store_.find("pod:" + pod);
        record.kind = core::WorkloadKind::Pod;
        store_.save(record);
    }

    void rememberMember(const std::string& name, const std::string& pod, Amounts allocated)
    {
        remember(name, allocated);
        auto record = *store_.find(name);
        record.pod = pod;
        store_.save(record);
    }

    // A member holding an exclusive slice of these CPUs.
    void rememberSlice(const std::string& name, const std::string& pod, const core::CpuSet& cpus)
    {
        rememberMember(name, pod, {cpus.size() * 1000, 0});
        auto record = *store_.find(name);
        record.desired = {.cpuMillis = core::kUnlimited, .allowedCpus = cpus, .exclusiveCpus = cpus.size()};
        store_.save(record);
    }

    // An update in flight; its workload is known to the store first.
    int64_t reserve(const std::string& name, Amounts amounts)
    {
        if (!store_.find(name))
            remember(name, {}, false);
        return store_.addReservation({.workload = name, .amounts = amounts});
    }

    AdmissionQuestion question(Amounts held, Amounts wanted, const std::string& pool = "",
                               bool countedInPool = false) const
    {
        return {.workload = "web",
                .held = held,
                .wanted = wanted,
                .allowedCpus = {},
                .parentCpus = {},
                .pool = pool,
                .countedInPool = countedInPool};
    }

    resized::test::TempDirectory directory_;
    store::StateStore store_{directory_.path() / "state.db"};
    Ledger ledger_{store_, kCapacity, core::CpuSet{0, 1, 2, 3}};
};

TEST_F(LedgerTest, AllocatedSumsHeldAllocationsAndUnheldCgroups)
{
    remember("a", {1000, 1 * kGi});
    remember("b", {500, 2 * kGi});
    // Forgotten by the budget: its allocation was released after removal.
    remember("released", {3000, 4 * kGi}, false);
    ledger_.countUnheld("unmanaged", {{250, kGi / 2}, ""});

    const auto budget = ledger_.budget();
    EXPECT_EQ(budget.capacity, kCapacity);
    EXPECT_EQ(budget.allocated, (Amounts{1750, 3 * kGi + kGi / 2}));
    EXPECT_EQ(budget.reserved, Amounts{});
}

TEST_F(LedgerTest, ReservationsInFlightCountAsReservedUntilRemoved)
{
    remember("a", {1000, kGi});
    const int64_t id = reserve("a", {300, kGi});
    reserve("b", {200, 0});

    auto budget = ledger_.budget();
    EXPECT_EQ(budget.reserved, (Amounts{500, kGi}));
    EXPECT_EQ(budget.available(), (Amounts{2500, 6 * kGi}));

    store_.removeReservation(id);
    budget = ledger_.budget();
    EXPECT_EQ(budget.reserved, (Amounts{200, 0}));
    EXPECT_EQ(budget.available(), (Amounts{2800, 7 * kGi}));
}

TEST_F(LedgerTest, UnheldFiguresAreReplacedDroppedAndReportChanges)
{
    EXPECT_TRUE(ledger_.countUnheld("u", {{100, 0}, ""}));
    EXPECT_FALSE(ledger_.countUnheld("u", {{100, 0}, ""}));
    EXPECT_TRUE(ledger_.countUnheld("u", {{200, 0}, ""}));
    EXPECT_TRUE(ledger_.countUnheld("u", {{200, 0}, "batch"}));
    EXPECT_EQ(ledger_.unheld("u"), (UnheldWorkload{{200, 0}, "batch"}));
    EXPECT_EQ(ledger_.budget().allocated, (Amounts{200, 0}));

    EXPECT_TRUE(ledger_.dropUnheld("u"));
    EXPECT_FALSE(ledger_.dropUnheld("u"));
    EXPECT_EQ(ledger_.unheld("u"), std::nullopt);
    EXPECT_EQ(ledger_.budget().allocated, Amounts{});

    EXPECT_TRUE(ledger_.replaceUnheld({{"x", {{300, 0}, ""}}, {"y", {{0, kGi}, ""}}}));
    EXPECT_FALSE(ledger_.replaceUnheld({{"x", {{300, 0}, ""}}, {"y", {{0, kGi}, ""}}}));
    EXPECT_EQ(ledger_.budget().allocated, (Amounts{300, kGi}));
}

TEST_F(LedgerTest, AnIncreaseThatFitsIsAdmittedAndReservesTheDifference)
{
    remember("other", {2000, 4 * kGi});
    const auto decision = ledger_.assess(question({500, kGi}, {1500, 3 * kGi}));
    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, (Amounts{1000, 2 * kGi}));
    EXPECT_EQ(decision.reason, "");
}

TEST_F(LedgerTest, AnIncreaseBeyondWhatIsAvailableIsInsufficient)
{
    remember("other", {3000, 0});
    ledger_.countUnheld("unmanaged", {{500, 0}, ""});
    reserve("busy", {200, 0});

    // 4000 − 3000 − 500 − 200 = 300 available; the workload already holds 200.
    const auto cpu = ledger_.assess(question({200, 0}, {600, 0}));
    EXPECT_EQ(cpu.verdict, Verdict::Insufficient);
    EXPECT_EQ(cpu.reason, "asked 400m more CPU, 300m available on this node");
    EXPECT_EQ(cpu.reservation, Amounts{});
    EXPECT_EQ(ledger_.assess(question({200, 0}, {500, 0})).verdict, Verdict::Admitted);

    remember("big", {0, 7 * kGi});
    const auto memory = ledger_.assess(question({0, 0}, {0, 2 * kGi}));
    EXPECT_EQ(memory.verdict, Verdict::Insufficient);
    EXPECT_EQ(memory.reason, "asked 2Gi more memory, 1Gi available on this node");
}

TEST_F(LedgerTest, MoreThanTheCapacityIsInfeasibleWhateverIsFree)
{
    const auto cpu = ledger_.assess(question({0, 0}, {4001, 0}));
    EXPECT_EQ(cpu.verdict, Verdict::Infeasible);
    EXPECT_EQ(cpu.reason, "asked 4001m CPU, more than this node's allocatable 4");
    const auto memory = ledger_.assess(question({0, 0}, {0, 9 * kGi}));
    EXPECT_EQ(memory.verdict, Verdict::Infeasible);
    EXPECT_EQ(memory.reason, "asked 9Gi memory, more than this node's allocatable 8Gi");
    EXPECT_EQ(ledger_.assess(question({0, 0}, kCapacity)).verdict, Verdict::Admitted);
}

TEST_F(LedgerTest, DecreasesAreAdmittedEvenOnAnOvercommittedNode)
{
    // More allocated than there is (a smaller reserve before a reload).
    remember("a", {3000, 6 * kGi});
    remember("b", {2000, 4 * kGi});
    ASSERT_EQ(ledger_.budget().available(), Amounts{});

    const auto decision = ledger_.assess(question({2000, 4 * kGi}, {1000, 2 * kGi}));
    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, Amounts{});
    EXPECT_EQ(ledger_.assess(question({2000, 4 * kGi}, {2000, 4 * kGi})).verdict, Verdict::Admitted);
}

TEST_F(LedgerTest, CpusOutsideTheNodeAreInfeasible)
{
    AdmissionQuestion asked = question({0, 0}, {0, 0});
    asked.allowedCpus = core::CpuSet{2, 3, 4};
    const auto decision = ledger_.assess(asked);
    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason, "asked CPUs 2-4, this node has 0-3");

    asked.allowedCpus = core::CpuSet{1, 3};
    EXPECT_EQ(ledger_.assess(asked).verdict, Verdict::Admitted);
    // Empty means all CPUs.
    asked.allowedCpus = core::CpuSet{};
    EXPECT_EQ(ledger_.assess(asked).verdict, Verdict::Admitted);
}

TEST_F(LedgerTest, CpusOutsideTheParentCgroupAreInfeasible)
{
    AdmissionQuestion asked = question({0, 0}, {0, 0});
    asked.parentCpus = core::CpuSet{0, 1};
    asked.allowedCpus = core::CpuSet{1, 2};
    const auto decision = ledger_.assess(asked);
    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason, "asked CPUs 1-2, the workload's parent cgroup allows 0-1");

    asked.allowedCpus = core::CpuSet{0, 1};
    EXPECT_EQ(ledger_.assess(asked).verdict, Verdict::Admitted);
}

TEST_F(LedgerTest, ACpusetRefusalComesBeforeTheBudget)
{
    // Refused as infeasible even though the CPU figure alone would be
    // insufficient: a different cpuset can never fit, more capacity can.
    remember("other", {4000, 0});
    AdmissionQuestion asked = question({0, 0}, {1000, 0});
    asked.allowedCpus = core::CpuSet{5};
    EXPECT_EQ(ledger_.assess(asked).verdict, Verdict::Infeasible);
}

TEST_F(LedgerTest, ACapacityChangeTakesEffectAtOnce)
{
    remember("a", {1000, 0});
    ledger_.setCapacity({1500, kGi});
    EXPECT_EQ(ledger_.budget().available(), (Amounts{500, kGi}));
    EXPECT_EQ(ledger_.assess(question({0, 0}, {600, 0})).verdict, Verdict::Insufficient);
    EXPECT_EQ(ledger_.assess(question({0, 0}, {1600, 0})).verdict, Verdict::Infeasible);
}


// design.md §1b: node, then pool; the pool's allocation is what its members
// hold, by their option or their label.
TEST_F(LedgerTest, APoolCapRefusesAnIncreaseTheNodeWouldAdmit)
{
    store_.savePool({.name = "batch", .cap = {1000, core::kUnlimited}});
    remember("member", {800, kGi}, true, "batch");
    remember("web", {100, 0}, true, "batch");

    const auto decision = ledger_.assess(question({100, 0}, {400, 0}, "batch", true));

    EXPECT_EQ(decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(decision.reason, "pool batch: asked 300m more CPU, 100m available in the pool");
    EXPECT_EQ(ledger_.assess(question({100, 0}, {200, 0}, "batch", true)).verdict, Verdict::Admitted);
    // The node alone would have had room.
    EXPECT_EQ(ledger_.assess(question({100, 0}, {400, 0})).verdict, Verdict::Admitted);
}

// A label makes a member: a container resized does not manage counts in the
// pool its label names at what its cgroup holds, as it does on the node.
TEST_F(LedgerTest, AnUnheldWorkloadCountsInThePoolItsLabelNames)
{
    const store::PoolRecord batch{.name = "batch", .cap = {1000, core::kUnlimited}};
    store_.savePool(batch);
    remember("web", {500, 0}, true, "batch");
    ledger_.countUnheld("unmanaged", {{300, 0}, "batch"});
    ledger_.countUnheld("elsewhere", {{400, 0}, "web"});

    EXPECT_EQ(ledger_.poolBudget(batch).allocated, (Amounts{800, 0}));
    const auto decision = ledger_.assess(question({500, 0}, {800, 0}, "batch", true));
    EXPECT_EQ(decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(decision.reason, "pool batch: asked 300m more CPU, 200m available in the pool");
}

TEST_F(LedgerTest, MoreThanAPoolsCapIsInfeasible)
{
    store_.savePool({.name = "batch", .cap = {core::kUnlimited, kGi}});

    const auto decision = ledger_.assess(question({}, {0, 2 * kGi}, "batch"));

    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason, "pool batch: asked 2Gi memory, more than its cap 1Gi");
}

TEST_F(LedgerTest, AWorkloadJoiningAPoolNeedsRoomForTheLargerOfHeldAndWanted)
{
    store_.savePool({.name = "batch", .cap = {1000, core::kUnlimited}});
    remember("member", {500, 0}, true, "batch");
    remember("web", {800, 0});

    // A shrink from 800m to 300m: until it lands, web holds 800m.
    const auto decision = ledger_.assess(question({800, 0}, {300, 0}, "batch"));
    EXPECT_EQ(decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(decision.reason, "pool batch: asked 800m more CPU, 500m available in the pool");
    EXPECT_EQ(ledger_.assess(question({400, 0}, {300, 0}, "batch")).verdict, Verdict::Admitted);
}

TEST_F(LedgerTest, MembersReservationsCountInTheirPool)
{
    store_.savePool({.name = "batch", .cap = {1000, core::kUnlimited}});
    reserve("member", {600, 0});
    store::WorkloadRecord member = *store_.find("member");
    member.poolOption = "batch";
    store_.save(member);

    EXPECT_EQ(ledger_.poolBudget(*store_.findPool("batch")).reserved, (Amounts{600, 0}));
    EXPECT_EQ(ledger_.assess(question({}, {500, 0}, "batch")).verdict, Verdict::Insufficient);
}

TEST_F(LedgerTest, AnOptionWinsOverALabelAndAPoolThatDoesNotExistCapsNothing)
{
    store_.savePool({.name = "batch", .cap = {100, core::kUnlimited}});
    store::WorkloadRecord elsewhere;
    elsewhere.name = "elsewhere";
    elsewhere.holdsAllocation = true;
    elsewhere.allocated = {1000, 0};
    elsewhere.poolLabel = "batch";
    elsewhere.poolOption = "";
    store_.save(elsewhere);

    EXPECT_EQ(ledger_.poolBudget(*store_.findPool("batch")).allocated, Amounts{});
    EXPECT_EQ(store_.poolMembers("batch"), std::vector<std::string>{});
    EXPECT_EQ(ledger_.assess(question({}, {3000, 0}, "nosuch")).verdict, Verdict::Admitted);
}

// design.md §1b, plans: admitted as a whole, net of their own decreases.
TEST_F(LedgerTest, APlanMovingCpuOnAFullNodeIsAdmittedAndReservesNothing)
{
    remember("from", {800, 0});
    remember("to", {200, 0});
    remember("rest", {3000, 0});
    auto from = question({800, 0}, {300, 0});
    auto to = question({200, 0}, {700, 0});
    from.workload = "from";
    to.workload = "to";
    ASSERT_EQ(ledger_.assess(to).verdict, Verdict::Insufficient);

    const auto admission = ledger_.assessPlan({from, to});

    EXPECT_EQ(admission.decision.verdict, Verdict::Admitted);
    EXPECT_EQ(admission.reservations, (std::vector<Amounts>{{0, 0}, {0, 0}}));
}

TEST_F(LedgerTest, APlanReservesWhatItsDecreasesDoNotCover)
{
    remember("rest", {2000, 0});
    const auto admission =
        ledger_.assessPlan({question({1000, 0}, {800, 0}), question({0, 0}, {700, kGi}), question({0, 0}, {300, 0})});

    EXPECT_EQ(admission.decision.verdict, Verdict::Admitted);
    EXPECT_EQ(admission.reservations, (std::vector<Amounts>{{0, 0}, {500, kGi}, {300, 0}}));
    EXPECT_EQ(ledger_.assessPlan({question({1000, 0}, {800, 0}), question({0, 0}, {1200, 0})}).decision.verdict,
              Verdict::Admitted);
    const auto refused = ledger_.assessPlan({question({1000, 0}, {800, 0}), question({0, 0}, {2300, 0})});
    EXPECT_EQ(refused.decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(refused.decision.reason, "asked 2100m more CPU, 2 available on this node");
    EXPECT_TRUE(refused.reservations.empty());
}

TEST_F(LedgerTest, AChangeOfAPlanLargerThanTheNodeIsInfeasibleAndNamed)
{
    auto big = question({}, {5000, 0});
    big.workload = "big";

    const auto admission = ledger_.assessPlan({question({1000, 0}, {0, 0}), big});

    EXPECT_EQ(admission.decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(admission.decision.reason, "big: asked 5 CPU, more than this node's allocatable 4");
}

// A decrease in one pool does not make room in another: the pool that
// grows must have the room itself.
TEST_F(LedgerTest, APlansPoolsAreEachMeasuredAgainstTheirCaps)
{
    store_.savePool({.name = "small", .cap = {500, core::kUnlimited}});
    store_.savePool({.name = "big", .cap = {core::kUnlimited, core::kUnlimited}});
    remember("inSmall", {400, 0}, true, "small");
    remember("inBig", {1000, 0}, true, "big");

    const auto admission = ledger_.assessPlan(
        {question({1000, 0}, {500, 0}, "big", true), question({400, 0}, {900, 0}, "small", true)});

    EXPECT_EQ(admission.decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(admission.decision.reason, "pool small: asked 900m CPU, more than its cap 500m");
}

TEST_F(LedgerTest, APlanLoweringMoreMembersThanTheBudgetAllowsIsRefused)
{
    store_.savePool({.name = "batch",
                     .cap = {core::kUnlimited, core::kUnlimited},
                     .budgets = {core::DisruptionBudget{.value = 1, .percent = false, .periodUsec = 3'600'000'000, .reasons = {}}}});
    remember("a", {500, 0}, true, "batch");
    remember("b", {500, 0}, true, "batch");
    auto lower = question({500, 0}, {300, 0}, "batch", true);
    lower.disruption = true;
    lower.reason = core::DisruptionReason::Plan;

    const auto admission = ledger_.assessPlan({lower, lower});

    EXPECT_EQ(admission.decision.verdict, Verdict::BudgetExhausted);
    EXPECT_EQ(admission.decision.reason, "pool batch: its disruption budgets allow 1 more plan disruptions now, 2 asked");
    EXPECT_EQ(ledger_.assessPlan({lower}).decision.verdict, Verdict::Admitted);
}

// design.md §1b, pod budgets: a pod's limit is what the node allocates for
// it; its members' limits of the resources it limits are inside it.
TEST_F(LedgerTest, APodsLimitIsCountedInPlaceOfItsMembersLimitsOfTheResourcesItLimits)
{
    store_.savePool({.name = "batch", .cap = {core::kUnlimited, core::kUnlimited}});
    rememberPod("shop", {1000, 0});
    rememberMember("cart", "shop", {800, kGi});
    rememberMember("till", "shop", {600, 0});
    ledger_.countUnheld("sidecar", {{300, kGi / 2}, "", "shop"});
    remember("elsewhere", {200, kGi}, true, "batch");
    ledger_.countUnheld("unmanaged", {{100, 0}, "batch", ""});

    // The pod limits CPU only: its members' memory counts one by one.
    EXPECT_EQ(ledger_.budget().allocated, (Amounts{1000 + 200 + 100, kGi + kGi / 2 + kGi}));
    const auto batch = *store_.findPool("batch");
    EXPECT_EQ(ledger_.poolBudget(batch).allocated, (Amounts{300, kGi}));
}

// A pod resized does not manage limits its members with its cgroup's limits
// all the same: managed members are counted inside it on the node. The
// pod is in no pool: in the member's pool it covers nothing.
TEST_F(LedgerTest, AnUnheldPodsLimitHoldsItsManagedMembers)
{
    store_.savePool({.name = "batch", .cap = {core::kUnlimited, core::kUnlimited}});
    remember("cart", {800, kGi}, true, "batch");
    auto cart = *store_.find("cart");
    cart.pod = "shop";
    store_.save(cart);
    ledger_.countUnheld("pod:shop", {{1000, 0}, "", ""});

    EXPECT_EQ(ledger_.budget().allocated, (Amounts{1000, kGi}));
    EXPECT_EQ(ledger_.poolBudget(*store_.findPool("batch")).allocated, (Amounts{800, kGi}));
}

// In the pod's own pool, its limit covers its members there too.
TEST_F(LedgerTest, APodsLimitCoversItsMembersInItsOwnPoolOnly)
{
    store_.savePool({.name = "batch", .cap = {core::kUnlimited, core::kUnlimited}});
    store_.savePool({.name = "web", .cap = {core::kUnlimited, core::kUnlimited}});
    remember("cart", {800, 0}, true, "batch");
    remember("till", {600, 0}, true, "web");
    for (const char* member : {"cart", "till"}) {
        auto record = *store_.find(member);
        record.pod = "shop";
        store_.save(record);
    }
    ledger_.countUnheld("pod:shop", {{1000, 0}, "batch", ""});

    EXPECT_EQ(ledger_.budget().allocated, (Amounts{1000, 0}));
    EXPECT_EQ(ledger_.poolBudget(*store_.findPool("batch")).allocated, (Amounts{1000, 0}));
    EXPECT_EQ(ledger_.poolBudget(*store_.findPool("web")).allocated, (Amounts{600, 0}));
}

TEST_F(LedgerTest, APodWithoutALimitLeavesItsMembersCountedOneByOne)
{
    rememberPod("shop", {0, 0});
    rememberMember("cart", "shop", {800, kGi});
    ledger_.countUnheld("sidecar", {{300, 0}, "", "shop"});

    EXPECT_EQ(ledger_.budget().allocated, (Amounts{1100, kGi}));
}

TEST_F(LedgerTest, AMembersRaiseInsideItsPodsLimitTakesNothingFromAFullNode)
{
    rememberPod("shop", {2000, 0});
    rememberMember("cart", "shop", {500, 0});
    remember("hog", {2000, 0});
    auto raise = question({500, 0}, {1500, 0});
    raise.workload = "cart";
    raise.pod = "shop";

    const auto decision = ledger_.assess(raise);

    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, Amounts{});
    EXPECT_EQ(ledger_.budget().available(), (Amounts{0, 8 * kGi}));
}

TEST_F(LedgerTest, AMembersLimitBeyondItsPodsIsInfeasibleAndNamesThePod)
{
    rememberPod("shop", {1000, kGi});
    rememberMember("cart", "shop", {500, kGi / 2});
    auto raise = question({500, kGi / 2}, {500, 2 * kGi});
    raise.workload = "cart";
    raise.pod = "shop";

    const auto decision = ledger_.assess(raise);

    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason, "pod shop: cart's limit of 2Gi memory is more than the pod's 1Gi memory");
}

TEST_F(LedgerTest, APodsLimitBelowAMembersIsInfeasibleAndNamesTheMember)
{
    rememberPod("shop", {2000, 0});
    rememberMember("cart", "shop", {1500, 0});
    ledger_.countUnheld("sidecar", {{700, 0}, "", "shop"});
    auto lower = question({2000, 0}, {1000, 0});
    lower.workload = "pod:shop";
    lower.kind = core::WorkloadKind::Pod;

    auto decision = ledger_.assess(lower);
    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason, "pod shop: cart's limit of 1500m CPU is more than the pod's 1 CPU");

    lower.wanted = {1600, 0};
    EXPECT_EQ(ledger_.assess(lower).verdict, Verdict::Admitted);
    lower.wanted = {600, 0};
    EXPECT_EQ(ledger_.assess(lower).reason, "pod shop: cart's limit of 1500m CPU is more than the pod's 600m CPU");
}

// Exclusive CPUs are never shared: with the container scope, a pod's CPU
// limit caps the sum of its members' slices, not each alone.
TEST_F(LedgerTest, APodsCpuLimitCapsTheSumOfItsMembersSlices)
{
    rememberPod("shop", {1500, 0});
    rememberSlice("cart", "shop", {0});
    auto slice = question({}, {1000, 0});
    slice.workload = "till";
    slice.pod = "shop";
    slice.exclusiveCpus = true;

    auto decision = ledger_.assess(slice);
    EXPECT_EQ(decision.verdict, Verdict::Infeasible);
    EXPECT_EQ(decision.reason,
              "pod shop: its members' exclusive CPUs, 2 CPU in all, are more than the pod's 1500m CPU");
    // The same limit as a quota shares the pod's CPU: each fits.
    slice.exclusiveCpus = false;
    EXPECT_EQ(ledger_.assess(slice).verdict, Verdict::Admitted);

    rememberSlice("till", "shop", {1});
    auto lower = question({1500, 0}, {1200, 0});
    lower.workload = "pod:shop";
    lower.kind = core::WorkloadKind::Pod;
    EXPECT_EQ(ledger_.assess(lower).reason,
              "pod shop: its members' exclusive CPUs, 2 CPU in all, are more than the pod's 1200m CPU");
    lower.wanted = {2000, 0};
    EXPECT_EQ(ledger_.assess(lower).verdict, Verdict::Admitted);
}

// A pod taking its first limit trades its members' sum for it: the node
// needs room only for what the limit exceeds that sum by.
TEST_F(LedgerTest, APodsFirstLimitNeedsRoomOnlyBeyondItsMembersSum)
{
    rememberMember("cart", "shop", {1000, 0});
    ledger_.countUnheld("sidecar", {{500, 0}, "", "shop"});
    remember("hog", {2000, 0});
    auto limit = question({0, 0}, {2000, 0});
    limit.workload = "pod:shop";
    limit.kind = core::WorkloadKind::Pod;

    auto decision = ledger_.assess(limit);
    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, (Amounts{500, 0}));

    limit.wanted = {2100, 0};
    decision = ledger_.assess(limit);
    EXPECT_EQ(decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(decision.reason, "asked 600m more CPU, 500m available on this node");
}

// A plan that changes a pod and its members is measured as their group
// after it: a member may grow past the pod's old limit when the plan raises
// the pod too, and a pod may go below a member's old limit when the plan
// lowers that member with it.
class PodPlanTest : public LedgerTest {
protected:
    AdmissionQuestion podChange(Amounts held, Amounts wanted) const
    {
        auto change = question(held, wanted);
        change.workload = "pod:shop";
        change.kind = core::WorkloadKind::Pod;
        return change;
    }

    AdmissionQuestion memberChange(const std::string& member, Amounts held, Amounts wanted) const
    {
        auto change = question(held, wanted);
        change.workload = member;
        change.pod = "shop";
        return change;
    }
};

TEST_F(PodPlanTest, RaisingAPodAndAMemberTogetherReservesOnlyThePodsGrowth)
{
    rememberPod("shop", {1000, 0});
    rememberMember("cart", "shop", {800, 0});
    remember("hog", {2000, 0});

    const auto admission = ledger_.assessPlan({podChange({1000, 0}, {2000, 0}), memberChange("cart", {800, 0}, {1500, 0})});

    EXPECT_EQ(admission.decision.verdict, Verdict::Admitted);
    EXPECT_EQ(admission.reservations, (std::vector<Amounts>{{1000, 0}, {0, 0}}));
    const auto alone = ledger_.assessPlan({memberChange("cart", {800, 0}, {1500, 0})});
    EXPECT_EQ(alone.decision.reason, "cart: pod shop: cart's limit of 1500m CPU is more than the pod's 1 CPU");
    // Beyond what the node has left, the pod's growth is refused.
    EXPECT_EQ(ledger_.assessPlan({podChange({1000, 0}, {2100, 0}), memberChange("cart", {800, 0}, {1500, 0})})
                  .decision.verdict,
              Verdict::Insufficient);
}

TEST_F(PodPlanTest, APodLoweredBelowAMemberTakesThatMemberDownWithIt)
{
    rememberPod("shop", {2000, 0});
    rememberMember("cart", "shop", {1500, 0});

    EXPECT_EQ(ledger_.assessPlan({podChange({2000, 0}, {1000, 0})}).decision.verdict, Verdict::Infeasible);
    const auto admission =
        ledger_.assessPlan({memberChange("cart", {1500, 0}, {800, 0}), podChange({2000, 0}, {1000, 0})});
    EXPECT_EQ(admission.decision.verdict, Verdict::Admitted);
    EXPECT_EQ(admission.reservations, (std::vector<Amounts>{{0, 0}, {0, 0}}));
}

TEST_F(PodPlanTest, APodsFirstLimitTradesItsMembersSumAfterThePlan)
{
    rememberMember("cart", "shop", {800, 0});
    rememberMember("till", "shop", {300, 0});
    remember("hog", {2800, 0});

    // The members hold 1100m now; after the plan the pod holds 1200m, all
    // that is left on the node.
    const auto admission = ledger_.assessPlan({podChange({0, 0}, {1200, 0}), memberChange("cart", {800, 0}, {1000, 0})});

    EXPECT_EQ(admission.decision.verdict, Verdict::Admitted);
    EXPECT_EQ(admission.reservations, (std::vector<Amounts>{{100, 0}, {0, 0}}));
    EXPECT_EQ(ledger_.assessPlan({podChange({0, 0}, {1200, 0}), memberChange("cart", {800, 0}, {1300, 0})})
                  .decision.reason,
              "pod:shop: pod shop: cart's limit of 1300m CPU is more than the pod's 1200m CPU");
}

}  // namespace
}  // namespace resized::service
