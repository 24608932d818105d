#include "pool_files.h"

#include <algorithm>
#include <sstream>
#include <string_view>

#include "config.h"
#include "core/quantity.h"
#include "core/validation.h"
#include "service/errors.h"
#include "service/pools.h"

namespace resized {
namespace {

constexpr std::string_view kBudgetSection = "Budget ";

struct PoolFile {
    store::PoolRecord pool;
    // In the order of their sections.
    std::vector<std::pair<std::string, service::BudgetSpec>> budgets;
    std::string error;
};

std::optional<uint64_t> usecOf(std::string_view text)
{
    const auto span = parseTimeSpan(text);
    return span ? std::optional<uint64_t>(static_cast<uint64_t>(span->count())) : std::nullopt;
}

// Sets one key of a [Pool] section; false for a bad value.
bool setPoolKey(store::PoolRecord& pool, std::string_view key, std::string_view value, std::string& error)
{
    if (key != "CPU" && key != "Memory") {
        error = "unknown setting [Pool] " + std::string(key) + " (known: CPU, Memory)";
        return false;
    }
    const auto amount = key == "CPU" ? core::parseCpuMillis(value) : core::parseBytes(value);
    if (!amount)
        return false;
    (key == "CPU" ? pool.cap.cpuMillis : pool.cap.memory) = *amount;
    return true;
}

// Sets one key of a [Budget NAME] section; false for a bad value.
bool setBudgetKey(service::BudgetSpec& budget, std::string_view key, std::string_view value, std::string& error)
{
    if (key == "Value") {
        budget.value = value;
    } else if (key == "PeriodSec") {
        budget.periodUsec = usecOf(value);
        return budget.periodUsec.has_value();
    } else if (key == "Reasons") {
        std::istringstream words{std::string(value)};
        budget.reasons.clear();
        for (std::string reason; words >> reason;)
            budget.reasons.push_back(reason);
    } else if (key == "Schedule") {
        budget.schedule = value;
    } else if (key == "DurationSec") {
        budget.durationUsec = usecOf(value);
        return budget.durationUsec.has_value();
    } else if (key == "TimeZone") {
        budget.timeZone = value;
    } else {
        error = "unknown setting in a budget: " + std::string(key) +
                " (known: Value, PeriodSec, Reasons, Schedule, DurationSec, TimeZone)";
        return false;
    }
    return true;
}

int onEntry(void* user, const char* section, const char* key, const char* value)
{
    auto& file = *static_cast<PoolFile*>(user);
    const std::string_view sectionName(section);
    bool accepted = false;
    if (sectionName == "Pool") {
        accepted = setPoolKey(file.pool, key, value, file.error);
    } else if (sectionName.starts_with(kBudgetSection) && sectionName.size() > kBudgetSection.size()) {
        const std::string name(sectionName.substr(kBudgetSection.size()));
        auto budget = std::find_if(file.budgets.begin(), file.budgets.end(),
                                   [&](const auto& entry) { return entry.first == name; });
        if (budget == file.budgets.end())
            budget = file.budgets.insert(file.budgets.end(), {name, {}});
        accepted = setBudgetKey(budget->second, key, value, file.error);
    } else {
        file.error = "unknown section [" + std::string(section) + "] (known: [Pool], [Budget NAME])";
    }
    if (!accepted && file.error.empty())
        file.error = "bad value \"" + std::string(value) + "\" for [" + std::string(section) + "] " + key;
    return accepted ? 1 : 0;
}

store::PoolRecord loadPoolFile(const std::filesystem::path& path)
{
    PoolFile file;
    file.pool.name = path.stem().string();
    file.pool.declaredIn = path.string();
    if (const auto why = core::invalidPoolName(file.pool.name))
        throw ConfigError(path.string() + ": the file's name is the pool's, and " + *why);
    parseIniFile(path, &onEntry, &file, file.error);
    for (const auto& [name, spec] : file.budgets) {
        try {
            file.pool.budgets.push_back(service::checkedBudget(spec));
        } catch (const service::ResizeError& error) {
            throw ConfigError(path.string() + ": [Budget " + name + "]: " + error.what());
        }
    }
    return file.pool;
}

}  // namespace

std::vector<store::PoolRecord> loadPoolFiles(const std::filesystem::path& directory)
{
    std::vector<std::filesystem::path> paths;
    std::error_code error;
    if (std::filesystem::is_directory(directory, error))
        for (const auto& entry : std::filesystem::directory_iterator(directory))
            if (entry.path().extension() == ".conf")
                paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    std::vector<store::PoolRecord> pools;
    for (const auto& path : paths)
        pools.push_back(loadPoolFile(path));
    return pools;
}

}  // namespace resized
