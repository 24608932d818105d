#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/autoscale.h"

namespace resized::ctl {

// The words of `autoscale set`. Each parser answers nullopt for text it does
// not understand; what the daemon refuses (a target of 0, min above max)
// comes back from core::autoscale::invalidity() before any call.

// A utilization target: "70" or "70%".
std::optional<uint32_t> parsePercentArgument(std::string_view text);
// The tolerance: a decimal fraction such as "0.1".
std::optional<double> parseFractionArgument(std::string_view text);
// KIND:VALUE:PERIOD, as HPA's HPAScalingPolicy: "percent:100:15s" (VALUE in
// percent, optionally with "%") or "absolute:500:1min" (VALUE a plain
// integer in the resource's unit: millicores for CPU, bytes for memory).
std::optional<core::autoscale::RatePolicy> parseRatePolicyArgument(std::string_view text);
// max, min or disabled.
std::optional<core::autoscale::Select> parseSelectArgument(std::string_view text);
// auto or recommend.
std::optional<core::autoscale::Mode> parseModeArgument(std::string_view text);
// NAME:TARGET[:lower|higher][:cpu|memory], as `Metrics` names one: "fps:60:higher",
// "latency_ms:100" (LowerIsBetter and cpu when left out). TARGET above 0.
using NamedMetric = std::pair<std::string, core::autoscale::MetricTarget>;
std::optional<NamedMetric> parseMetricArgument(std::string_view text);
// NAME=VALUE, a value `resizectl report` gives: "fps=58.5".
std::optional<std::pair<std::string, double>> parseReportedValue(std::string_view text);
// A pressure target: a percent above 0 and at most 100, "10" or "2.5%".
std::optional<double> parsePressureArgument(std::string_view text);

// The same words back, for `autoscale status` and the help: "percent:100:15s",
// "max", "auto".
std::string formatRatePolicy(const core::autoscale::RatePolicy& policy);
std::string formatFraction(double fraction);  // the shortest text that reads back the same: "0.1"
std::string_view selectName(core::autoscale::Select select);
std::string_view modeName(core::autoscale::Mode mode);
// "fps:60:higher:cpu", the words of --metric, every field given.
std::string formatMetric(const std::string& name, const core::autoscale::MetricTarget& metric);

// One direction's behaviour as given; what is not given keeps the default.
struct ScalingRulesArguments {
    std::optional<core::autoscale::Micros> window;
    // Given at all, they replace the default policies rather than join them.
    std::vector<core::autoscale::RatePolicy> policies;
    std::optional<core::autoscale::Select> select;

    void applyTo(core::autoscale::Rules& rules) const;
};

// What `autoscale set` reads from its options; policy() is the
// core::autoscale::Policy they describe over `base` (the policy in force,
// or the defaults): what they are silent about stays as `base` has it.
struct AutoscaleArguments {
    std::optional<uint32_t> cpuTarget;
    std::optional<uint64_t> cpuMin;
    std::optional<uint64_t> cpuMax;
    std::optional<uint32_t> memoryTarget;
    std::optional<uint64_t> memoryMin;
    std::optional<uint64_t> memoryMax;
    std::optional<core::autoscale::Micros> interval;
    std::optional<double> tolerance;
    ScalingRulesArguments scaleUp;
    ScalingRulesArguments scaleDown;
    std::optional<core::autoscale::Mode> mode;
    // Given at all, they replace the metrics in force rather than join them,
    // as the rate policies do.
    std::map<std::string, core::autoscale::MetricTarget> metrics;
    std::optional<core::autoscale::Micros> metricMaxAge;
    std::optional<double> cpuPressure;
    std::optional<double> memoryPressure;
    // Replace the policy in force instead of changing it.
    bool reset = false;

    core::autoscale::Policy policy(const core::autoscale::Policy& base = {}) const;
    // Whether the options give a target of their own: a utilization, a
    // metric or a pressure target.
    bool givesTarget() const;
    // A bound given for a resource with no target, in `base` or given:
    // "--cpu-min needs a CPU target: give --cpu-target"; nullopt when none.
    std::optional<std::string> boundWithoutTarget(const core::autoscale::Policy& base = {}) const;
};

// core::autoscale::invalidity()'s message in the words of `autoscale set`:
// each D-Bus key as its option, each number in that option's unit
// ("IntervalUSec 1000 is below 10000" → "--interval 1ms is below 10ms").
std::string invalidityInOptionTerms(std::string_view invalidity);

// The options of `autoscale set`, each parsed as it is read: unreadable text,
// or a target above 100%, is a usage error.
void addAutoscaleOptions(CLI::App& command, AutoscaleArguments& arguments);

}  // namespace resized::ctl
