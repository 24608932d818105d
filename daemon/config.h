#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "service/settings.h"

namespace resized {

// A configuration file could not be used; what() names the file and line.
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads FILE and then FILE.d/*.conf in lexical order (later files win) onto
// `settings`, systemd style. A missing FILE is not an error. Throws
// ConfigError for an unreadable file, an unknown section or key, or a bad
// value; `settings` is left untouched then.
service::Settings loadConfig(const std::filesystem::path& file, service::Settings settings);

// inih's handler: 1 to go on, 0 to refuse the entry.
using IniHandler = int (*)(void* user, const char* section, const char* key, const char* value);

// Reads FILE, systemd-style INI, handing each entry to `handler`. Throws
// ConfigError for an unreadable file, or naming the line of a syntax error or
// of the entry `handler` refused, with `why` (which it sets) as the reason.
void parseIniFile(const std::filesystem::path& file, IniHandler handler, void* user, const std::string& why);

// "30", "30s", "500ms", "2min", "8h", "7d": a time span as systemd writes
// one (a subset); nullopt for anything else.
std::optional<std::chrono::microseconds> parseTimeSpan(std::string_view text);

}  // namespace resized
