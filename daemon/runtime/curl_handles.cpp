#include "runtime/curl_handles.h"

#include <stdexcept>

#include "runtime/podman_client.h"

namespace resized::runtime {

namespace {

// curl_global_init is not safe to race with other curl calls; doing it once,
// before the first handle exists, keeps curl_easy_init from doing it lazily.
void initCurlOnce()
{
    static const CURLcode result = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (result != CURLE_OK)
        throw std::runtime_error(std::string("curl_global_init: ") + curl_easy_strerror(result));
}

}  // namespace

CurlEasy makeUnixSocketHandle(const std::string& socketPath, long connectTimeoutMs)
{
    initCurlOnce();
    CurlEasy handle(curl_easy_init());
    if (!handle)
        throw std::runtime_error("curl_easy_init failed");
    curl_easy_setopt(handle.get(), CURLOPT_UNIX_SOCKET_PATH, socketPath.c_str());
    curl_easy_setopt(handle.get(), CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs);
    // Timeouts must not be signalled: the daemon owns its signal handling.
    curl_easy_setopt(handle.get(), CURLOPT_NOSIGNAL, 1L);
    // Only plain HTTP to the socket; never follow a redirect elsewhere.
    curl_easy_setopt(handle.get(), CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(handle.get(), CURLOPT_FOLLOWLOCATION, 0L);
    return handle;
}

std::string libpodUrl(std::string_view pathAndQuery)
{
    std::string url = "http://d/v4.0.0/libpod";
    url += pathAndQuery;
    return url;
}

std::string escapeSegment(CURL* handle, std::string_view segment)
{
    std::unique_ptr<char, decltype(&curl_free)> escaped(
        curl_easy_escape(handle, segment.data(), static_cast<int>(segment.size())), &curl_free);
    if (!escaped)
        throw std::runtime_error("curl_easy_escape failed");
    return escaped.get();
}

void throwCurlError(std::string_view what, CURLcode code, const char* errorBuffer)
{
    std::string message(what);
    message += ": ";
    message += (errorBuffer && *errorBuffer) ? errorBuffer : curl_easy_strerror(code);
    throw RuntimeUnavailable(message);
}

}  // namespace resized::runtime
