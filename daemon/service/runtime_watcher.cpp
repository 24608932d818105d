#include "service/runtime_watcher.h"

#include <spdlog/spdlog.h>

namespace resized::service {

RuntimeWatcher::RuntimeWatcher(EventLoop& loop, ContainerEvents& events, const std::string& podmanSocket)
    : loop_(loop),
      events_(events),
      hooks_(loop),
      stream_(podmanSocket, hooks_,
              {
                  .established =
                      [this] {
                          retryDelay_ = kFirstRetry;
                          events_.resynchronise();
                      },
                  .event = [this](const runtime::ContainerEvent& event) { onEvent(event); },
                  .ended = [this](const std::string& reason) { onEnded(reason); },
              })
{
    hooks_.attach(stream_);
}

void RuntimeWatcher::start() { stream_.start(); }

void RuntimeWatcher::onEvent(const runtime::ContainerEvent& event)
{
    const std::string& name = event.containerName;
    if (name.empty())
        return;
    spdlog::debug("{}: container event {}", name, event.action);
    if (event.action == "start" || event.action == "restart")
        events_.containerStarted(name);
    else if (event.action == "create")
        events_.containerCreated(name);
    else if (event.action == "died" || event.action == "stop" || event.action == "remove")
        events_.containerStopped(name);
}

void RuntimeWatcher::onEnded(const std::string& reason)
{
    spdlog::warn("Podman event stream ended ({}); reconnecting in {} ms", reason, retryDelay_.count());
    events_.runtimeLost();
    retryTimer_ = loop_.after(retryDelay_, [this] { stream_.start(); });
    retryDelay_ = std::min(retryDelay_ * 2, kLongestRetry);
}

}  // namespace resized::service
