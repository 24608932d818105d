#include "crash_fixture.h"

#include "support/wait.h"

#include <algorithm>
#include <csignal>

namespace resized::integration
{

std::ostream& operator<<(std::ostream& stream, const Failpoint& failpoint)
{
    return stream << failpoint.name;
}

std::string testNameOf(const ::testing::TestParamInfo<Failpoint>& info)
{
    std::string name = info.param.name;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

const std::vector<Failpoint> updateFailpoints{
    {"after-reserve", Outcome::Undone},
    {"after-write", Outcome::Completed},
    {"before-commit", Outcome::Completed},
    {"after-commit", Outcome::Completed},
};

void CrashTest::crashWhileUpdating(const std::string& workload, const Dictionary& resources)
{
    startDaemon({std::string("RESIZED_FAILPOINT=") + GetParam().name});
    EXPECT_TRUE(errorOf([&] { client().updateResources(workload, resources); }))
        << "the update answered although the daemon should have died";
    ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout))
        << "resized did not die at " << GetParam().name;
    EXPECT_EQ(daemon().kill9(), 128 + SIGKILL);
}

} // namespace resized::integration
