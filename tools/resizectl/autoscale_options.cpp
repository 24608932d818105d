#include "autoscale_options.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>

#include "arguments.h"
#include "core/quantity.h"
#include "parsed_option.h"
#include "quantity_format.h"
#include "time_format.h"

namespace resized::ctl {

namespace autoscale = core::autoscale;

namespace {

// `text` up to the first `separator`, which it then drops from `text`; all
// of `text` when there is none.
std::string_view takeField(std::string_view& text, char separator)
{
    const size_t end = text.find(separator);
    const std::string_view field = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    return field;
}

std::string formatRatePolicies(const std::vector<autoscale::RatePolicy>& policies)
{
    std::string text;
    for (const auto& policy : policies)
        text += (text.empty() ? "" : " ") + formatRatePolicy(policy);
    return text;
}

// Help texts name the defaults of core::autoscale::Policy, so they cannot
// drift apart.
void addScalingRulesOptions(CLI::App& group, const std::string& direction, ScalingRulesArguments& rules,
                            const autoscale::Rules& defaults)
{
    const std::string prefix = "--scale-" + direction;
    addParsedOption(group, prefix + "-window", rules.window, parseTimespan, "a time span",
                    "Stabilization window: scale " + direction +
                        " only as far as every recommendation of this window allows (default " +
                        formatTimespan(defaults.stabilization) + ")")
        ->type_name("TIME");
    group
        .add_option_function<std::vector<std::string>>(
            prefix + "-policy",
            [&rules, name = prefix + "-policy"](const std::vector<std::string>& texts) {
                for (const auto& text : texts) {
                    const auto policy = parseRatePolicyArgument(text);
                    if (!policy)
                        throw CLI::ValidationError(name, "'" + text + "' is not KIND:VALUE:PERIOD");
                    rules.policies.push_back(*policy);
                }
            },
            "How far one period may move the limit: percent:VALUE:PERIOD or absolute:VALUE:PERIOD (VALUE in "
            "millicores or bytes); repeat for several (default " +
                formatRatePolicies(defaults.policies) + ")")
        ->type_name("KIND:VALUE:PERIOD")
        ->allow_extra_args(false);
    addParsedOption(group, prefix + "-select", rules.select, parseSelectArgument, "max, min or disabled",
                    "Of several policies, the one allowing the largest change (max), the smallest (min), or "
                    "none at all (disabled) (default " +
                        std::string(selectName(defaults.select)) + ")")
        ->type_name("max|min|disabled");
}

}  // namespace

std::optional<uint32_t> parsePercentArgument(std::string_view text)
{
    if (text.ends_with('%'))
        text.remove_suffix(1);
    const auto value = parseUnsignedArgument(text);
    if (!value || *value > std::numeric_limits<uint32_t>::max())
        return std::nullopt;
    return static_cast<uint32_t>(*value);
}

std::optional<double> parseFractionArgument(std::string_view text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<autoscale::RatePolicy> parseRatePolicyArgument(std::string_view text)
{
    const std::string_view kind = takeField(text, ':');
    const std::string_view value = takeField(text, ':');
    const auto period = parseTimespan(text);
    if (!period)
        return std::nullopt;
    if (kind == "percent") {
        const auto percent = parsePercentArgument(value);
        if (!percent)
            return std::nullopt;
        return autoscale::RatePolicy{autoscale::RateKind::Percent, *percent, *period};
    }
    if (kind == "absolute") {
        const auto amount = parseUnsignedArgument(value);
        if (!amount)
            return std::nullopt;
        return autoscale::RatePolicy{autoscale::RateKind::Absolute, *amount, *period};
    }
    return std::nullopt;
}

std::optional<autoscale::Select> parseSelectArgument(std::string_view text)
{
    for (const auto select : {autoscale::Select::Max, autoscale::Select::Min, autoscale::Select::Disabled})
        if (text == selectName(select))
            return select;
    return std::nullopt;
}

std::optional<autoscale::Mode> parseModeArgument(std::string_view text)
{
    for (const auto mode : {autoscale::Mode::Auto, autoscale::Mode::Recommend})
        if (text == modeName(mode))
            return mode;
    return std::nullopt;
}

namespace {

constexpr std::array<std::pair<autoscale::Direction, std::string_view>, 2> kDirectionWords{{
    {autoscale::Direction::LowerIsBetter, "lower"},
    {autoscale::Direction::HigherIsBetter, "higher"},
}};
constexpr std::array<std::pair<autoscale::MetricResource, std::string_view>, 2> kResourceWords{{
    {autoscale::MetricResource::Cpu, "cpu"},
    {autoscale::MetricResource::Memory, "memory"},
}};

// Reads `word` into `value` when it is one of `words`.
template <typename Value, size_t Count>
bool readWord(const std::array<std::pair<Value, std::string_view>, Count>& words, std::string_view word,
              Value& value)
{
    for (const auto& [known, said] : words)
        if (word == said) {
            value = known;
            return true;
        }
    return false;
}

template <typename Value, size_t Count>
std::string_view wordOf(const std::array<std::pair<Value, std::string_view>, Count>& words, Value value)
{
    for (const auto& [known, said] : words)
        if (known == value)
            return said;
    return "?";
}

}  // namespace

std::optional<NamedMetric> parseMetricArgument(std::string_view text)
{
    const std::string_view name = takeField(text, ':');
    const auto target = parseFractionArgument(takeField(text, ':'));
    if (name.empty() || !target || !(*target > 0))
        return std::nullopt;
    autoscale::MetricTarget metric{*target};
    // The direction, then the resource; either may be left out.
    std::string_view word = takeField(text, ':');
    if (readWord(kDirectionWords, word, metric.direction))
        word = takeField(text, ':');
    if (!word.empty() && !readWord(kResourceWords, word, metric.resource))
        return std::nullopt;
    if (!text.empty())
        return std::nullopt;
    return NamedMetric{std::string(name), metric};
}

std::optional<std::pair<std::string, double>> parseReportedValue(std::string_view text)
{
    const std::string_view name = takeField(text, '=');
    const auto value = parseFractionArgument(text);
    if (name.empty() || !value)
        return std::nullopt;
    return std::pair{std::string(name), *value};
}

std::optional<double> parsePressureArgument(std::string_view text)
{
    if (text.ends_with('%'))
        text.remove_suffix(1);
    const auto percent = parseFractionArgument(text);
    if (!percent || !(*percent > 0 && *percent <= 100))
        return std::nullopt;
    return percent;
}

std::string formatMetric(const std::string& name, const autoscale::MetricTarget& metric)
{
    return name + ':' + formatFraction(metric.target) + ':' + std::string(wordOf(kDirectionWords, metric.direction)) +
           ':' + std::string(wordOf(kResourceWords, metric.resource));
}

std::string formatRatePolicy(const autoscale::RatePolicy& policy)
{
    const char* kind = policy.kind == autoscale::RateKind::Percent ? "percent" : "absolute";
    return std::string(kind) + ':' + std::to_string(policy.value) + ':' + formatTimespan(policy.period);
}

std::string formatFraction(double fraction)
{
    std::array<char, 32> text{};
    const auto result = std::to_chars(text.data(), text.data() + text.size(), fraction);
    return std::string(text.data(), result.ptr);
}

std::string_view selectName(autoscale::Select select)
{
    switch (select) {
    case autoscale::Select::Max: return "max";
    case autoscale::Select::Min: return "min";
    case autoscale::Select::Disabled: return "disabled";
    }
    return "?";
}

std::string_view modeName(autoscale::Mode mode)
{
    switch (mode) {
    case autoscale::Mode::Auto: return "auto";
    case autoscale::Mode::Recommend: return "recommend";
    }
    return "?";
}

void ScalingRulesArguments::applyTo(autoscale::Rules& rules) const
{
    if (window)
        rules.stabilization = *window;
    if (!policies.empty())
        rules.policies = policies;
    if (select)
        rules.select = *select;
}

namespace {

// `target` with what the options give: the utilization and the bounds.
std::optional<autoscale::Target> mergedTarget(std::optional<autoscale::Target> target,
                                              std::optional<uint32_t> utilization, std::optional<uint64_t> min,
                                              std::optional<uint64_t> max)
{
    if (!target && !utilization)
        return std::nullopt;
    autoscale::Target merged = target.value_or(autoscale::Target{});
    if (utilization)
        merged.utilizationPercent = *utilization;
    if (min)
        merged.min = *min;
    if (max)
        merged.max = *max;
    return merged;
}

// A utilization target: a limit is never used above 100%, so a target above
// it would recommend a limit below the usage at every interval, down to the
// minimum.
std::optional<uint32_t> parseUtilizationTarget(const std::string& name, std::string_view text)
{
    const auto percent = parsePercentArgument(text);
    if (percent && *percent > 100)
        throw CLI::ValidationError(name, "'" + std::string(text) +
                                             "' is above 100%: usage never exceeds its limit, so such a target "
                                             "would shrink the limit at every interval; give 1..100");
    return percent;
}

}  // namespace

std::string invalidityInOptionTerms(std::string_view invalidity)
{
    enum class Unit { Plain, Micros, Millicores, Bytes };
    struct KeyWords {
        std::string_view key;
        std::string_view option;
        Unit unit;
    };
    static constexpr std::array<KeyWords, 18> kOptionByKey{{
        {"CpuTargetUtilization", "--cpu-target", Unit::Plain},
        {"MemoryTargetUtilization", "--memory-target", Unit::Plain},
        {"CpuMinMillis", "--cpu-min", Unit::Millicores},
        {"CpuMaxMillis", "--cpu-max", Unit::Millicores},
        {"MemoryMinBytes", "--memory-min", Unit::Bytes},
        {"MemoryMaxBytes", "--memory-max", Unit::Bytes},
        {"IntervalUSec", "--interval", Unit::Micros},
        {"Tolerance", "--tolerance", Unit::Plain},
        {"ScaleUpPolicies", "--scale-up-policy", Unit::Micros},
        {"ScaleDownPolicies", "--scale-down-policy", Unit::Micros},
        {"ScaleUpSelect", "--scale-up-select", Unit::Plain},
        {"ScaleDownSelect", "--scale-down-select", Unit::Plain},
        {"ScaleUpStabilizationUSec", "--scale-up-window", Unit::Micros},
        {"ScaleDownStabilizationUSec", "--scale-down-window", Unit::Micros},
        {"Metrics", "--metric", Unit::Plain},
        {"MetricMaxAgeUSec", "--metric-max-age", Unit::Micros},
        {"CpuPressureTarget", "--cpu-pressure", Unit::Plain},
        {"MemoryPressureTarget", "--memory-pressure", Unit::Plain},
    }};
    std::string out;
    Unit unit = Unit::Plain;
    for (size_t pos = 0; pos < invalidity.size();) {
        const size_t end = std::min(invalidity.find(' ', pos), invalidity.size());
        const std::string_view word = invalidity.substr(pos, end - pos);
        std::string said(word);
        const auto key = std::find_if(kOptionByKey.begin(), kOptionByKey.end(),
                                      [word](const KeyWords& known) { return known.key == word; });
        if (key != kOptionByKey.end()) {
            said = key->option;
            unit = key->unit;
        } else if (const auto number = parseUnsignedArgument(word)) {
            switch (unit) {
            case Unit::Micros: said = formatTimespan(std::chrono::microseconds(*number)); break;
            case Unit::Millicores: said = core::formatCpuMillis(*number); break;
            case Unit::Bytes: said = formatMemory(*number); break;
            case Unit::Plain: break;
            }
        }
        out += said;
        if (end < invalidity.size())
            out += ' ';
        pos = end + 1;
    }
    return out;
}

autoscale::Policy AutoscaleArguments::policy(const autoscale::Policy& base) const
{
    autoscale::Policy policy = base;
    policy.cpu = mergedTarget(base.cpu, cpuTarget, cpuMin, cpuMax);
    policy.memory = mergedTarget(base.memory, memoryTarget, memoryMin, memoryMax);
    if (interval)
        policy.interval = *interval;
    if (tolerance)
        policy.tolerance = *tolerance;
    scaleUp.applyTo(policy.scaleUp);
    scaleDown.applyTo(policy.scaleDown);
    if (mode)
        policy.mode = *mode;
    if (!metrics.empty())
        policy.metrics = metrics;
    if (metricMaxAge)
        policy.metricMaxAge = *metricMaxAge;
    if (cpuPressure)
        policy.cpuPressureTarget = *cpuPressure;
    if (memoryPressure)
        policy.memoryPressureTarget = *memoryPressure;
    // A resource scaled by metrics alone has a target all the same, of no
    // utilization, to hold its bounds (as the daemon decodes such a policy).
    for (auto [resource, target] : {std::pair{autoscale::MetricResource::Cpu, &policy.cpu},
                                    std::pair{autoscale::MetricResource::Memory, &policy.memory}})
        if (!*target && autoscale::scaledByMetrics(policy, resource))
            *target = mergedTarget(autoscale::Target{}, std::nullopt, resource == autoscale::MetricResource::Cpu ? cpuMin : memoryMin,
                                   resource == autoscale::MetricResource::Cpu ? cpuMax : memoryMax);
    return policy;
}

bool AutoscaleArguments::givesTarget() const
{
    return cpuTarget || memoryTarget || !metrics.empty() || cpuPressure || memoryPressure;
}

std::optional<std::string> AutoscaleArguments::boundWithoutTarget(const autoscale::Policy& base) const
{
    const autoscale::Policy given = policy(base);
    if (!base.cpu && !cpuTarget && !autoscale::scaledByMetrics(given, autoscale::MetricResource::Cpu) && (cpuMin || cpuMax))
        return std::string(cpuMin ? "--cpu-min" : "--cpu-max") + " needs a CPU target: give --cpu-target";
    if (!base.memory && !memoryTarget && !autoscale::scaledByMetrics(given, autoscale::MetricResource::Memory) &&
        (memoryMin || memoryMax))
        return std::string(memoryMin ? "--memory-min" : "--memory-max") +
               " needs a memory target: give --memory-target";
    return std::nullopt;
}

void addAutoscaleOptions(CLI::App& command, AutoscaleArguments& arguments)
{
    auto* targets = command.add_option_group(
        "Targets", "What to scale: at least one target, given or in force; the bounds need the target they bound");
    addParsedOption(
        *targets, "--cpu-target", arguments.cpuTarget,
        [](std::string_view text) { return parseUtilizationTarget("--cpu-target", text); }, "a percentage",
        "Scale the CPU limit so that usage is this percent of it: 70 or 70%, at most 100")
        ->type_name("PERCENT");
    addParsedOption(*targets, "--cpu-min", arguments.cpuMin, core::parseCpuMillis, "a CPU quantity",
                    "Lowest CPU limit to set, in CPUs: 0.5, or millicores: 500m (default 0)")
        ->type_name("CPUS");
    addParsedOption(*targets, "--cpu-max", arguments.cpuMax, core::parseCpuMillis, "a CPU quantity",
                    "Highest CPU limit to set: 4, 4000m; 'max' for no bound (the default)")
        ->type_name("CPUS");
    addParsedOption(
        *targets, "--memory-target", arguments.memoryTarget,
        [](std::string_view text) { return parseUtilizationTarget("--memory-target", text); }, "a percentage",
        "Scale the memory limit (MemoryMax) so that the working set is this percent of it: 80 or 80%, at most 100")
        ->type_name("PERCENT");
    addParsedOption(*targets, "--memory-min", arguments.memoryMin, parseMemoryArgument, "a memory quantity",
                    "Lowest memory limit to set: 256m, 512Mi, 1g (default 0)")
        ->type_name("BYTES");
    addParsedOption(*targets, "--memory-max", arguments.memoryMax, parseMemoryArgument, "a memory quantity",
                    "Highest memory limit to set: 4g, 4Gi; 'max' for no bound (the default)")
        ->type_name("BYTES");

    const autoscale::Policy defaults;
    auto* metrics = command.add_option_group(
        "Metrics", "What else to scale on: values the application reports (resizectl report), and pressure stalls");
    metrics
        ->add_option_function<std::vector<std::string>>(
            "--metric",
            [&arguments](const std::vector<std::string>& texts) {
                for (const auto& text : texts) {
                    auto metric = parseMetricArgument(text);
                    if (!metric)
                        throw CLI::ValidationError(
                            "--metric", "'" + text +
                                            "' is not NAME:TARGET[:lower|higher][:cpu|memory] with a name and a "
                                            "target above 0");
                    arguments.metrics.insert_or_assign(std::move(metric->first), metric->second);
                }
            },
            "Scale the resource so that the application's metric NAME, as reported, is at TARGET: lower (the "
            "default) when less is better, as a latency, higher when more is, as frames per second; the CPU "
            "limit (the default) or the memory limit; repeat for several")
        ->type_name("NAME:TARGET[:lower|higher][:cpu|memory]")
        ->allow_extra_args(false);
    addParsedOption(*metrics, "--metric-max-age", arguments.metricMaxAge, parseTimespan, "a time span",
                    "A reported value older than this is missing, and the limit is not lowered (default " +
                        formatTimespan(defaults.metricMaxAge) + ")")
        ->type_name("TIME");
    addParsedOption(*metrics, "--cpu-pressure", arguments.cpuPressure, parsePressureArgument,
                    "a percent above 0 and at most 100",
                    "Scale the CPU limit so that some task waits for CPU at most this percent of the time (PSI); "
                    "cgroup v2 only")
        ->type_name("PERCENT");
    addParsedOption(*metrics, "--memory-pressure", arguments.memoryPressure, parsePressureArgument,
                    "a percent above 0 and at most 100",
                    "Scale the memory limit so that some task waits for memory at most this percent of the time "
                    "(PSI); cgroup v2 only")
        ->type_name("PERCENT");

    auto* behaviour = command.add_option_group(
        "Behaviour", "How fast and how far to scale, as a HorizontalPodAutoscaler's behavior");
    addParsedOption(*behaviour, "--interval", arguments.interval, parseTimespan, "a time span",
                    "How often to sample usage: 1s, 500ms, 5min (default " + formatTimespan(defaults.interval) +
                        ")")
        ->type_name("TIME");
    addParsedOption(*behaviour, "--tolerance", arguments.tolerance, parseFractionArgument, "a fraction",
                    "Leave the limit alone while utilization is within this fraction of the target (default " +
                        formatFraction(defaults.tolerance) + ")")
        ->type_name("FRACTION");
    addScalingRulesOptions(*behaviour, "up", arguments.scaleUp, defaults.scaleUp);
    addScalingRulesOptions(*behaviour, "down", arguments.scaleDown, defaults.scaleDown);
    addParsedOption(*behaviour, "--mode", arguments.mode, parseModeArgument, "auto or recommend",
                    "auto: change the limits; recommend: compute and publish recommendations, change nothing "
                    "(default " + std::string(modeName(defaults.mode)) + ")")
        ->type_name("auto|recommend");
    command.add_flag("--reset", arguments.reset,
                     "Replace the policy in force with this one, defaults where the options are silent, instead "
                     "of changing only what they give");
}

}  // namespace resized::ctl
