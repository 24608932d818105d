#include <iostream>

#include "events.h"
#include "verbs/stop_signals.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

class EventPrinter final : public ManagerEvents {
public:
    explicit EventPrinter(bool json) : json_(json) {}

    void resourcesApplied(const std::string& workload, const Dictionary& actual) override
    {
        print(resourcesAppliedEvent(Clock::now(), workload, actual));
    }

    void driftDetected(const std::string& workload, const Dictionary& desired, const Dictionary& actual) override
    {
        print(driftDetectedEvent(Clock::now(), workload, desired, actual));
    }

    void updateFailed(const std::string& workload, const std::string& error, const std::string& message) override
    {
        print(updateFailedEvent(Clock::now(), workload, error, message));
    }

    void propertiesChanged(const std::string& objectPath, const Dictionary& changed,
                           const std::vector<std::string>& invalidated) override
    {
        print(propertiesChangedEvent(Clock::now(), objectPath, changed, invalidated));
    }

    void daemonPresenceChanged(bool present) override { print(daemonPresenceEvent(Clock::now(), present)); }

private:
    // Flushed per event: a reader on a pipe sees each line as it happens.
    void print(const Event& event)
    {
        if (json_)
            std::cout << event.json.dump() << std::endl;
        else
            std::cout << event.text << std::endl;
    }

    bool json_;
};

ExitStatus watch(Session& session)
{
    const StopSignals stopSignals;
    EventPrinter printer(session.options().json);
    Client& client = session.client();
    client.startEventDelivery(printer);
    if (session.options().legend)
        std::cerr << "Watching io.resized1 for events; press Ctrl-C to stop." << std::endl;
    stopSignals.wait();
    client.stop();
    return ExitStatus::Success;
}

}  // namespace

void addWatchVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("watch", "Print the daemon's events as they happen, until interrupted");
    command->footer("One line per event: ResourcesApplied, DriftDetected, UpdateFailed, PropertiesChanged of\n"
                    "the manager and of every workload, DaemonStarted and DaemonStopped. With --json, one\n"
                    "JSON object per line. Stops on SIGINT or SIGTERM.");
    command->callback([&selected] { selected = watch; });
}

}  // namespace resized::ctl
