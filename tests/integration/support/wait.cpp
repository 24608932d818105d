#include "support/wait.h"

#include <thread>

namespace resized::integration
{

bool waitUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout,
               std::chrono::milliseconds interval)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition())
    {
        if (std::chrono::steady_clock::now() >= deadline)
        {
            return condition();
        }
        std::this_thread::sleep_for(interval);
    }
    return true;
}

} // namespace resized::integration
