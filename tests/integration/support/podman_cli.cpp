#include "support/podman_cli.h"

#include "support/wait.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace resized::integration
{

namespace
{

std::string withoutTrailingNewline(std::string text)
{
    while (!text.empty() && text.back() == '\n')
    {
        text.pop_back();
    }
    return text;
}

std::string describe(const std::vector<std::string>& arguments)
{
    std::string text = "podman";
    for (const auto& argument : arguments)
    {
        text += " " + argument;
    }
    return text;
}

} // namespace

PodmanCli::PodmanCli(const TestEnvironment& environment) :
    image_(environment.image)
{}

CommandResult PodmanCli::run(const std::vector<std::string>& arguments) const
{
    std::vector<std::string> argv{"podman"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return runCommand(argv);
}

std::string PodmanCli::runContainer(const std::string& name,
                                    const std::vector<std::string>& extraArguments,
                                    const std::vector<std::string>& command) const
{
    std::vector<std::string> arguments{"run", "--detach", "--name", name};
    arguments.insert(arguments.end(), extraArguments.begin(), extraArguments.end());
    arguments.push_back(image_);
    arguments.insert(arguments.end(), command.begin(), command.end());
    const CommandResult result = run(arguments);
    if (!result.succeeded())
    {
        throw std::runtime_error(describe(arguments) + " failed: " +
                                 result.standardError);
    }
    // With --replace, Podman names the replaced container on a line of its
    // own before the new ID.
    const std::string output = withoutTrailingNewline(result.standardOutput);
    return output.substr(output.find_last_of('\n') + 1);
}

bool PodmanCli::remove(const std::string& name) const
{
    return run({"rm", "--force", "--time", "0", name}).succeeded();
}

std::string PodmanCli::inspect(const std::string& name,
                               const std::string& format) const
{
    const std::vector<std::string> arguments{"inspect", "--format", format, name};
    const CommandResult result = run(arguments);
    if (!result.succeeded())
    {
        throw std::runtime_error(describe(arguments) + " failed: " +
                                 result.standardError);
    }
    return withoutTrailingNewline(result.standardOutput);
}

std::filesystem::path PodmanCli::cgroupPath(const std::string& name) const
{
    return inspect(name, "{{.State.CgroupPath}}");
}

std::vector<std::string> PodmanCli::idleCommand()
{
    return {"sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"};
}

std::vector<std::string> PodmanCli::memoryHolderCommand(std::uint64_t mebibytes)
{
    return {"sh", "-c",
            "dd if=/dev/zero of=/dev/shm/held bs=1M count=" +
                std::to_string(mebibytes) +
                " 2>/dev/null; trap 'exit 0' TERM; while :; do sleep 1; done"};
}

std::string PodmanCli::shmSizeArgument(std::uint64_t mebibytes)
{
    // Headroom for the tmpfs's own bookkeeping.
    return "--shm-size=" + std::to_string(mebibytes + 16) + "m";
}

ScopedContainer::ScopedContainer(const PodmanCli& podman, std::string name,
                                 const std::vector<std::string>& extraArguments,
                                 const std::vector<std::string>& command) :
    podman_(podman), name_(std::move(name))
{
    try
    {
        id_ = podman_.runContainer(name_, extraArguments, command);
    }
    catch (...)
    {
        // A failed `podman run` may still have created the container.
        removeOrReport();
        throw;
    }
}

ScopedContainer::~ScopedContainer()
{
    removeOrReport();
}

void ScopedContainer::removeOrReport() const
{
    std::vector<std::string> command{"rm", "--force", "--ignore", "--time", "0", name_};
    if (!id_.empty())
    {
        command.push_back(id_);
    }
    std::string lastError;
    // podman rm fails now and then while another podman holds the
    // container's lock; it succeeds only once everything named is gone.
    const auto removed = [&] {
        try
        {
            const CommandResult result = podman_.run(command);
            lastError = result.standardError;
            return result.succeeded();
        }
        catch (const std::exception& error)
        {
            lastError = error.what();
            return false;
        }
    };
    if (!waitUntil(removed, std::chrono::seconds(30), std::chrono::milliseconds(500)))
    {
        ADD_FAILURE() << "container " << name_ << " (" << id_
                      << ") is left behind: " << lastError;
    }
}

ScopedContainer ScopedContainer::holdingMemory(const PodmanCli& podman,
                                               std::string name,
                                               std::uint64_t mebibytes,
                                               std::vector<std::string> extraArguments)
{
    extraArguments.push_back(PodmanCli::shmSizeArgument(mebibytes));
    return ScopedContainer(podman, std::move(name), extraArguments,
                           PodmanCli::memoryHolderCommand(mebibytes));
}

std::filesystem::path ScopedContainer::cgroupPath() const
{
    return podman_.cgroupPath(name_);
}

} // namespace resized::integration
