#include "core/admission.h"

#include <gtest/gtest.h>

using namespace resized::core;

namespace {

NodeBudget budget(Amounts allocated, Amounts reserved = {})
{
    return {.capacity = {2000, 8ull << 30}, .allocated = allocated, .reserved = reserved};
}

}  // namespace

TEST(Admission, AvailableIsCapacityMinusAllocatedMinusReserved)
{
    EXPECT_EQ(budget({500, 1ull << 30}, {200, 1ull << 30}).available(), (Amounts{1300, 6ull << 30}));
    EXPECT_EQ(budget({1500, 0}, {900, 0}).available().cpuMillis, 0u);
}

TEST(Admission, RaiseWithinAvailableIsAdmittedAndReservesTheDifference)
{
    const auto decision = admit(budget({1000, 0}), {300, 1ull << 30}, {1300, 2ull << 30});
    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, (Amounts{1000, 1ull << 30}));
}

TEST(Admission, RaiseBeyondAvailableIsInsufficientWithAReason)
{
    const auto decision = admit(budget({1300, 0}), {0, 0}, {1500, 0});
    EXPECT_EQ(decision.verdict, Verdict::Insufficient);
    EXPECT_EQ(decision.reason, "asked 1500m more CPU, 700m available on this node");
    EXPECT_EQ(decision.reservation, Amounts{});
}

TEST(Admission, ReservationsInFlightCount)
{
    EXPECT_EQ(admit(budget({1000, 0}, {900, 0}), {0, 0}, {200, 0}).verdict, Verdict::Insufficient);
    EXPECT_EQ(admit(budget({1000, 0}, {900, 0}), {0, 0}, {100, 0}).verdict, Verdict::Admitted);
}

TEST(Admission, DecreasesAreAlwaysAdmitted)
{
    const auto decision = admit(budget({5000, 16ull << 30}), {1500, 4ull << 30}, {500, 1ull << 30});
    EXPECT_EQ(decision.verdict, Verdict::Admitted);
    EXPECT_EQ(decision.reservation, Amounts{});
}

TEST(Admission, MoreThanCapacityIsInfeasibleEvenOnAnEmptyNode)
{
    EXPECT_EQ(admit(budget({0, 0}), {0, 0}, {2001, 0}).verdict, Verdict::Infeasible);
    EXPECT_EQ(admit(budget({0, 0}), {0, 0}, {0, (8ull << 30) + 1}).verdict, Verdict::Infeasible);
}

TEST(Admission, NoLimitCountsAsZero)
{
    Resources limits;
    limits.cpuMillis = kUnlimited;
    EXPECT_EQ(allocationOf(limits), Amounts{});
    limits.memoryMax = 1ull << 20;
    EXPECT_EQ(allocationOf(limits), (Amounts{0, 1ull << 20}));
}

TEST(Admission, SumsSaturateInsteadOfWrapping)
{
    EXPECT_EQ((Amounts{kUnlimited - 1, 1} + Amounts{5, 2}), (Amounts{kUnlimited, 3}));
}
