#include "runtime/event_stream.h"

#include <spdlog/spdlog.h>
#include <stdexcept>
#include <utility>
#include <vector>

#include "runtime/curl_handles.h"
#include "runtime/podman_json.h"

namespace resized::runtime {

namespace {

constexpr long kConnectTimeoutMs = 2'000;
constexpr std::string_view kContainerEventsFilter = R"({"type":["container"]})";

}  // namespace

struct EventStream::Impl {
    Impl(std::string socketPath, EventLoopHooks& loop, EventStreamHandlers handlers)
        : socketPath(std::move(socketPath)), loop(loop), handlers(std::move(handlers)),
          multi(curl_multi_init())
    {
        if (!multi)
            throw std::runtime_error("curl_multi_init failed");
        curl_multi_setopt(multi.get(), CURLMOPT_SOCKETFUNCTION, &Impl::onCurlSocket);
        curl_multi_setopt(multi.get(), CURLMOPT_SOCKETDATA, this);
        curl_multi_setopt(multi.get(), CURLMOPT_TIMERFUNCTION, &Impl::onCurlTimer);
        curl_multi_setopt(multi.get(), CURLMOPT_TIMERDATA, this);
    }

    ~Impl() { stop(); }

    void start()
    {
        if (easy)
            return;
        easy = makeUnixSocketHandle(socketPath, kConnectTimeoutMs);
        auto url = libpodUrl("/events?stream=true&filters="
                             + escapeSegment(easy.get(), kContainerEventsFilter));
        curl_easy_setopt(easy.get(), CURLOPT_URL, url.c_str());
        curl_easy_setopt(easy.get(), CURLOPT_HEADERFUNCTION, &Impl::onCurlHeader);
        curl_easy_setopt(easy.get(), CURLOPT_HEADERDATA, this);
        curl_easy_setopt(easy.get(), CURLOPT_WRITEFUNCTION, &Impl::onCurlData);
        curl_easy_setopt(easy.get(), CURLOPT_WRITEDATA, this);
        curl_easy_setopt(easy.get(), CURLOPT_ERRORBUFFER, errorBuffer);
        errorBuffer[0] = '\0';
        status = 0;
        partialLine.clear();
        errorBody.clear();
        streamError.clear();
        if (CURLMcode code = curl_multi_add_handle(multi.get(), easy.get()); code != CURLM_OK) {
            easy.reset();
            throw std::runtime_error(std::string("curl_multi_add_handle: ")
                                     + curl_multi_strerror(code));
        }
    }

    void stop()
    {
        if (!easy)
            return;
        curl_multi_remove_handle(multi.get(), easy.get());
        easy.reset();
        justEstablished = false;
        parsed.clear();
        loop.setTimer(std::nullopt);
    }

    void drive(curl_socket_t fd, int conditions)
    {
        int stillRunning = 0;
        curl_multi_socket_action(multi.get(), fd, conditions, &stillRunning);
        deliver();
    }

