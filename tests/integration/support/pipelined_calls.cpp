#include "support/pipelined_calls.h"

#include "support/wait.h"

#include <cstring>
#include <stdexcept>

namespace resized::integration
{

namespace
{

sd_bus* openSystemBus()
{
    sd_bus* bus = nullptr;
    if (const int result = sd_bus_open_system(&bus); result < 0)
    {
        throw std::runtime_error(std::string("cannot reach the system bus: ") +
                                 std::strerror(-result));
    }
    return bus;
}

} // namespace

PipelinedCalls::PipelinedCalls() : bus_(openSystemBus(), &sd_bus_flush_close_unref) {}

void PipelinedCalls::check(int result, const char* member)
{
    if (result < 0)
    {
        throw std::runtime_error(std::string("cannot call ") + member + ": " +
                                 std::strerror(-result));
    }
}

int PipelinedCalls::onReply(sd_bus_message* message, void* userdata, sd_bus_error*)
{
    auto* reply = static_cast<Reply*>(userdata);
    reply->done = true;
    if (const sd_bus_error* error = sd_bus_message_get_error(message))
    {
        reply->error = std::string(error->name) + ": " + error->message;
    }
    return 0;
}

bool PipelinedCalls::process(const Reply& reply)
{
    while (sd_bus_process(bus_.get(), nullptr) > 0)
    {
    }
    return reply.done;
}

bool PipelinedCalls::waitFor(const Reply& reply, std::chrono::milliseconds bound)
{
    return waitUntil([&] { return process(reply); }, bound);
}

} // namespace resized::integration
