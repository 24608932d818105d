#pragma once

#include <chrono>
#include <functional>

namespace resized::integration
{

// Polls condition until it holds or timeout passes; returns its last result.
// The timeout only bounds a test that would otherwise hang; tests assert the
// condition, never how long it took.
bool waitUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds timeout,
               std::chrono::milliseconds interval = std::chrono::milliseconds(50));

} // namespace resized::integration
