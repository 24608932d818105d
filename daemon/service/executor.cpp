#include "service/executor.h"

#include <spdlog/spdlog.h>

namespace resized::service {

Execution::Execution(EventLoop& loop, std::vector<CgroupChange> changes, cgroup::ApplyOptions options,
                     Done done)
    : loop_(loop),
      changes_(std::move(changes)),
      options_(options),
      done_(std::move(done)),
      previous_(changes_.size()),
      actual_(changes_.size())
{
}

void Execution::start() { advance(); }

void Execution::advance()
{
    while (current_ < changes_.size()) {
        CgroupChange& change = changes_[current_];
        if (!step_)
            step_ = std::make_unique<cgroup::ApplyTransaction>(*change.backend, change.cgroup, change.target,
                                                                options_);
        if (auto delay = step_->advance()) {
            timer_ = loop_.after(*delay, [this] { advance(); });
            return;
        }
        previous_[current_] = step_->previous();
        actual_[current_] = step_->actual();
        if (step_->outcome() != cgroup::ApplyOutcome::Applied) {
            const cgroup::ApplyOutcome outcome = step_->outcome();
            std::string message = step_->message();
            step_.reset();
            restoreFinished();
            finish(outcome, std::move(message));
            return;
        }
        step_.reset();
        ++current_;
    }
    finish(cgroup::ApplyOutcome::Applied, "");
}

// The changes before the failed one succeeded; they go back to what they
// read before their first write. Their earlier values were in force a moment
// ago, so the restore is forced rather than waiting for reclaim.
void Execution::restoreFinished()
{
    cgroup::ApplyOptions restoreOptions = options_;
    restoreOptions.force = true;
    while (current_ > 0) {
        --current_;
        CgroupChange& change = changes_[current_];
        const core::Resources previous = previous_[current_].restrictedTo(change.target);
        cgroup::ApplyTransaction restore(*change.backend, change.cgroup, previous, restoreOptions);
        while (restore.advance()) {
        }
        if (restore.outcome() != cgroup::ApplyOutcome::Applied)
            spdlog::warn("{}: cannot restore {}: {}", change.cgroup, core::describe(previous), restore.message());
        actual_[current_] = restore.actual();
    }
}

void Execution::finish(cgroup::ApplyOutcome outcome, std::string message)
{
    outcome_ = outcome;
    message_ = std::move(message);
    if (done_)
        done_(*this);
}

}  // namespace resized::service
