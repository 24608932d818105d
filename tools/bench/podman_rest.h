#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/curl_handles.h"

namespace resized::bench {

// The parts of Podman's libpod REST API (v4.0.0) the benchmark compares with
// or needs, over the API socket with libcurl. One handle, reused, so calls
// after the first share one open connection, the fastest a client can be.
class PodmanRest {
public:
    explicit PodmanRest(const std::string& socketPath);

    // POST /containers/{name}/update with the OCI LinuxResources body
    // {"cpu":{"quota":quotaUs,"period":periodUs}}; throws unless Podman
    // answers 2xx.
    void updateCpuQuota(const std::string& container, std::int64_t quotaUs, std::uint64_t periodUs);

    // GET /containers/{name}/json; throws unless Podman answers 2xx.
    void inspect(const std::string& container);

    // The timeNano of every `start` event of container at or after since.
    std::vector<std::chrono::system_clock::time_point>
        startEvents(const std::string& container, std::chrono::system_clock::time_point since);

private:
    struct Response {
        long status = 0;
        std::string body;
    };
    Response perform(const std::string& pathAndQuery, const std::string* postBody);

    struct HeaderListFree {
        void operator()(curl_slist* list) const { curl_slist_free_all(list); }
    };

    runtime::CurlEasy handle_;
    std::unique_ptr<curl_slist, HeaderListFree> headers_;
    std::string body_;
    char errorBuffer_[CURL_ERROR_SIZE] = {};
};

}  // namespace resized::bench
