#pragma once

#include <mutex>
#include <optional>
#include <string_view>

#include <spdlog/sinks/base_sink.h>

namespace resized {

// Every line about a workload starts with the workload's name ("web: applied
// …"). The name, if `message` starts so: a container name followed by ": ".
std::optional<std::string_view> workloadOfMessage(std::string_view message);

// spdlog to the journal, with the workload of a line as the structured field
// RESIZED_WORKLOAD= (journalctl RESIZED_WORKLOAD=web). Locked: the worker
// threads that call Podman and systemd may log too.
class JournalSink final : public spdlog::sinks::base_sink<std::mutex> {
protected:
    void sink_it_(const spdlog::details::log_msg& message) override;
    void flush_() override {}
};

}  // namespace resized
