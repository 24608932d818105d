#include "podman_without_events.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "support/command.h"
#include "support/wait.h"

namespace resized::test {

namespace {

// with-testenv.sh's containers.conf, with events_logger="none".
std::string configurationWithoutEvents()
{
    const char* path = std::getenv("CONTAINERS_CONF");
    if (!path)
        throw std::runtime_error("CONTAINERS_CONF is not set");
    std::ifstream in(path);
    std::string changed;
    bool replaced = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("events_logger")) {
            line = R"(events_logger = "none")";
            replaced = true;
        }
        changed += line + "\n";
    }
    if (!replaced)
        throw std::runtime_error(std::string(path) + " sets no events_logger");
    return changed;
}

}  // namespace

PodmanWithoutEvents::PodmanWithoutEvents()
{
    const auto configuration = directory_.path() / "containers.conf";
    std::ofstream(configuration) << configurationWithoutEvents();
    service_.emplace(std::vector<std::string>{"podman", "system", "service", "--time=0",
                                              "unix://" + socketPath()},
                     directory_.path() / "podman.log",
                     std::vector<std::string>{"CONTAINERS_CONF=" + configuration.string()});
    const bool answers = integration::waitUntil(
        [&] {
            return !service_->running()
                   || integration::runCommand({"curl", "--silent", "--fail", "--unix-socket",
                                               socketPath(), "http://d/_ping"})
                          .succeeded();
        },
        std::chrono::seconds(30));
    if (!answers || !service_->running())
        throw std::runtime_error("the Podman service without events did not come up");
}

}  // namespace resized::test
