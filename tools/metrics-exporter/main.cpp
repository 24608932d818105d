// resized-metrics-exporter: serves resized's GetMetrics() over HTTP on the
// socket systemd passes it (resized-metrics.socket), so that Prometheus can
// scrape the node while resized itself keeps its network sandbox.

#include <microhttpd.h>
#include <signal.h>
#include <systemd/sd-daemon.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <sdbus-c++/sdbus-c++.h>
#include <string>
#include <string_view>
#include <vector>

#include "build_config.h"

namespace {

using namespace std::chrono_literals;

constexpr auto kCallTimeout = 5s;
constexpr unsigned kConnectionTimeoutSec = 10;
constexpr const char* kExpositionType = "text/plain; version=0.0.4; charset=utf-8";

// The HTTP side of one request: its method and path.
struct Request {
    std::string_view method;
    std::string_view path;
};

struct Reply {
    unsigned status;
    std::string body;
    const char* contentType = "text/plain; charset=utf-8";
};

// Asks resized on the system bus, one call per scrape. Each listening
// socket has a polling thread of its own: the connection serves one at a
// time.
class MetricsSource {
public:
    std::string fetch()
    {
        const std::lock_guard lock(mutex_);
        if (!connection_)
            connection_ = sdbus::createSystemBusConnection();
        auto proxy = sdbus::createProxy(*connection_, "io.resized1", "/io/resized1");
        std::string metrics;
        try {
            proxy->callMethod("GetMetrics")
                .onInterface("io.resized1.Manager")
                .withTimeout(kCallTimeout)
                .storeResultsTo(metrics);
        } catch (const sdbus::Error&) {
            // A bus that restarted leaves this connection dead: the next
            // scrape connects again.
            connection_.reset();
            throw;
        }
        return metrics;
    }

private:
    std::mutex mutex_;
    std::unique_ptr<sdbus::IConnection> connection_;
};

using Server = std::unique_ptr<MHD_Daemon, decltype(&MHD_stop_daemon)>;

Reply answer(const Request& request, MetricsSource& source)
{
    if (request.path != "/metrics" && request.path != "/")
        return {MHD_HTTP_NOT_FOUND, "resized serves its metrics at /metrics\n"};
    if (request.method != MHD_HTTP_METHOD_GET && request.method != MHD_HTTP_METHOD_HEAD)
        return {MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n"};
    try {
        return {MHD_HTTP_OK, source.fetch(), kExpositionType};
    } catch (const sdbus::Error& error) {
        std::cerr << "<3>cannot get resized's metrics: " << error.getName() << ": " << error.getMessage()
                  << std::endl;
        return {MHD_HTTP_SERVICE_UNAVAILABLE,
                "resized did not answer: " + error.getName() + ": " + error.getMessage() + "\n"};
    }
}

MHD_Result handle(void* context, MHD_Connection* connection, const char* url, const char* method, const char*,
                  const char*, size_t* uploadSize, void** requestState)
{
    // libmicrohttpd calls once with the headers, then again per body chunk:
    // a scrape has no body, and anything sent is dropped unread.
    if (*requestState == nullptr) {
        static int headersSeen;
        *requestState = &headersSeen;
        return MHD_YES;
    }
    *uploadSize = 0;
    const Reply reply = answer({method, url}, *static_cast<MetricsSource*>(context));
    std::unique_ptr<MHD_Response, decltype(&MHD_destroy_response)> response(
        MHD_create_response_from_buffer(reply.body.size(), const_cast<char*>(reply.body.data()),
                                        MHD_RESPMEM_MUST_COPY),
        &MHD_destroy_response);
    if (!response)
        return MHD_NO;
    MHD_add_response_header(response.get(), MHD_HTTP_HEADER_CONTENT_TYPE, reply.contentType);
    if (reply.status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(response.get(), MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    return MHD_queue_response(connection, reply.status, response.get());
}

int serve(int firstSocket, int sockets)
{
    MetricsSource source;
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    // Blocked before libmicrohttpd's thread starts, so it inherits the mask
    // and the signals reach sigwait() below.
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    // One server per socket (the unit listens on IPv4 and IPv6).
    std::vector<Server> servers;
    for (int socket = firstSocket; socket < firstSocket + sockets; ++socket) {
        servers.emplace_back(MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, nullptr,
                                              nullptr, &handle, &source, MHD_OPTION_LISTEN_SOCKET, socket,
                                              MHD_OPTION_CONNECTION_TIMEOUT, kConnectionTimeoutSec, MHD_OPTION_END),
                             &MHD_stop_daemon);
        if (!servers.back()) {
            std::cerr << "<3>cannot serve on socket " << socket << " from systemd" << std::endl;
            return EXIT_FAILURE;
        }
    }
    sd_notify(0, "READY=1");
    int signal = 0;
    sigwait(&stopSignals, &signal);
    sd_notify(0, "STOPPING=1");
    return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app("Serve resized's metrics to Prometheus on the socket systemd passes", "resized-metrics-exporter");
    app.set_version_flag("--version", std::string(RESIZED_VERSION));
    app.footer("Started by resized-metrics.socket (off until enabled): the listening stream sockets\n"
               "from systemd (sd_listen_fds(3)), on which GET /metrics answers resized's GetMetrics()\n"
               "in the Prometheus text format (0.0.4), asked over the system bus at each scrape.\n"
               "Other paths answer 404, other methods 405, and 503 when resized does not answer.\n"
               "The socket's address is the unit's ListenStream= (the loopback's port 9531 unless\n"
               "a drop-in says otherwise). Exits on SIGTERM.");
    CLI11_PARSE(app, argc, argv);

    const int sockets = sd_listen_fds(1);
    if (sockets <= 0) {
        std::cerr << "resized-metrics-exporter: no listening socket from systemd; start it through "
                     "resized-metrics.socket"
                  << std::endl;
        return EXIT_FAILURE;
    }
    return serve(SD_LISTEN_FDS_START, sockets);
}
