#include "service/background_listing.h"

#include <exception>
#include <utility>

namespace resized::service {

BackgroundListing::BackgroundListing(EventLoop& loop, std::vector<WorkloadSource*> sources)
    : sources_(std::move(sources)), worker_(loop)
{
}

void BackgroundListing::list(Done done)
{
    if (!current_.empty()) {
        next_.push_back(std::move(done));
        return;
    }
    current_.push_back(std::move(done));
    startListing();
}

void BackgroundListing::startListing()
{
    worker_.post([this]() -> WorkerThread::Continuation {
        Result result = [this]() -> Result {
            try {
                return listAll(sources_);
            } catch (const SourceUnavailable& error) {
                return error;
            } catch (const std::exception& error) {
                return SourceUnavailable(error.what());
            }
        }();
        return [this, result = std::move(result)] { deliver(result); };
    });
}

void BackgroundListing::deliver(const Result& result)
{
    const std::vector<Done> callers = std::exchange(current_, {});
    if (!next_.empty()) {
        current_ = std::exchange(next_, {});
        startListing();
    }
    for (const auto& done : callers)
        done(result);
}

}  // namespace resized::service
