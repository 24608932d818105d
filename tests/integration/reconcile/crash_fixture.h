#pragma once

// Crash consistency: resized killed (SIGKILL, by its own failpoints) at a
// step of an update, then started again. The fixture of crash_test.cpp and
// cpu_manager_crash_test.cpp, which the VM tier runs in its guest too.

#include "reconcile_test.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace resized::integration
{

// What a restart makes of the interrupted update: the cgroup keeps or gets
// back the old value, or it already held the new one and the update is
// completed.
enum class Outcome
{
    Undone,
    Completed,
};

struct Failpoint
{
    const char* name;
    Outcome outcome;
};

std::ostream& operator<<(std::ostream& stream, const Failpoint& failpoint);

// The failpoint's name as a test name's suffix.
std::string testNameOf(const ::testing::TestParamInfo<Failpoint>& info);

// The steps of an update, each with what a restart makes of it.
extern const std::vector<Failpoint> updateFailpoints;

class CrashTest : public ReconcileTest, public ::testing::WithParamInterface<Failpoint>
{
  protected:
    // The update that kills the daemon at the failpoint: the call has no
    // answer and the daemon ends with SIGKILL, which proves that the
    // failpoint was reached (a build without failpoints would just apply it).
    void crashWhileUpdating(const std::string& workload, const Dictionary& resources);
};

} // namespace resized::integration
