// Replies of GET /libpod/containers/json?all=true and /libpod/pods/json:
// refused only with MalformedReply; every accepted container entry has a PID
// only when running, and is paused only when running.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "runtime/podman_json.h"

using namespace resized;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        for (const auto& entry : runtime::parseList(body)) {
            FUZZ_CHECK(entry.pid >= 0);
            FUZZ_CHECK(entry.running || entry.pid == 0);
            FUZZ_CHECK(entry.running || !entry.paused);
        }
    } catch (const runtime::MalformedReply&) {
    }

    try {
        runtime::parsePodIds(body);
    } catch (const runtime::MalformedReply&) {
    }
    return 0;
}
