#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

namespace resized::test {

// Every message logged through spdlog's default logger while this lives,
// for tests whose only outside view of a retry is the line that announces it.
class CapturedLog {
public:
    CapturedLog() : sink_(std::make_shared<Sink>()) { spdlog::default_logger()->sinks().push_back(sink_); }
    ~CapturedLog() { std::erase(spdlog::default_logger()->sinks(), sink_); }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;

    std::vector<std::string> messages() const
    {
        std::lock_guard lock(sink_->mutex);
        return sink_->messages;
    }

private:
    struct Sink final : spdlog::sinks::base_sink<std::mutex> {
        std::mutex mutex;
        std::vector<std::string> messages;

    protected:
        void sink_it_(const spdlog::details::log_msg& message) override
        {
            std::lock_guard lock(mutex);
            messages.emplace_back(message.payload.data(), message.payload.size());
        }
        void flush_() override {}
    };

    std::shared_ptr<Sink> sink_;
};

}  // namespace resized::test
