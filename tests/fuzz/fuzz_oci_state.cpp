// The OCI state a runtime writes on resized-oci-hook's standard input: a
// state is read or refused with InvalidState, nothing else.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "oci_state.h"

using namespace resized;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    try {
        const hook::OciState state = hook::parseOciState(json);
        FUZZ_CHECK(!state.id.empty());
        FUZZ_CHECK(state.pid > 0);
    } catch (const hook::InvalidState&) {
    }
    return 0;
}
