#include "service/deferred_queue.h"

#include <algorithm>
#include <utility>

#include "core/admission.h"

namespace resized::service {

DeferredQueue::DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer)
    : loop_(loop), store_(store), offer_(std::move(offer))
{
}

void DeferredQueue::schedulePass()
{
    if (passUnderWay_) {
        passAgain_ = true;
        return;
    }
    if (!pass_)
        pass_ = loop_.after(std::chrono::microseconds(0), [this] {
            pass_ = {};
            runPass();
        });
}

void DeferredQueue::runPass()
{
    auto waiting = store_.deferredUpdates();
    std::stable_partition(waiting.begin(), waiting.end(), [this](const store::DeferredUpdate& update) {
        const auto record = store_.find(update.workload);
        if (!record)
            return false;
        const core::Amounts after = core::allocationOf(record->desired.overlaidWith(update.request));
        return after.cpuMillis <= record->allocated.cpuMillis && after.memory <= record->allocated.memory;
    });
    offering_.assign(waiting.begin(), waiting.end());
    passUnderWay_ = true;
    offerNext();
}

void DeferredQueue::offerNext()
{
    if (offering_.empty()) {
        endPass();
        return;
    }
    const store::DeferredUpdate update = std::move(offering_.front());
    offering_.pop_front();
    offer_(update, [this](bool goOn) {
        if (goOn) {
            offerNext();
            return;
        }
        offering_.clear();
        endPass();
    });
}

void DeferredQueue::endPass()
{
    passUnderWay_ = false;
    if (std::exchange(passAgain_, false))
        schedulePass();
}

}  // namespace resized::service
