#pragma once

#include <systemd/sd-bus.h>

#include <chrono>
#include <deque>
#include <memory>
#include <string>

namespace resized::integration
{

// Method calls of io.resized1.Manager sent one after another on one
// connection of their own without waiting for their replies: the daemon
// reads them in the order sent, maybe in one go.
class PipelinedCalls
{
  public:
    struct Reply
    {
        bool done = false;
        // "NAME: MESSAGE" of an error reply; "" for a method return.
        std::string error;
    };

    // Throws std::runtime_error when the system bus cannot be reached.
    PipelinedCalls();

    // Sends io.resized1.Manager.`member` with the arguments of sd-bus
    // signature `types`; the reply is filled in by process().
    template <typename... Arguments>
    Reply& call(const char* member, const char* types, Arguments... arguments)
    {
        Reply& reply = replies_.emplace_back();
        check(sd_bus_call_method_async(bus_.get(), nullptr, "io.resized1", "/io/resized1",
                                       "io.resized1.Manager", member, &PipelinedCalls::onReply,
                                       &reply, types, arguments...),
              member);
        return reply;
    }

    // Reads the replies that have come; true once `reply` has.
    bool process(const Reply& reply);
    // process() until `reply` has come, for at most `bound`.
    bool waitFor(const Reply& reply, std::chrono::milliseconds bound);

  private:
    static int onReply(sd_bus_message* message, void* userdata, sd_bus_error*);
    static void check(int result, const char* member);

    std::unique_ptr<sd_bus, decltype(&sd_bus_flush_close_unref)> bus_;
    // A deque: the replies' addresses stay valid as calls are added.
    std::deque<Reply> replies_;
};

} // namespace resized::integration
