#include "support/podman_service.h"

#include "support/command.h"
#include "support/wait.h"

#include <csignal>
#include <stdexcept>

namespace resized::integration
{

namespace
{

constexpr auto startTimeout = std::chrono::seconds(30);

} // namespace

PodmanService::PodmanService(std::filesystem::path socket,
                             std::filesystem::path logFile) :
    socket_(std::move(socket)), logFile_(std::move(logFile))
{
    start();
}

PodmanService::~PodmanService()
{
    process_.reset();
    std::error_code ignored;
    std::filesystem::remove(socket_, ignored);
}

void PodmanService::kill()
{
    if (process_)
    {
        process_->signalAndWait(SIGKILL);
        process_.reset();
    }
}

void PodmanService::freeze()
{
    if (process_)
    {
        ::kill(process_->pid(), SIGSTOP);
    }
}

void PodmanService::thaw()
{
    if (process_)
    {
        ::kill(process_->pid(), SIGCONT);
    }
}

void PodmanService::start()
{
    kill();
    // A killed service leaves its socket file behind.
    std::filesystem::remove(socket_);
    process_.emplace(std::vector<std::string>{"podman", "system", "service", "--time=0",
                                              "unix://" + socket_.string()},
                     logFile_);
    const bool ready = waitUntil(
        [&] { return !process_->running() || answers(); }, startTimeout);
    if (!ready || !process_->running())
    {
        throw std::runtime_error("the Podman API service on " + socket_.string() +
                                 " did not come up; see " + logFile_.string());
    }
}

bool PodmanService::answers() const
{
    return runCommand({"curl", "--silent", "--fail", "--unix-socket", socket_.string(),
                       "http://d/_ping"})
        .succeeded();
}

} // namespace resized::integration
