#pragma once

// Owning handles for libcurl objects, and the pieces every request to the
// Podman socket shares.

#include <curl/curl.h>
#include <memory>
#include <string>
#include <string_view>

namespace resized::runtime {

struct CurlEasyCleanup {
    void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
using CurlEasy = std::unique_ptr<CURL, CurlEasyCleanup>;

struct CurlMultiCleanup {
    void operator()(CURLM* handle) const { curl_multi_cleanup(handle); }
};
using CurlMulti = std::unique_ptr<CURLM, CurlMultiCleanup>;

// A new easy handle that talks HTTP over the unix socket at socketPath and
// gives up connecting after connectTimeoutMs. Throws std::runtime_error when
// libcurl cannot allocate one.
CurlEasy makeUnixSocketHandle(const std::string& socketPath, long connectTimeoutMs);

// http://d/v4.0.0/libpod + pathAndQuery; the host part is ignored on a
// unix socket.
std::string libpodUrl(std::string_view pathAndQuery);

// One URL path segment, percent-encoded so that '/', '?', '%' and the like
// stay inside the segment.
std::string escapeSegment(CURL* handle, std::string_view segment);

// Throws RuntimeUnavailable with the text for code.
[[noreturn]] void throwCurlError(std::string_view what, CURLcode code, const char* errorBuffer);

}  // namespace resized::runtime
