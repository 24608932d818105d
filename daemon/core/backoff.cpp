#include "core/backoff.h"

#include <algorithm>
#include <stdexcept>

namespace resized::core {

Backoff::Backoff(std::chrono::milliseconds first, std::chrono::milliseconds longest)
    : first_(first), longest_(longest), upcoming_(first)
{
    if (first.count() <= 0 || first > longest)
        throw std::invalid_argument("a backoff needs 0 < first delay <= longest delay");
}

std::chrono::milliseconds Backoff::next()
{
    const auto delay = upcoming_;
    // Doubling stops at the ceiling, so it can never overflow.
    upcoming_ = delay > longest_ / 2 ? longest_ : delay * 2;
    ++attempts_;
    return delay;
}

void Backoff::reset()
{
    upcoming_ = first_;
    attempts_ = 0;
}

}  // namespace resized::core
