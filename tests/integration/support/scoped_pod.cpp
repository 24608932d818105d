#include "support/scoped_pod.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace resized::integration
{

ScopedPod::ScopedPod(const PodmanCli& podman, std::string name, Infra infra) :
    podman_(podman), name_(std::move(name))
{
    const CommandResult result = podman_.run(
        {"pod", "create", infra == Infra::with ? "--infra=true" : "--infra=false",
         "--name", name_});
    if (!result.succeeded())
    {
        throw std::runtime_error("podman pod create " + name_ +
                                 " failed: " + result.standardError);
    }
}

std::filesystem::path ScopedPod::cgroupPath() const
{
    const CommandResult result =
        podman_.run({"pod", "inspect", "--format", "{{.CgroupPath}}", name_});
    std::string path = result.standardOutput;
    path.erase(path.find_last_not_of('\n') + 1);
    return path;
}

ScopedPod::~ScopedPod()
{
    const CommandResult removed = podman_.run({"pod", "rm", "--force", "--time", "0", name_});
    if (!removed.succeeded())
    {
        ADD_FAILURE() << "pod " << name_ << " is left behind: " << removed.standardError;
    }
}

} // namespace resized::integration
