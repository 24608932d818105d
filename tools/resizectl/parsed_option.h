#pragma once

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace resized::ctl {

// An option whose text `read` takes in, answering false for text it cannot
// read, which is a usage error: "--NAME: 'TEXT' is not WHAT".
inline CLI::Option* addReadOption(CLI::App& group, const std::string& names,
                                  std::function<bool(const std::string&)> read, const std::string& what,
                                  const std::string& help)
{
    // Errors name the long form, the last one in `names`.
    const std::string name = names.substr(names.rfind(',') + 1);
    return group.add_option_function<std::string>(
        names,
        [read = std::move(read), name, what](const std::string& text) {
            if (!read(text))
                throw CLI::ValidationError(name, "'" + text + "' is not " + what);
        },
        help);
}

// An option whose text `parse` (answering std::optional) turns into the
// value stored in `target`.
template <typename Value, typename Parse>
CLI::Option* addParsedOption(CLI::App& group, const std::string& names, std::optional<Value>& target, Parse parse,
                             const std::string& what, const std::string& help)
{
    return addReadOption(
        group, names,
        [&target, parse](const std::string& text) {
            auto value = parse(text);
            if (!value)
                return false;
            target = std::move(*value);
            return true;
        },
        what, help);
}

}  // namespace resized::ctl
