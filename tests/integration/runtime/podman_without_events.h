#pragma once

#include <optional>
#include <string>

#include "scratch_directory.h"
#include "support/child_process.h"

namespace resized::test {

// A second Podman API service over the test environment's containers (run
// inside with-testenv.sh) whose events_logger is "none", as some hosts
// configure it: its event stream answers 200, then an error object, then
// ends. Killed when this goes.
class PodmanWithoutEvents {
public:
    PodmanWithoutEvents();

    std::string socketPath() const { return (directory_.path() / "podman.sock").string(); }

private:
    ScratchDirectory directory_;
    std::optional<integration::ChildProcess> service_;
};

}  // namespace resized::test
