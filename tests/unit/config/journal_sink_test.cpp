#include "journal_sink.h"

#include <gtest/gtest.h>

using resized::workloadOfMessage;

TEST(JournalSink, TheWorkloadIsTheContainerNameBeforeTheFirstColon)
{
    EXPECT_EQ(workloadOfMessage("web-1.prod_a: applied, now cpu=1"), "web-1.prod_a");
    EXPECT_EQ(workloadOfMessage("db: drift in CpuMillis: wanted 1"), "db");
}

TEST(JournalSink, LinesAboutTheDaemonCarryNoWorkload)
{
    for (const char* line : {"serving io.resized1 (cgroup v1)", "lost the D-Bus connection: gone",
                             "/etc/resized/resized.conf:3: bad value", "-x: no", ": empty", "web:no space"})
        EXPECT_EQ(workloadOfMessage(line), std::nullopt) << line;
}
