#include "service/runtime_watcher.h"

#include <map>
#include <spdlog/spdlog.h>
#include <string_view>

namespace resized::service {

namespace {

using LifecycleStep = void (ContainerEvents::*)(const std::string& id, const std::string& name);

// Podman's container actions (Podman 4.3) that change what resized must do,
// but rename, which carries the new name, and died and stop, which carry
// their time. The others (init, cleanup,
// exec, attach, kill, mount, sync, health_status, ...) change neither the
// cgroup nor the name. Nor does restart: Podman reports it before it stops
// the run, whose died and the next run's start follow.
const std::map<std::string_view, LifecycleStep> kLifecycleSteps{
    {"create", &ContainerEvents::containerCreated},
    {"start", &ContainerEvents::containerStarted},
    {"restore", &ContainerEvents::containerStarted},
    {"pause", &ContainerEvents::containerPaused},
    {"unpause", &ContainerEvents::containerUnpaused},
    {"remove", &ContainerEvents::containerRemoved},
};

}  // namespace

RuntimeWatcher::RuntimeWatcher(EventLoop& loop, ContainerEvents& events, const std::string& podmanSocket)
    : loop_(loop),
      events_(events),
      hooks_(loop),
      stream_(podmanSocket, hooks_,
              {
                  .established = [this] { onEstablished(); },
                  .event = [this](const runtime::ContainerEvent& event) { onEvent(event); },
                  .ended = [this](const std::string& reason) { onEnded(reason); },
              })
{
    hooks_.attach(stream_);
}

void RuntimeWatcher::start() { connect(); }

void RuntimeWatcher::connect()
{
    try {
        stream_.start();
    } catch (const std::exception& error) {
        onEnded(error.what());
    }
}

void RuntimeWatcher::onEstablished()
{
    connection_ = Connection::Unproven;
    healthyTimer_ = loop_.after(kHealthyAfter, [this] { onHealthy(); });
}

void RuntimeWatcher::onEvent(const runtime::ContainerEvent& event)
{
    // Events flow: resynchronise right after this batch, from a timer of its
    // own, so that neither can cost the other by throwing.
    if (connection_ == Connection::Unproven)
        healthyTimer_ = loop_.after(std::chrono::microseconds(0), [this] { onHealthy(); });
    dispatch(event);
}

void RuntimeWatcher::onHealthy()
{
    healthyTimer_ = {};
    connection_ = Connection::Healthy;
    reconnectDelays_.reset();
    events_.resynchronise();
}

void RuntimeWatcher::onEnded(const std::string& reason)
{
    healthyTimer_ = {};
    const Connection ended = std::exchange(connection_, Connection::None);
    const auto delay = reconnectDelays_.next();
    if (ended == Connection::Unproven)
        spdlog::warn("Podman ended its event stream right after opening it ({}); is its events_logger "
                     "\"none\"? Retrying in {} ms",
                     reason, delay.count());
    else
        spdlog::warn("Podman event stream ended ({}); reconnecting in {} ms", reason, delay.count());
    // Armed first: whatever runtimeLost() does, the watcher reconnects.
    retryTimer_ = loop_.after(delay, [this] { connect(); });
    if (ended != Connection::Unproven)
        events_.runtimeLost();
}

void RuntimeWatcher::dispatch(const runtime::ContainerEvent& event)
{
    const std::string& name = event.containerName;
    if (name.empty())
        return;
    spdlog::debug("{}: container event {}", name, event.action);
    // The event carries the new name.
    if (event.action == "rename") {
        events_.containerRenamed(event.containerId, name);
        return;
    }
    if (event.action == "died" || event.action == "stop") {
        events_.containerStopped(event.containerId, name, event.timeNano / 1000);
        return;
    }
    if (auto step = kLifecycleSteps.find(event.action); step != kLifecycleSteps.end())
        (events_.*(step->second))(event.containerId, name);
}

}  // namespace resized::service
