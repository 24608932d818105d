#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace resized::ctl {

// An option whose text `parse` (answering std::optional) turns into the
// value stored in `target`. Text it cannot read is a usage error:
// "--NAME: 'TEXT' is not WHAT".
template <typename Value, typename Parse>
CLI::Option* addParsedOption(CLI::App& group, const std::string& names, std::optional<Value>& target, Parse parse,
                             const std::string& what, const std::string& help)
{
    // Errors name the long form, the last one in `names`.
    const std::string name = names.substr(names.rfind(',') + 1);
    return group.add_option_function<std::string>(
        names,
        [&target, parse, name, what](const std::string& text) {
            const auto value = parse(text);
            if (!value)
                throw CLI::ValidationError(name, "'" + text + "' is not " + what);
            target = *value;
        },
        help);
}

}  // namespace resized::ctl
