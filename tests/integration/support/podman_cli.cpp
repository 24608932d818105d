#include "support/podman_cli.h"

#include "support/wait.h"

#include <curl/curl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>
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

struct ApiAnswer
{
    // 0 when the service did not answer; then error says why.
    long status = 0;
    std::string body;
    std::string error;
};

std::size_t appendTo(char* data, std::size_t size, std::size_t count, void* body)
{
    static_cast<std::string*>(body)->append(data, size * count);
    return size * count;
}

// METHOD /libpod/RESOURCE/NAME SUFFIX to the API service on socket; name
// as it is (escaped here).
ApiAnswer callApi(const std::filesystem::path& socket, const char* method,
                  const std::string& resource, const std::string& name,
                  const std::string& suffix = "")
{
    ApiAnswer answer;
    const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                                   &curl_easy_cleanup);
    if (!curl)
    {
        answer.error = "curl_easy_init failed";
        return answer;
    }
    const std::unique_ptr<char, decltype(&curl_free)> escaped(
        curl_easy_escape(curl.get(), name.c_str(), static_cast<int>(name.size())), &curl_free);
    const std::string url = "http://d/v4.0.0/libpod/" + resource + "/" + escaped.get() + suffix;
    curl_easy_setopt(curl.get(), CURLOPT_UNIX_SOCKET_PATH, socket.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_CUSTOMREQUEST, method);
    // Only keeps a hung service from hanging the test.
    curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, &appendTo);
    curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &answer.body);
    const CURLcode code = curl_easy_perform(curl.get());
    if (code != CURLE_OK)
    {
        answer.error = url + ": " + curl_easy_strerror(code);
        return answer;
    }
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &answer.status);
    return answer;
}

} // namespace

PodmanCli::PodmanCli(const TestEnvironment& environment) :
    image_(environment.image), socket_(environment.podmanSocket)
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
    const ApiAnswer answer = callApi(socket_, "GET", "containers", name, "/json");
    if (answer.status != 200)
    {
        throw std::runtime_error("inspecting container " + name + " failed: " + answer.error +
                                 answer.body);
    }
    return nlohmann::json::parse(answer.body).at("State").at("CgroupPath").get<std::string>();
}

std::string PodmanCli::logs(const std::string& name) const
{
    const ApiAnswer answer =
        callApi(socket_, "GET", "containers", name, "/logs?stdout=true&stderr=false");
    if (answer.status != 200)
    {
        throw std::runtime_error("the logs of container " + name + ": " + answer.error +
                                 answer.body);
    }
    // A container without a terminal: frames of an 8-byte header (stream,
    // three zero bytes, the payload's length big-endian) and the payload.
    std::string output;
    for (std::size_t at = 0; at + 8 <= answer.body.size();)
    {
        std::size_t length = 0;
        for (std::size_t byte = 4; byte < 8; ++byte)
        {
            length = length << 8 | static_cast<unsigned char>(answer.body[at + byte]);
        }
        output.append(answer.body, at + 8, length);
        at += 8 + length;
    }
    return output;
}

bool PodmanCli::removeIgnoringMissing(const std::vector<std::string>& names,
                                      std::string& error) const
{
    bool removed = true;
    for (const auto& name : names)
    {
        const ApiAnswer answer =
            callApi(socket_, "DELETE", "containers", name, "?force=true&ignore=true&timeout=0");
        if (answer.status == 0)
        {
            // The service does not answer: the command needs none.
            std::vector<std::string> command{"rm", "--force", "--ignore", "--time", "0"};
            command.insert(command.end(), names.begin(), names.end());
            const CommandResult result = run(command);
            error = answer.error + "; " + result.standardError;
            return result.succeeded();
        }
        if (answer.status != 200)
        {
            error = answer.body;
            removed = false;
        }
    }
    return removed;
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
    std::vector<std::string> names{name_};
    if (!id_.empty())
    {
        names.push_back(id_);
    }
    std::string lastError;
    // podman rm fails now and then while another podman holds the
    // container's lock; it succeeds only once everything named is gone.
    const auto removed = [&] {
        try
        {
            return podman_.removeIgnoringMissing(names, lastError);
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
