#pragma once

#include <charconv>
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

// A count of one or more; `leftOut` says what leaving the option out does.
// CLI::PositiveNumber would answer 0 with its range up to DBL_MAX, 300 digits.
inline CLI::Validator atLeastOne(const std::string& leftOut)
{
    return CLI::Validator(
        [leftOut](std::string& text) -> std::string {
            unsigned long long count = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
            if (error != std::errc{} || end != text.data() + text.size() || count == 0)
                return "'" + text + "' is not a count of 1 or more; leave the option out " + leftOut;
            return "";
        },
        "");
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
