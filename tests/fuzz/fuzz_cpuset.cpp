// parseCpuSet/formatCpuSet: a parsed set stays within kMaxCpuIndex and
// survives formatting and parsing again; the canonical form is a fixed point.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/cpuset.h"
#include "fuzz_check.h"

using namespace resized::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto cpus = parseCpuSet(text);
    if (!cpus)
        return 0;
    FUZZ_CHECK(cpus->empty() || *cpus->rbegin() <= kMaxCpuIndex);

    const std::string canonical = formatCpuSet(*cpus);
    const auto reparsed = parseCpuSet(canonical);
    FUZZ_CHECK(reparsed == cpus);
    FUZZ_CHECK(formatCpuSet(*reparsed) == canonical);
    FUZZ_CHECK(isSubset(*cpus, *reparsed) && isSubset(*reparsed, *cpus));
    return 0;
}
