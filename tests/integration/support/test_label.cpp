#include "support/test_label.h"

#include <gtest/gtest.h>

#include <cctype>

namespace resized::integration {

std::string currentTestLabel(const std::string& prefix)
{
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string label = prefix;
    for (const unsigned char c : std::string(test->test_suite_name()) + "-" + test->name())
        label += std::isalnum(c) != 0 ? static_cast<char>(std::tolower(c)) : '-';
    return label;
}

}  // namespace resized::integration
