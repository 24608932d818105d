#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace resized::ctl {

// What to say when parsing `app` stopped at a word resizectl does not know:
// "unknown command 'stauts'; did you mean 'status'?" or "unknown option
// '--memroy' for 'resizectl set'; did you mean '--memory'?". CLI11 itself
// would answer "A subcommand is required" for a misspelt verb. nullopt when
// the error is about something else, for CLI11's own message.
std::optional<std::string> explainUnknownWord(const CLI::App& app, const CLI::ParseError& error);

// Adds `footer` below each command's own footer, at every depth, so that
// every verb's --help ends with the same quantities and exit statuses.
void appendFooterEverywhere(CLI::App& app, const std::string& footer);

}  // namespace resized::ctl
