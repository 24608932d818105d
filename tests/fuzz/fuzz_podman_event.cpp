// Lines of GET /libpod/events?stream=true: a line is an event or is refused
// with MalformedReply, nothing else, however it is cut or garbled.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "runtime/podman_json.h"

using namespace resized;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    try {
        const runtime::ContainerEvent event = runtime::parseEvent(line);
        // The same line read twice is the same event: parsing keeps no state.
        FUZZ_CHECK(runtime::parseEvent(line) == event);
    } catch (const runtime::MalformedReply&) {
    }
    return 0;
}
