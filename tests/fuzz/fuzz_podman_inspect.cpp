// Replies of GET /libpod/containers/{name}/json and /libpod/pods/{name}/json
// (each parser sees every body, as any reply may be anything, and so does the
// error parser): refused only with MalformedReply, and what is accepted is a
// container or pod resized can use as it is.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/cpuset.h"
#include "core/resources.h"
#include "fuzz_check.h"
#include "runtime/podman_json.h"

using namespace resized;

namespace {

// Limits read from HostConfig are as admission and the bus expect them: a
// present limit is a real one, and a cpuset names at least one CPU.
void checkCreateLimits(const core::Resources& limits)
{
    FUZZ_CHECK(!limits.cpuMillis || *limits.cpuMillis > 0);
    FUZZ_CHECK(!limits.memoryMax || *limits.memoryMax > 0);
    FUZZ_CHECK(!limits.memoryHigh || *limits.memoryHigh > 0);
    FUZZ_CHECK(!limits.cpuWeight ||
               (*limits.cpuWeight >= core::kMinCpuWeight && *limits.cpuWeight <= core::kMaxCpuWeight));
    FUZZ_CHECK(!limits.allowedCpus || !limits.allowedCpus->empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        const runtime::Container container = runtime::parseInspect(body);
        FUZZ_CHECK(container.pid >= 0);
        FUZZ_CHECK(container.running || container.pid == 0);
        FUZZ_CHECK(container.running || !container.paused);
        checkCreateLimits(container.createLimits);
    } catch (const runtime::MalformedReply&) {
    }

    try {
        const runtime::Pod pod = runtime::parsePod(body);
        checkCreateLimits(pod.createLimits);
        // Parsing keeps no state: the same body is the same pod.
        FUZZ_CHECK(runtime::parsePod(body) == pod);
    } catch (const runtime::MalformedReply&) {
    }

    // Documented never to throw: an exception escaping here is a crash.
    runtime::parseApiError(body);
    return 0;
}
