#pragma once

#include <string_view>

namespace resized {

// To the journal when systemd connected stderr to it (JOURNAL_STREAM),
// otherwise to stderr.
void setUpLogging(std::string_view level);

}  // namespace resized
