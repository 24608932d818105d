#include "budget_argument.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "arguments.h"

namespace resized::ctl {

using namespace budget_key;

namespace {

// What one KEY=VALUE field of a --budget sets.
struct BudgetField {
    std::string_view name;
    const char* key;
    sdbus::Variant (*read)(std::string_view name, std::string_view text);
};

sdbus::Variant readTimespan(std::string_view name, std::string_view text)
{
    const auto span = parseTimespan(text);
    if (!span)
        throw InvalidBudgetArgument(std::string(name) + ": '" + std::string(text) +
                                    "' is not a time span such as 90s, 10min, 1h30min or 2d");
    return sdbus::Variant(static_cast<uint64_t>(span->count()));
}

sdbus::Variant readText(std::string_view, std::string_view text) { return sdbus::Variant(std::string(text)); }

sdbus::Variant readReasons(std::string_view, std::string_view text)
{
    std::vector<std::string> reasons;
    for (size_t start = 0; start <= text.size();) {
        const size_t end = std::min(text.find('+', start), text.size());
        reasons.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return sdbus::Variant(reasons);
}

constexpr BudgetField kFields[] = {
    {"period", kPeriod, readTimespan},     {"reasons", kReasons, readReasons},
    {"schedule", kSchedule, readText},     {"duration", kDuration, readTimespan},
    {"timezone", kTimeZone, readText},
};

std::string fieldNames()
{
    std::string names;
    for (const auto& field : kFields)
        names += (names.empty() ? "" : ", ") + std::string(field.name);
    return names;
}

// The fields of `text` split at the commas that begin a KEY=VALUE field.
std::vector<std::string> splitFields(std::string_view text)
{
    std::vector<std::string> fields;
    for (size_t start = 0; start <= text.size();) {
        const size_t end = std::min(text.find(',', start), text.size());
        const std::string_view piece = text.substr(start, end - start);
        if (fields.size() > 1 && piece.find('=') == std::string_view::npos)
            fields.back() += "," + std::string(piece);
        else
            fields.emplace_back(piece);
        start = end + 1;
    }
    return fields;
}

}  // namespace

Dictionary parseBudgetArgument(std::string_view text)
{
    const auto fields = splitFields(text);
    if (fields.front().find('=') != std::string::npos)
        throw InvalidBudgetArgument("a budget begins with its value, 2 or 25%, not '" + fields.front() + "'");
    Dictionary budget{{kValue, sdbus::Variant(fields.front())}};
    for (auto field = fields.begin() + 1; field != fields.end(); ++field) {
        const size_t equals = field->find('=');
        if (equals == std::string::npos)
            throw InvalidBudgetArgument("'" + *field + "' is not KEY=VALUE (keys: " + fieldNames() + ")");
        const std::string_view name = std::string_view(*field).substr(0, equals);
        const auto known = std::find_if(std::begin(kFields), std::end(kFields),
                                        [name](const BudgetField& candidate) { return candidate.name == name; });
        if (known == std::end(kFields))
            throw InvalidBudgetArgument("unknown key '" + std::string(name) + "' (keys: " + fieldNames() + ")");
        if (budget.contains(known->key))
            throw InvalidBudgetArgument(std::string(name) + ": given twice");
        budget.emplace(known->key, known->read(name, std::string_view(*field).substr(equals + 1)));
    }
    return budget;
}

}  // namespace resized::ctl
