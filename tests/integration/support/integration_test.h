#pragma once

#include "support/test_environment.h"

#include <gtest/gtest.h>

namespace resized::integration
{

// Base fixture of the integration tests: skips the test unless it runs inside
// with-testenv.sh (meson test always runs it so).
class IntegrationTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        auto found = TestEnvironment::fromEnv();
        if (!found)
        {
            GTEST_SKIP() << "not started by tests/integration/with-testenv.sh";
        }
        environment_ = std::move(*found);
    }

    const TestEnvironment& environment() const { return environment_; }

  private:
    TestEnvironment environment_;
};

} // namespace resized::integration
