#include "runtime/podman_client.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "runtime/curl_handles.h"
#include "runtime/podman_json.h"

namespace resized::runtime {

namespace {

constexpr long kConnectTimeoutMs = 2'000;
constexpr long kRequestTimeoutMs = 10'000;

// Podman accepts only names of this form ([a-zA-Z0-9][a-zA-Z0-9_.-]*) and
// IDs are hex, so anything else cannot name a container. Refusing it here,
// before the request exists, also keeps "", "..", "a/b" and the like from
// ever changing which endpoint is asked.
bool couldNameContainer(std::string_view nameOrId)
{
    auto isAlnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    if (nameOrId.empty() || !isAlnum(nameOrId.front()))
        return false;
    return std::all_of(nameOrId.begin(), nameOrId.end(),
                       [&](char c) { return isAlnum(c) || c == '_' || c == '.' || c == '-'; });
}

size_t appendToString(char* data, size_t size, size_t count, void* target)
{
    static_cast<std::string*>(target)->append(data, size * count);
    return size * count;
}

struct Response {
    long status = 0;
    std::string body;
};

[[noreturn]] void throwUnexpected(std::string_view request, const Response& response)
{
    throw RuntimeUnavailable("GET " + std::string(request) + ": Podman answered "
                             + std::to_string(response.status) + ": "
                             + parseApiError(response.body).message);
}

// A reply Podman should never send means the service is not one this client
// can work with; callers see that as the runtime being unavailable.
template <typename Parse>
auto parseReply(std::string_view request, Parse&& parse)
{
    try {
        return parse();
    } catch (const MalformedReply& e) {
        throw RuntimeUnavailable("GET " + std::string(request) + ": " + e.what());
    }
}

}  // namespace

struct PodmanClient::Impl {
    explicit Impl(const std::string& socketPath)
        : handle(makeUnixSocketHandle(socketPath, kConnectTimeoutMs)),
          socketPath(socketPath)
    {
        curl_easy_setopt(handle.get(), CURLOPT_TIMEOUT_MS, kRequestTimeoutMs);
        curl_easy_setopt(handle.get(), CURLOPT_WRITEFUNCTION, &appendToString);
        curl_easy_setopt(handle.get(), CURLOPT_WRITEDATA, &body);
        curl_easy_setopt(handle.get(), CURLOPT_ERRORBUFFER, errorBuffer);
    }

    // The handle is reused, so its connection to the socket stays open
    // between calls. Throws RuntimeUnavailable for a transport failure or a
    // server error.
    Response get(const std::string& url)
    {
        body.clear();
        errorBuffer[0] = '\0';
        curl_easy_setopt(handle.get(), CURLOPT_URL, url.c_str());
        if (CURLcode code = curl_easy_perform(handle.get()); code != CURLE_OK)
            throwCurlError("Podman at " + socketPath + ": GET " + url, code, errorBuffer);
        Response response;
        curl_easy_getinfo(handle.get(), CURLINFO_RESPONSE_CODE, &response.status);
        response.body = std::move(body);
        if (response.status >= 500)
            throwUnexpected(url, response);
        return response;
    }

    std::optional<Container> inspectContainer(std::string_view nameOrId)
    {
        auto url = libpodUrl("/containers/" + escapeSegment(handle.get(), nameOrId) + "/json");
        auto response = get(url);
        if (response.status == 404) {
            auto error = parseApiError(response.body);
            if (isAmbiguousId(error))
                throw AmbiguousContainer(error.message);
            return std::nullopt;
        }
        if (response.status != 200)
            throwUnexpected(url, response);
        return parseReply(url, [&] { return parseInspect(response.body); });
    }

    // Empty when the pod went away since the container was inspected.
    std::string podName(std::string_view podId)
    {
        auto url = libpodUrl("/pods/" + escapeSegment(handle.get(), podId) + "/json");
        auto response = get(url);
        if (response.status == 404)
            return {};
        if (response.status != 200)
            throwUnexpected(url, response);
        return parseReply(url, [&] { return parsePodName(response.body); });
    }

    CurlEasy handle;
    std::string socketPath;
    std::string body;
    char errorBuffer[CURL_ERROR_SIZE] = {};
};

PodmanClient::PodmanClient(std::string socketPath)
    : socketPath_(std::move(socketPath)), impl_(std::make_unique<Impl>(socketPath_))
{
}

PodmanClient::~PodmanClient() = default;

bool PodmanClient::ping()
{
    try {
        return impl_->get("http://d/_ping").status == 200;
    } catch (const RuntimeUnavailable&) {
        return false;
    }
}

std::optional<Container> PodmanClient::inspect(const std::string& nameOrId)
{
    if (!couldNameContainer(nameOrId))
        return std::nullopt;
    auto container = impl_->inspectContainer(nameOrId);
    if (container && !container->podId.empty())
        container->podName = impl_->podName(container->podId);
    return container;
}

// The list endpoint has neither the cgroup path nor the create-time limits
// (admission counts those for every running container), so each container is
// inspected as well: one loopback round trip each, and only at start-up and
// on a full reconcile. Stopped containers are inspected too, so that every
// Container this returns is complete whatever its state. The list does carry
// the pod's name, which spares a pod lookup per container.
std::vector<ListEntry> PodmanClient::listSummaries()
{
    auto url = libpodUrl("/containers/json?all=true");
    auto response = impl_->get(url);
    if (response.status != 200)
        throwUnexpected(url, response);
    return parseReply(url, [&] { return parseList(response.body); });
}

std::vector<Container> PodmanClient::list()
{
    const auto entries = listSummaries();
    std::vector<Container> containers;
    containers.reserve(entries.size());
    for (const auto& entry : entries) {
        // Gone between the list and now: it is no longer part of the answer.
        auto container = impl_->inspectContainer(entry.id);
        if (!container)
            continue;
        container->podName = entry.podName;
        containers.push_back(std::move(*container));
    }
    return containers;
}

}  // namespace resized::runtime
