#include "podman_rest.h"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

namespace resized::bench {

namespace {

constexpr long kConnectTimeoutMs = 2'000;
constexpr long kRequestTimeoutMs = 30'000;

std::size_t appendToString(char* data, std::size_t size, std::size_t count, void* target)
{
    static_cast<std::string*>(target)->append(data, size * count);
    return size * count;
}

}  // namespace

PodmanRest::PodmanRest(const std::string& socketPath)
    : handle_(runtime::makeUnixSocketHandle(socketPath, kConnectTimeoutMs)),
      // Podman reads a form-encoded body (curl's default) as a form, and then
      // finds no JSON left.
      headers_(curl_slist_append(nullptr, "Content-Type: application/json"))
{
    if (!headers_)
        throw std::runtime_error("curl_slist_append failed");
    curl_easy_setopt(handle_.get(), CURLOPT_HTTPHEADER, headers_.get());
    curl_easy_setopt(handle_.get(), CURLOPT_TIMEOUT_MS, kRequestTimeoutMs);
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEFUNCTION, &appendToString);
    curl_easy_setopt(handle_.get(), CURLOPT_WRITEDATA, &body_);
    curl_easy_setopt(handle_.get(), CURLOPT_ERRORBUFFER, errorBuffer_);
}

PodmanRest::Response PodmanRest::perform(const std::string& pathAndQuery, const std::string* postBody)
{
    body_.clear();
    errorBuffer_[0] = '\0';
    const std::string url = runtime::libpodUrl(pathAndQuery);
    curl_easy_setopt(handle_.get(), CURLOPT_URL, url.c_str());
    if (postBody) {
        curl_easy_setopt(handle_.get(), CURLOPT_POSTFIELDS, postBody->c_str());
        curl_easy_setopt(handle_.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(postBody->size()));
    } else {
        curl_easy_setopt(handle_.get(), CURLOPT_HTTPGET, 1L);
    }
    const CURLcode code = curl_easy_perform(handle_.get());
    if (code != CURLE_OK)
        runtime::throwCurlError(url, code, errorBuffer_);
    Response response;
    curl_easy_getinfo(handle_.get(), CURLINFO_RESPONSE_CODE, &response.status);
    response.body = body_;
    if (response.status < 200 || response.status >= 300)
        throw std::runtime_error(url + ": Podman answered " + std::to_string(response.status) + ": " +
                                 response.body);
    return response;
}

void PodmanRest::updateCpuQuota(const std::string& container, std::int64_t quotaUs, std::uint64_t periodUs)
{
    const std::string body = nlohmann::json{{"cpu", {{"quota", quotaUs}, {"period", periodUs}}}}.dump();
    perform("/containers/" + runtime::escapeSegment(handle_.get(), container) + "/update", &body);
}

void PodmanRest::inspect(const std::string& container)
{
    perform("/containers/" + runtime::escapeSegment(handle_.get(), container) + "/json", nullptr);
}

std::vector<std::chrono::system_clock::time_point>
PodmanRest::startEvents(const std::string& container, std::chrono::system_clock::time_point since)
{
    using namespace std::chrono;
    const auto sinceSeconds = duration_cast<seconds>(since.time_since_epoch()).count();
    const std::string filters =
        nlohmann::json{{"type", {"container"}}, {"event", {"start"}}, {"container", {container}}}.dump();
    const Response response =
        perform("/events?stream=false&since=" + std::to_string(sinceSeconds) +
                    "&filters=" + runtime::escapeSegment(handle_.get(), filters),
                nullptr);
    std::vector<system_clock::time_point> starts;
    std::istringstream lines(response.body);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        const auto event = nlohmann::json::parse(line);
        const system_clock::time_point at{duration_cast<system_clock::duration>(
            nanoseconds(event.at("timeNano").get<std::int64_t>()))};
        if (at >= since)
            starts.push_back(at);
    }
    return starts;
}

}  // namespace resized::bench
