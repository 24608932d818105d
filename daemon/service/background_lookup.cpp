#include "service/background_lookup.h"

#include <exception>
#include <string>
#include <utility>

namespace resized::service {

Found findIn(const WorkloadSources& sources, const core::WorkloadName& name)
{
    WorkloadSource* source = sources.forKind(name.kind);
    if (!source)
        return noSourceFor(name.kind);
    try {
        return source->find(name);
    } catch (const SourceUnavailable& error) {
        return error;
    } catch (const AmbiguousName& error) {
        return error;
    } catch (const std::exception& error) {
        return SourceUnavailable(error.what());
    }
}

BackgroundLookup::BackgroundLookup(EventLoop& loop, WorkloadSources sources) : sources_(sources), worker_(loop) {}

void BackgroundLookup::find(const core::WorkloadName& name, FoundCallback done)
{
    worker_.post([this, name, done = std::move(done)]() mutable -> WorkerThread::Continuation {
        return [found = findIn(sources_, name), done = std::move(done)]() mutable { done(std::move(found)); };
    });
}

}  // namespace resized::service
