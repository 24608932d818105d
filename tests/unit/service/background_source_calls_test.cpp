// BackgroundListing and BackgroundLookup on the daemon's sd-event loop and a
// real thread: the loop goes on while a source is slow to answer; callers
// that ask for a listing meanwhile get one begun after they asked; single
// workloads are found in the order asked.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include "service/background_listing.h"
#include "service/background_lookup.h"
#include "run_loop.h"

namespace resized::service {
namespace {

using test::runLoopUntil;

// Each call waits until the test lets one through. list() answers with one
// container named after how many calls have begun; find() with the
// container asked for, but none for "absent" and two for "ambiguous".
class GatedSource final : public WorkloadSource {
public:
    std::optional<Instance> find(const core::WorkloadName& name) override
    {
        waitForPass();
        if (name.name == "ambiguous")
            throw AmbiguousName("\"ambiguous\" matches more than one container");
        if (name.name == "absent")
            return std::nullopt;
        Instance instance;
        instance.name = name;
        return instance;
    }

    std::vector<Instance> list() override
    {
        const int listing = waitForPass();
        Instance instance;
        instance.name = {core::WorkloadKind::Container, "listing-" + std::to_string(listing)};
        return {instance};
    }

    void letOneThrough()
    {
        const std::lock_guard lock(mutex_);
        ++passes_;
        changed_.notify_all();
    }

    bool waitUntilBegun(int listings)
    {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return begun_ >= listings; });
    }

    int begun()
    {
        const std::lock_guard lock(mutex_);
        return begun_;
    }

    void setReachable(bool reachable)
    {
        const std::lock_guard lock(mutex_);
        reachable_ = reachable;
    }

private:
    // The number of this call.
    int waitForPass()
    {
        std::unique_lock lock(mutex_);
        const int call = ++begun_;
        changed_.notify_all();
        changed_.wait(lock, [this] { return passes_ > 0; });
        --passes_;
        if (!reachable_)
            throw SourceUnavailable("Podman cannot be reached: test");
        return call;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    int begun_ = 0;
    int passes_ = 0;
    bool reachable_ = true;
};

// The one container's name of a listing, or why it failed.
std::string describe(const BackgroundListing::Result& result)
{
    if (const auto* unavailable = std::get_if<SourceUnavailable>(&result))
        return std::string("unavailable: ") + unavailable->what();
    const auto& instances = std::get<std::vector<Instance>>(result);
    return instances.size() == 1 ? instances.front().name.name : "listed " + std::to_string(instances.size());
}

class BackgroundListingTest : public ::testing::Test {
protected:
    EventLoop loop_;
    GatedSource source_;
};

TEST_F(BackgroundListingTest, TheLoopServesWhileTheSourceIsSlow)
{
    BackgroundListing listing(loop_, source_);
    std::optional<std::string> listed;
    listing.list([&](BackgroundListing::Result result) { listed = describe(result); });
    ASSERT_TRUE(source_.waitUntilBegun(1));

    bool timerFired = false;
    const auto timer = loop_.after(std::chrono::milliseconds(1), [&] { timerFired = true; });
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return timerFired; }));
    EXPECT_FALSE(listed) << "delivered before the source answered";

    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return listed.has_value(); }));
    EXPECT_EQ(*listed, "listing-1");
}

TEST_F(BackgroundListingTest, CallersDuringAListingShareTheNextOne)
{
    BackgroundListing listing(loop_, source_);
    std::vector<std::string> first;
    std::vector<std::string> later;
    listing.list([&](BackgroundListing::Result result) { first.push_back(describe(result)); });
    ASSERT_TRUE(source_.waitUntilBegun(1));
    listing.list([&](BackgroundListing::Result result) { later.push_back(describe(result)); });
    listing.list([&](BackgroundListing::Result result) { later.push_back(describe(result)); });

    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return !first.empty(); }));
    EXPECT_EQ(first, std::vector<std::string>{"listing-1"});
    EXPECT_TRUE(later.empty()) << "given a listing begun before they asked";

    ASSERT_TRUE(source_.waitUntilBegun(2));
    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return later.size() == 2; }));
    EXPECT_EQ(later, (std::vector<std::string>{"listing-2", "listing-2"}));
    EXPECT_EQ(source_.begun(), 2) << "one listing for both callers that asked meanwhile";
}

TEST_F(BackgroundListingTest, AnUnreachableSourceIsReportedAndTheNextListingWorks)
{
    BackgroundListing listing(loop_, source_);
    source_.setReachable(false);
    std::optional<std::string> listed;
    listing.list([&](BackgroundListing::Result result) { listed = describe(result); });
    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return listed.has_value(); }));
    EXPECT_EQ(*listed, "unavailable: Podman cannot be reached: test");

    source_.setReachable(true);
    listed.reset();
    listing.list([&](BackgroundListing::Result result) { listed = describe(result); });
    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return listed.has_value(); }));
    EXPECT_EQ(*listed, "listing-2");
}

// The container a lookup found, "none", or why there is no answer.
std::string describe(const Found& found)
{
    if (const auto* unavailable = std::get_if<SourceUnavailable>(&found))
        return std::string("unavailable: ") + unavailable->what();
    if (const auto* ambiguous = std::get_if<AmbiguousName>(&found))
        return std::string("ambiguous: ") + ambiguous->what();
    const auto& instance = std::get<std::optional<Instance>>(found);
    return instance ? instance->name.canonical() : "none";
}

class BackgroundLookupTest : public ::testing::Test {
protected:
    EventLoop loop_;
    GatedSource source_;
    BackgroundLookup lookup_{loop_, WorkloadSources{.containers = &source_}};
    std::vector<std::string> found_;

    void find(const std::string& name)
    {
        lookup_.find({core::WorkloadKind::Container, name}, [this](Found found) { found_.push_back(describe(found)); });
    }
};

TEST_F(BackgroundLookupTest, TheLoopServesWhileAFindIsSlowAndAnswersComeInTheOrderAsked)
{
    find("web");
    find("absent");
    find("db");
    ASSERT_TRUE(source_.waitUntilBegun(1));

    bool timerFired = false;
    const auto timer = loop_.after(std::chrono::milliseconds(1), [&] { timerFired = true; });
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return timerFired; }));
    EXPECT_TRUE(found_.empty()) << "answered before the source did";
    EXPECT_EQ(source_.begun(), 1) << "finds run one after another";

    for (int call = 0; call < 3; ++call)
        source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return found_.size() == 3; }));
    EXPECT_EQ(found_, (std::vector<std::string>{"web", "none", "db"}));
}

TEST_F(BackgroundLookupTest, WhatTheSourceThrowsIsTheOutcome)
{
    find("ambiguous");
    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return found_.size() == 1; }));
    source_.setReachable(false);
    find("web");
    source_.letOneThrough();
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return found_.size() == 2; }));
    lookup_.find({core::WorkloadKind::Unit, "nginx.service"},
                 [this](Found found) { found_.push_back(describe(found)); });
    ASSERT_TRUE(runLoopUntil(loop_, [&] { return found_.size() == 3; }));

    EXPECT_EQ(found_, (std::vector<std::string>{
                          "ambiguous: \"ambiguous\" matches more than one container",
                          "unavailable: Podman cannot be reached: test",
                          "unavailable: this node has no runtime for workloads of kind unit",
                      }));
}

}  // namespace
}  // namespace resized::service
