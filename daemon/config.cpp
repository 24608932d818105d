#include "config.h"

#include <ini.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <map>
#include <vector>

#include "core/quantity.h"
#include "store/state_store.h"

namespace resized {
namespace {

using Setter = std::function<bool(service::Settings&, std::string_view)>;

template <typename T>
bool parseNumber(std::string_view text, T& value)
{
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

// As systemd reads booleans.
bool parseBoolean(std::string_view text, bool& value)
{
    constexpr std::array<std::string_view, 4> kYes{"yes", "true", "on", "1"};
    constexpr std::array<std::string_view, 4> kNo{"no", "false", "off", "0"};
    const bool yes = std::find(kYes.begin(), kYes.end(), text) != kYes.end();
    if (!yes && std::find(kNo.begin(), kNo.end(), text) == kNo.end())
        return false;
    value = yes;
    return true;
}

template <typename Duration>
bool parseDuration(std::string_view text, Duration& value)
{
    const auto span = parseTimeSpan(text);
    if (span)
        value = std::chrono::duration_cast<Duration>(*span);
    return span.has_value();
}

const std::map<std::string, Setter>& setters()
{
    static const std::map<std::string, Setter> table{
        {"Paths.StateDirectory", [](auto& s, auto v) { s.stateDir = v; return !v.empty(); }},
        {"Paths.PodmanSocket", [](auto& s, auto v) { s.podmanSocket = v; return !v.empty(); }},
        {"Paths.PoolDirectory", [](auto& s, auto v) { s.poolDirectory = v; return !v.empty(); }},
        {"Paths.CgroupRoot", [](auto& s, auto v) { s.cgroupRoot = v; return !v.empty(); }},
        {"Node.ReservedCPU", [](auto& s, auto v) {
             auto millis = core::parseCpuMillis(v);
             return millis && *millis != core::kUnlimited && (s.systemReserve.cpuMillis = *millis, true);
         }},
        {"Node.ReservedMemory", [](auto& s, auto v) {
             auto bytes = core::parseBytes(v);
             return bytes && *bytes != core::kUnlimited && (s.systemReserve.memory = *bytes, true);
         }},
        {"Sync.IntervalSec", [](auto& s, auto v) {
             return parseDuration(v, s.syncInterval) && s.syncInterval.count() > 0;
         }},
        {"Sync.RetryAttempts", [](auto& s, auto v) { return parseNumber(v, s.retryAttempts); }},
        {"Sync.RetryIntervalSec", [](auto& s, auto v) { return parseDuration(v, s.retryInterval); }},
        {"Update.ReclaimTimeoutSec", [](auto& s, auto v) { return parseDuration(v, s.defaultReclaimTimeout); }},
        {"Update.HistoryLimit", [](auto& s, auto v) {
             return parseNumber(v, s.historyLimit) && s.historyLimit > 0 &&
                    s.historyLimit <= store::kMaxHistoryLimit;
         }},
        {"Authorization.Group", [](auto& s, auto v) { s.adminGroup = v; return !v.empty(); }},
        {"Cgroup.Driver", [](auto& s, auto v) {
             if (v == "auto")
                 s.cgroupDriver = cgroup::DriverChoice::Auto;
             else if (v == "systemd")
                 s.cgroupDriver = cgroup::DriverChoice::Systemd;
             else if (v == "cgroupfs")
                 s.cgroupDriver = cgroup::DriverChoice::Cgroupfs;
             else
                 return false;
             return true;
         }},
        {"Workloads.RemovedGraceSec", [](auto& s, auto v) { return parseDuration(v, s.removedGrace); }},
        {"CpuManager.Policy", [](auto& s, auto v) {
             const auto policy = core::parseCpuManagerPolicy(v);
             return policy && (s.cpuManager.policy = *policy, true);
         }},
        {"CpuManager.ReservedCpus", [](auto& s, auto v) {
             auto cpus = core::parseCpuSet(v);
             return cpus && (s.cpuManager.reserved = std::move(*cpus), true);
         }},
        {"CpuManager.FullPhysicalCpusOnly", [](auto& s, auto v) {
             return parseBoolean(v, s.cpuManager.slices.fullPhysicalCpusOnly);
         }},
        {"CpuManager.TopologyScope", [](auto& s, auto v) {
             const auto scope = core::parseTopologyScope(v);
             return scope && (s.cpuManager.scope = *scope, true);
         }},
    };
    return table;
}

struct ParseState {
    service::Settings settings;
    std::string error;
};

int onEntry(void* user, const char* section, const char* key, const char* value)
{
    auto* state = static_cast<ParseState*>(user);
    const std::string name = std::string(section) + "." + key;
    auto setter = setters().find(name);
    if (setter == setters().end()) {
        state->error = "unknown setting [" + std::string(section) + "] " + key;
        return 0;
    }
    if (!setter->second(state->settings, value)) {
        state->error = "bad value \"" + std::string(value) + "\" for [" + std::string(section) + "] " + key;
        return 0;
    }
    return 1;
}

void loadFile(const std::filesystem::path& file, ParseState& state)
{
    parseIniFile(file, &onEntry, &state, state.error);
}

}  // namespace

void parseIniFile(const std::filesystem::path& file, IniHandler handler, void* user, const std::string& why)
{
    const int line = ini_parse(file.c_str(), handler, user);
    if (line < 0)
        throw ConfigError(file.string() + ": cannot be read");
    if (line > 0)
        throw ConfigError(file.string() + ":" + std::to_string(line) + ": " +
                          (why.empty() ? std::string("syntax error") : why));
}

std::optional<std::chrono::microseconds> parseTimeSpan(std::string_view text)
{
    uint64_t number = 0;
    std::chrono::microseconds unit = std::chrono::seconds(1);
    for (auto [suffix, length] : std::initializer_list<std::pair<std::string_view, std::chrono::microseconds>>{
             {"ms", std::chrono::milliseconds(1)},
             {"min", std::chrono::minutes(1)},
             {"s", std::chrono::seconds(1)},
             {"h", std::chrono::hours(1)},
             {"d", std::chrono::days(1)}}) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            unit = length;
            break;
        }
    }
    if (!parseNumber(text, number) ||
        number > static_cast<uint64_t>(std::chrono::microseconds::max().count() / unit.count()))
        return std::nullopt;
    return unit * static_cast<int64_t>(number);
}

service::Settings loadConfig(const std::filesystem::path& file, service::Settings settings)
{
    ParseState state{std::move(settings), {}};
    std::error_code error;
    if (std::filesystem::exists(file, error))
        loadFile(file, state);

    std::filesystem::path dropInDir = file;
    dropInDir += ".d";
    std::vector<std::filesystem::path> dropIns;
    if (std::filesystem::is_directory(dropInDir, error))
        for (const auto& entry : std::filesystem::directory_iterator(dropInDir))
            if (entry.path().extension() == ".conf")
                dropIns.push_back(entry.path());
    std::sort(dropIns.begin(), dropIns.end());
    for (const auto& dropIn : dropIns)
        loadFile(dropIn, state);
    return state.settings;
}

}  // namespace resized
