#include "core/backoff.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

namespace resized::core {
namespace {

using std::chrono::milliseconds;

std::vector<long> delays(Backoff& backoff, int count)
{
    std::vector<long> taken;
    for (int i = 0; i < count; ++i)
        taken.push_back(backoff.next().count());
    return taken;
}

TEST(Backoff, DoublesUpToTheLongestDelay)
{
    Backoff backoff(milliseconds(250), milliseconds(30'000));
    EXPECT_EQ(delays(backoff, 10),
              (std::vector<long>{250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000}));
    EXPECT_EQ(backoff.attempts(), 10u);
}

TEST(Backoff, ResetStartsOverFromTheFirstDelay)
{
    Backoff backoff(milliseconds(100), milliseconds(1000));
    delays(backoff, 3);
    backoff.reset();
    EXPECT_EQ(backoff.attempts(), 0u);
    EXPECT_EQ(delays(backoff, 2), (std::vector<long>{100, 200}));
    EXPECT_EQ(backoff.attempts(), 2u);
}

TEST(Backoff, CeilingThatIsNoPowerOfTwoOfTheFirstDelay)
{
    Backoff backoff(milliseconds(3), milliseconds(10));
    EXPECT_EQ(delays(backoff, 4), (std::vector<long>{3, 6, 10, 10}));
}

TEST(Backoff, FirstEqualToLongestNeverGrows)
{
    Backoff backoff(milliseconds(7), milliseconds(7));
    EXPECT_EQ(delays(backoff, 3), (std::vector<long>{7, 7, 7}));
}

TEST(Backoff, NeverOverflowsNearTheLargestDuration)
{
    const milliseconds largest = milliseconds::max();
    Backoff backoff(largest / 3, largest);
    EXPECT_EQ(delays(backoff, 3), (std::vector<long>{(largest / 3).count(), (largest / 3 * 2).count(),
                                                      largest.count()}));
    EXPECT_EQ(backoff.next(), largest);
}

TEST(Backoff, RefusesDelaysThatCannotWork)
{
    EXPECT_THROW(Backoff(milliseconds(0), milliseconds(10)), std::invalid_argument);
    EXPECT_THROW(Backoff(milliseconds(-1), milliseconds(10)), std::invalid_argument);
    EXPECT_THROW(Backoff(milliseconds(20), milliseconds(10)), std::invalid_argument);
}

}  // namespace
}  // namespace resized::core
