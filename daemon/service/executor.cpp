#include "service/executor.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "failpoint/failpoint.h"

namespace resized::service {

Execution::Execution(EventLoop& loop, std::vector<CgroupChange> changes, cgroup::ApplyOptions options,
                     Done done, WorkerThread* peerCalls)
    : loop_(loop),
      changes_(std::move(changes)),
      options_(options),
      done_(std::move(done)),
      peerCalls_(peerCalls),
      previous_(changes_.size()),
      actual_(changes_.size())
{
}

void Execution::start() { advance(); }

const core::Resources& Execution::actualOf(const std::string& cgroup) const
{
    const auto change = std::find_if(changes_.begin(), changes_.end(),
                                     [&cgroup](const CgroupChange& candidate) { return candidate.cgroup == cgroup; });
    return actual(static_cast<size_t>(change - changes_.begin()));
}

const core::Resources* Execution::holdsNow(const std::string& cgroup) const
{
    if (outcome_ != cgroup::ApplyOutcome::Applied || changes_.empty() || changes_.back().cgroup != cgroup)
        return nullptr;
    return &actual_.back();
}

void Execution::advance()
{
    if (current_ == changes_.size()) {
        finish(cgroup::ApplyOutcome::Applied, "");
        return;
    }
    const CgroupChange& change = changes_[current_];
    if (!step_)
        step_ = std::make_shared<cgroup::ApplyTransaction>(*change.backend, change.cgroup, change.target, options_);
    if (offLoop(change)) {
        runOffLoop([step = step_] {
            const auto delay = step->advance();
            return [delay](Execution& execution) { execution.stepAdvanced(delay); };
        });
        return;
    }
    stepAdvanced(step_->advance());
}

void Execution::stepAdvanced(std::optional<std::chrono::milliseconds> delay)
{
    if (delay) {
        timer_ = loop_.after(*delay, [this] { advance(); });
        return;
    }
    previous_[current_] = step_->previous();
    actual_[current_] = step_->actual();
    const cgroup::ApplyOutcome outcome = step_->outcome();
    std::string message = step_->message();
    step_.reset();
    if (outcome != cgroup::ApplyOutcome::Applied && vanished(changes_[current_])) {
        spdlog::debug("{}: gone, left out of the change: {}", changes_[current_].cgroup, message);
        // Nothing of it to restore.
        previous_[current_] = {};
    } else if (outcome != cgroup::ApplyOutcome::Applied) {
        restoreFinished(outcome, std::move(message));
        return;
    }
    ++current_;
    if (current_ < changes_.size())
        failpoint("between-cgroups");
    advance();
}

bool Execution::vanished(const CgroupChange& change)
{
    if (!change.mayVanish)
        return false;
    try {
        change.backend->read(change.cgroup);
        return false;
    } catch (const cgroup::CgroupError&) {
        return true;
    }
}

void Execution::runOffLoop(std::function<std::function<void(Execution&)>()> job)
{
    peerCalls_->post([job = std::move(job), self = std::weak_ptr<Execution*>(self_)]() -> WorkerThread::Continuation {
        return [then = job(), self] {
            if (const auto alive = self.lock())
                then(**alive);
        };
    });
}

// The changes before the failed one succeeded; they go back to what they
// read before their first write. Their earlier values were in force a moment
// ago, so the restore is forced rather than waiting for reclaim.
void Execution::restoreFinished(cgroup::ApplyOutcome outcome, std::string message)
{
    std::vector<CgroupChange> restores;
    for (size_t done = current_; done > 0; --done) {
        const CgroupChange& change = changes_[done - 1];
        restores.push_back({change.backend, change.cgroup, previous_[done - 1].restrictedTo(change.target)});
    }
    cgroup::ApplyOptions restoreOptions = options_;
    restoreOptions.force = true;
    auto restore = [restores, restoreOptions, outcome, message = std::move(message)] {
        std::vector<core::Resources> actual;
        for (const auto& change : restores) {
            cgroup::ApplyTransaction transaction(*change.backend, change.cgroup, change.target, restoreOptions);
            while (transaction.advance()) {
            }
            if (transaction.outcome() != cgroup::ApplyOutcome::Applied)
                spdlog::warn("{}: cannot restore {}: {}", change.cgroup, core::describe(change.target),
                             transaction.message());
            actual.push_back(transaction.actual());
        }
        return [actual, outcome, message](Execution& execution) {
            for (size_t index = 0; index < actual.size(); ++index)
                execution.actual_[execution.current_ - 1 - index] = actual[index];
            execution.current_ = 0;
            execution.finish(outcome, message);
        };
    };
    if (std::any_of(restores.begin(), restores.end(), [this](const CgroupChange& change) { return offLoop(change); })) {
        runOffLoop(std::move(restore));
        return;
    }
    restore()(*this);
}

void Execution::finish(cgroup::ApplyOutcome outcome, std::string message)
{
    outcome_ = outcome;
    message_ = std::move(message);
    if (done_)
        done_(*this);
}

}  // namespace resized::service
