// parseBytes/formatBytes: any text either is refused or parses to a value
// that formats back to text parsing to the same value; any value formats to
// text that parses back to it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/quantity.h"
#include "fuzz_check.h"

using resized::core::formatBytes;
using resized::core::parseBytes;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto bytes = parseBytes(text))
        FUZZ_CHECK(parseBytes(formatBytes(*bytes)) == bytes);

    if (size >= sizeof(uint64_t)) {
        uint64_t value = 0;
        std::memcpy(&value, data, sizeof value);
        FUZZ_CHECK(parseBytes(formatBytes(value)) == value);
    }
    return 0;
}
