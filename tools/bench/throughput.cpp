#include <array>
#include <exception>
#include <latch>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "phases.h"

// 2. UpdateResources calls per second with 1, 4 and 16 concurrent clients.
// Each client is a thread with a bus connection of its own and a container of
// its own (client k changes bench-k), calling back to back for a fixed time.
namespace resized::bench {

namespace {

constexpr std::array<std::size_t, 3> kClientCounts{1, 4, 16};
constexpr Amount<std::chrono::milliseconds> kRunTime{std::chrono::seconds(3), std::chrono::milliseconds(300)};
constexpr std::array<std::uint64_t, 2> kCpuMillis{30, 60};
constexpr std::size_t kWarmUpCalls = 2;

class Client {
public:
    Client(const std::string& container, std::latch& start)
        : container_(container),
          thread_([this, &start] { run(start); })
    {
    }

    void join() { thread_.join(); }

    // Throws what the client's thread failed with.
    std::vector<Duration> samples() const
    {
        if (failure_)
            std::rethrow_exception(failure_);
        return samples_;
    }

private:
    void run(std::latch& start)
    {
        bool passedStartLine = false;
        try {
            ResizedBus bus;
            std::size_t call = 0;
            for (; call < kWarmUpCalls; ++call)
                setCpu(bus, call);
            start.arrive_and_wait();
            passedStartLine = true;
            const auto deadline = std::chrono::steady_clock::now() + kRunTime();
            while (std::chrono::steady_clock::now() < deadline) {
                const auto callStarted = std::chrono::steady_clock::now();
                setCpu(bus, call++);
                samples_.push_back(std::chrono::steady_clock::now() - callStarted);
            }
        } catch (...) {
            failure_ = std::current_exception();
            // The others must not wait for this one at the start line.
            if (!passedStartLine)
                start.count_down();
        }
    }

    void setCpu(ResizedBus& bus, std::size_t call)
    {
        const std::uint64_t millis = kCpuMillis[call % kCpuMillis.size()];
        if (bus.setCpuMillis(container_, millis) != millis)
            throw std::runtime_error(container_ + ": resized answered with another CpuMillis than asked");
    }

    std::string container_;
    std::vector<Duration> samples_;
    std::exception_ptr failure_;
    std::thread thread_;
};

ThroughputRun runClients(Testbed& testbed, std::size_t clientCount)
{
    std::latch start(static_cast<std::ptrdiff_t>(clientCount + 1));
    std::vector<std::unique_ptr<Client>> clients;
    for (std::size_t index = 0; index < clientCount; ++index)
        clients.push_back(std::make_unique<Client>(testbed.containerName(index), start));
    start.arrive_and_wait();
    const auto started = std::chrono::steady_clock::now();
    for (auto& client : clients)
        client->join();
    const auto elapsed = std::chrono::steady_clock::now() - started;

    std::vector<Duration> samples;
    for (const auto& client : clients) {
        const auto clientSamples = client->samples();
        samples.insert(samples.end(), clientSamples.begin(), clientSamples.end());
    }
    return {
        .clients = clientCount,
        .calls = samples.size(),
        .seconds = std::chrono::duration<double>(elapsed).count(),
        .latency = summarize(samples),
    };
}

}  // namespace

std::vector<ThroughputRun> measureThroughput(Testbed& testbed)
{
    std::vector<ThroughputRun> runs;
    for (const std::size_t clients : kClientCounts)
        runs.push_back(runClients(testbed, clients));
    return runs;
}

}  // namespace resized::bench
