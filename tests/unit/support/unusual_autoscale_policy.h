#pragma once

#include "core/autoscale.h"

namespace resized::test {

// A policy with every field away from its default, so that a field a codec
// leaves out shows in a round trip.
inline core::autoscale::Policy unusualAutoscalePolicy()
{
    namespace autoscale = core::autoscale;
    autoscale::Policy policy;
    policy.cpu = autoscale::Target{.utilizationPercent = 70, .min = 250, .max = 4000};
    policy.memory = autoscale::Target{.utilizationPercent = 85, .min = 64ull << 20, .max = autoscale::kUnbounded};
    policy.interval = autoscale::Micros(250'000);
    policy.tolerance = 0.05;
    policy.scaleUp = {autoscale::Micros(30'000'000),
                      {{autoscale::RateKind::Absolute, 500, autoscale::Micros(10'000'000)},
                       {autoscale::RateKind::Percent, 50, autoscale::Micros(60'000'000)}},
                      autoscale::Select::Min};
    policy.scaleDown = {autoscale::Micros(0), {}, autoscale::Select::Disabled};
    policy.mode = autoscale::Mode::Recommend;
    policy.metrics = {{"fps", {60, autoscale::Direction::HigherIsBetter, autoscale::MetricResource::Cpu}},
                      {"rss_mib", {512.5, autoscale::Direction::LowerIsBetter, autoscale::MetricResource::Memory}}};
    policy.metricMaxAge = autoscale::Micros(2'500'000);
    policy.cpuPressureTarget = 12.5;
    policy.memoryPressureTarget = 40;
    return policy;
}

}  // namespace resized::test
