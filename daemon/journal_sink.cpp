#include "journal_sink.h"

#include <syslog.h>
#include <systemd/sd-journal.h>

#include <cctype>
#include <string>

namespace resized {
namespace {

// Podman's container names: [a-zA-Z0-9][a-zA-Z0-9_.-]*.
bool isContainerName(std::string_view text)
{
    if (text.empty() || !std::isalnum(static_cast<unsigned char>(text.front())))
        return false;
    for (unsigned char c : text)
        if (!std::isalnum(c) && c != '_' && c != '.' && c != '-')
            return false;
    return true;
}

int syslogPriority(spdlog::level::level_enum level)
{
    switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
        return LOG_DEBUG;
    case spdlog::level::info:
        return LOG_INFO;
    case spdlog::level::warn:
        return LOG_WARNING;
    case spdlog::level::err:
        return LOG_ERR;
    default:
        return LOG_CRIT;
    }
}

}  // namespace

std::optional<std::string_view> workloadOfMessage(std::string_view message)
{
    const size_t end = message.find(": ");
    if (end == std::string_view::npos || !isContainerName(message.substr(0, end)))
        return std::nullopt;
    return message.substr(0, end);
}

void JournalSink::sink_it_(const spdlog::details::log_msg& message)
{
    const std::string_view text(message.payload.data(), message.payload.size());
    const int priority = syslogPriority(message.level);
    if (auto workload = workloadOfMessage(text))
        sd_journal_send("MESSAGE=%.*s", static_cast<int>(text.size()), text.data(), "PRIORITY=%d", priority,
                        "SYSLOG_IDENTIFIER=resized", "RESIZED_WORKLOAD=%.*s",
                        static_cast<int>(workload->size()), workload->data(), nullptr);
    else
        sd_journal_send("MESSAGE=%.*s", static_cast<int>(text.size()), text.data(), "PRIORITY=%d", priority,
                        "SYSLOG_IDENTIFIER=resized", nullptr);
}

}  // namespace resized
