#include "scoped_pod.h"

#include <stdexcept>

namespace resized::integration::events
{

ScopedPod::ScopedPod(const PodmanCli& podman, std::string name) :
    podman_(podman), name_(std::move(name))
{
    const CommandResult result =
        podman_.run({"pod", "create", "--infra=false", "--name", name_});
    if (!result.succeeded())
    {
        throw std::runtime_error("podman pod create " + name_ +
                                 " failed: " + result.standardError);
    }
}

ScopedPod::~ScopedPod()
{
    podman_.run({"pod", "rm", "--force", "--time", "0", name_});
}

} // namespace resized::integration::events
