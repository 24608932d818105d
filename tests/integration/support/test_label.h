#pragma once

#include <string>

namespace resized::integration {

// The running test's name as a container and folder name:
// "Suite/Test/0" becomes "suite-test-0", after `prefix`.
std::string currentTestLabel(const std::string& prefix = "");

}  // namespace resized::integration
