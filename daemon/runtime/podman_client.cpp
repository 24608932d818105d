#include "runtime/podman_client.h"

#include <string_view>

#include "runtime/curl_handles.h"
#include "runtime/names.h"
#include "runtime/podman_json.h"

namespace resized::runtime {

namespace {

constexpr long kConnectTimeoutMs = 2'000;
constexpr long kRequestTimeoutMs = 10'000;

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
    // between calls. Throws RuntimeUnavailable for a transport failure.
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
        return response;
    }

    // The body of a 200 answer. Throws RuntimeUnavailable for anything else.
    std::string getOk(const std::string& url)
    {
        auto response = get(url);
        if (response.status != 200)
            throwUnexpected(url, response);
        return std::move(response.body);
    }

    // The container or pod (`kind`: "containers" or "pods") that nameOrId
    // names exactly, parsed by `parse`; nullopt when there is none.
    template <typename Parse>
    auto lookUp(std::string_view kind, std::string_view nameOrId, Parse&& parse)
        -> std::optional<decltype(parse(std::string_view()))>
    {
        if (!couldNameContainerOrPod(nameOrId))
            return std::nullopt;
        auto url = libpodUrl("/" + std::string(kind) + "/" + escapeSegment(handle.get(), nameOrId)
                             + "/json");
        auto response = get(url);
        if (response.status != 200) {
            auto error = parseApiError(response.body);
            if (isAmbiguousId(error) && couldBeIdPrefix(nameOrId))
                throw AmbiguousContainer(error.message);
            // Too short to be an ID prefix: no match, however many IDs start so.
            if (isAmbiguousId(error) || isNoSuchObject(error) || response.status == 404)
                return std::nullopt;
            throwUnexpected(url, response);
        }
        auto found = parseReply(url, [&] { return parse(response.body); });
        // Podman falls back to any ID prefix when no name matches.
        if (!namesExactly(nameOrId, found.id, found.name))
            return std::nullopt;
        return found;
    }

    std::optional<Container> inspectContainer(std::string_view nameOrId)
    {
        return lookUp("containers", nameOrId, parseInspect);
    }

    std::optional<Pod> inspectPod(std::string_view nameOrId)
    {
        return lookUp("pods", nameOrId, parsePod);
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
    auto container = impl_->inspectContainer(nameOrId);
    if (container && !container->podId.empty()) {
        // Empty when the pod went away since the container was inspected.
        auto pod = impl_->inspectPod(container->podId);
        container->podName = pod ? pod->name : std::string();
    }
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
    auto body = impl_->getOk(url);
    return parseReply(url, [&] { return parseList(body); });
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

std::optional<Pod> PodmanClient::inspectPod(const std::string& nameOrId)
{
    return impl_->inspectPod(nameOrId);
}

// As list(): the pod list lacks the cgroup path and the limits, so each pod
// is inspected too.
std::vector<Pod> PodmanClient::listPods()
{
    auto url = libpodUrl("/pods/json");
    auto body = impl_->getOk(url);
    std::vector<Pod> pods;
    for (const auto& id : parseReply(url, [&] { return parsePodIds(body); }))
        if (auto pod = impl_->inspectPod(id))
            pods.push_back(std::move(*pod));
    return pods;
}

}  // namespace resized::runtime
