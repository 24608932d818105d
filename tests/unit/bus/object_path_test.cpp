#include "bus/object_path.h"

#include <gtest/gtest.h>

namespace resized::bus {
namespace {

TEST(WorkloadPath, KeepsLettersAndDigits)
{
    EXPECT_EQ(workloadPath("web"), "/io/resized1/workload/web");
    EXPECT_EQ(workloadPath("Web2"), "/io/resized1/workload/Web2");
}

TEST(WorkloadPath, EscapesEveryOtherByteInLowerCaseHex)
{
    EXPECT_EQ(workloadPath("web-1"), "/io/resized1/workload/web_2d1");
    EXPECT_EQ(workloadPath("my_db.prod"), "/io/resized1/workload/my_5fdb_2eprod");
    EXPECT_EQ(workloadPath("unit:nginx.service"), "/io/resized1/workload/unit_3anginx_2eservice");
    EXPECT_EQ(workloadPath("a/b"), "/io/resized1/workload/a_2fb");
    EXPECT_EQ(workloadPath("\xc3\xa9"), "/io/resized1/workload/_c3_a9");
}

// As systemd's bus labels: a label does not start with a digit, and the empty
// name is "_".
TEST(WorkloadPath, EscapesALeadingDigitAndTheEmptyName)
{
    EXPECT_EQ(workloadPath("1web"), "/io/resized1/workload/_31web");
    EXPECT_EQ(workloadPath(""), "/io/resized1/workload/_");
}

}  // namespace
}  // namespace resized::bus