    // Everything libcurl's callbacks collected is handed out only now, with
    // libcurl out of the call stack, so a handler may stop the stream.
    void deliver()
    {
        if (std::exchange(justEstablished, false))
            callFenced(handlers.established,
                       [] { return "Podman's event stream opened, but handling that failed"; });
        for (const auto& event : std::exchange(parsed, {})) {
            if (!easy)
                return;
            callFenced(handlers.event, [&] {
                // The workload first, as every line about one starts.
                return (event.containerName.empty() ? event.containerId : event.containerName)
                       + ": handling Podman's " + event.action + " event failed";
            }, event);
        }
        if (!easy)
            return;
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi.get(), &queued)) {
            if (message->msg != CURLMSG_DONE)
                continue;
            auto reason = endReason(message->data.result);
            stop();
            callFenced(handlers.ended,
                       [] { return "Podman's event stream ended, but handling that failed"; }, reason);
            return;
        }
    }

    // A handler that throws must cost neither the rest of its batch nor the
    // end of the stream: unreported, the end would leave the stream active
    // with nothing reading it, and no one would reconnect.
    template <typename Handler, typename DescribeFailure, typename... Args>
    static void callFenced(const Handler& handler, DescribeFailure&& describeFailure, const Args&... args)
    {
        if (!handler)
            return;
        try {
            handler(args...);
        } catch (const std::exception& error) {
            spdlog::error("{}: {}", describeFailure(), error.what());
        }
    }

    std::string endReason(CURLcode result) const
    {
        if (result != CURLE_OK)
            return curl_easy_strerror(result) + std::string(*errorBuffer ? ": " : "") + errorBuffer;
        if (status != 200)
            return "Podman answered " + std::to_string(status) + ": "
                   + parseApiError(errorBody).message;
        if (!streamError.empty())
            return "Podman ended the event stream: " + streamError;
        return "Podman closed the event stream";
    }

    void takeLines(std::string_view data)
    {
        partialLine.append(data);
        size_t start = 0;
        for (size_t end; (end = partialLine.find('\n', start)) != std::string::npos; start = end + 1) {
            std::string_view line(partialLine.data() + start, end - start);
            if (line.empty())
                continue;
            try {
                parsed.push_back(parseEvent(line));
            } catch (const MalformedReply& e) {
                // Podman reports a failure after the 200 header (events_logger
                // "none": "cannot read events ...") as an error object, then
                // ends the stream.
                if (auto error = parseApiError(line); !error.cause.empty())
                    streamError = error.message;
                else  // One odd line must not cost the whole stream.
                    spdlog::warn("Ignoring a Podman event: {}", e.what());
            }
        }
        partialLine.erase(0, start);
    }

    static size_t onCurlHeader(char* data, size_t size, size_t count, void* self)
    {
        auto* impl = static_cast<Impl*>(self);
        std::string_view line(data, size * count);
        // The blank line ends the headers of the final answer.
        if (line == "\r\n" || line == "\n") {
            curl_easy_getinfo(impl->easy.get(), CURLINFO_RESPONSE_CODE, &impl->status);
            impl->justEstablished = impl->status == 200;
        }
        return size * count;
    }

    static size_t onCurlData(char* data, size_t size, size_t count, void* self)
    {
        auto* impl = static_cast<Impl*>(self);
        std::string_view chunk(data, size * count);
        if (impl->status == 200)
            impl->takeLines(chunk);
        else
            impl->errorBody.append(chunk);
        return size * count;
    }

    static int onCurlSocket(CURL*, curl_socket_t fd, int what, void* self, void*)
    {
        auto& loop = static_cast<Impl*>(self)->loop;
        if (what == CURL_POLL_REMOVE)
            loop.unwatchSocket(fd);
        else
            loop.watchSocket(fd, what & CURL_POLL_IN, what & CURL_POLL_OUT);
        return 0;
    }

    static int onCurlTimer(CURLM*, long timeoutMs, void* self)
    {
        auto& loop = static_cast<Impl*>(self)->loop;
        if (timeoutMs < 0)
            loop.setTimer(std::nullopt);
        else
            loop.setTimer(std::chrono::milliseconds(timeoutMs));
        return 0;
    }

    std::string socketPath;
    EventLoopHooks& loop;
    EventStreamHandlers handlers;
    CurlMulti multi;
    CurlEasy easy;  // only while the stream is active
    long status = 0;
    bool justEstablished = false;
    std::string partialLine;
    std::string errorBody;
    std::string streamError;  // what Podman said when it failed after its 200
    std::vector<ContainerEvent> parsed;
    char errorBuffer[CURL_ERROR_SIZE] = {};
};

EventStream::EventStream(std::string socketPath, EventLoopHooks& loop,
                         EventStreamHandlers handlers)
    : impl_(std::make_unique<Impl>(std::move(socketPath), loop, std::move(handlers)))
{
}

EventStream::~EventStream() = default;

void EventStream::start()
{
    impl_->start();
}

void EventStream::stop()
{
    impl_->stop();
}

bool EventStream::active() const
{
    return impl_->easy != nullptr;
}

void EventStream::onSocketReady(int fd, bool readable, bool writable)
{
    impl_->drive(fd, (readable ? CURL_CSELECT_IN : 0) | (writable ? CURL_CSELECT_OUT : 0));
}

void EventStream::onTimeout()
{
    impl_->drive(CURL_SOCKET_TIMEOUT, 0);
}

}  // namespace resized::runtime
