// parseCpuMillis/formatCpuMillis: any text either is refused or parses to a
// value that formats back to text parsing to the same value; any value
// formats to text that parses back to it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/quantity.h"
#include "fuzz_check.h"

using resized::core::formatCpuMillis;
using resized::core::parseCpuMillis;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto millis = parseCpuMillis(text))
        FUZZ_CHECK(parseCpuMillis(formatCpuMillis(*millis)) == millis);

    if (size >= sizeof(uint64_t)) {
        uint64_t value = 0;
        std::memcpy(&value, data, sizeof value);
        FUZZ_CHECK(parseCpuMillis(formatCpuMillis(value)) == value);
    }
    return 0;
}
