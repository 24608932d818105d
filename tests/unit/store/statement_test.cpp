// Prepared statements are kept per SQL text and reused: each use must start
// as if freshly prepared, and a use must end the statement's hold on the
// database.

#include "store/database.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace resized;

namespace {

constexpr auto kInsert = "INSERT INTO items (name, amount) VALUES (?, ?)";
constexpr auto kNames = "SELECT name FROM items ORDER BY name";

class StatementTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        directory_ = std::filesystem::temp_directory_path() /
                     ("resized-statement-test-" + std::to_string(::getpid()) + "-" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(directory_);
        std::filesystem::create_directories(directory_);
        database_.emplace(directory_ / "state.db");
        database_->execute("CREATE TABLE items (name TEXT PRIMARY KEY, amount INTEGER)");
    }
    void TearDown() override
    {
        database_.reset();
        std::filesystem::remove_all(directory_);
    }

    store::Database& database() { return *database_; }

    void insert(const std::string& name, int64_t amount)
    {
        store::Statement(database(), kInsert).bind(1, name).bind(2, amount).run();
    }

    std::vector<std::string> names()
    {
        std::vector<std::string> found;
        store::Statement query(database(), kNames);
        while (query.step())
            found.push_back(query.text(0));
        return found;
    }

private:
    std::filesystem::path directory_;
    std::optional<store::Database> database_;
};

TEST_F(StatementTest, EachUseStartsWithNoParameterBound)
{
    constexpr auto kUnbound = "SELECT ?1 IS NULL";
    store::Statement bound(database(), kUnbound);
    bound.bind(1, int64_t{5});
    ASSERT_TRUE(bound.step());
    EXPECT_EQ(bound.integer(0), 0);

    // The statement above is still in use: this one is a second of the
    // same text. Once both are back, the kept one is reused below.
    store::Statement unboundWhileInUse(database(), kUnbound);
    ASSERT_TRUE(unboundWhileInUse.step());
    EXPECT_EQ(unboundWhileInUse.integer(0), 1);
}

TEST_F(StatementTest, ReusedStatementSeesNoLeftoverBinding)
{
    constexpr auto kUnbound = "SELECT ?1 IS NULL";
    {
        store::Statement first(database(), kUnbound);
        first.bind(1, int64_t{5});
        ASSERT_TRUE(first.step());
        ASSERT_EQ(first.integer(0), 0);
    }
    store::Statement reused(database(), kUnbound);
    ASSERT_TRUE(reused.step());
    EXPECT_EQ(reused.integer(0), 1);
}

TEST_F(StatementTest, SameTextRunsInsideItsOwnIteration)
{
    insert("a", 1);
    insert("b", 2);
    std::vector<std::string> outer;
    std::vector<std::vector<std::string>> inner;
    store::Statement query(database(), kNames);
    while (query.step()) {
        outer.push_back(query.text(0));
        inner.push_back(names());
    }
    EXPECT_EQ(outer, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(inner, (std::vector<std::vector<std::string>>{{"a", "b"}, {"a", "b"}}));
}

TEST_F(StatementTest, WorksAgainAfterAFailedStep)
{
    insert("a", 1);
    EXPECT_THROW(insert("a", 2), store::StoreError);
    insert("b", 2);
    EXPECT_EQ(names(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(StatementTest, AnAbandonedQueryHoldsNoLock)
{
    insert("a", 1);
    insert("b", 2);
    {
        store::Statement query(database(), kNames);
        ASSERT_TRUE(query.step());
    }
    // SQLite refuses to drop a table that a pending statement reads.
    EXPECT_NO_THROW(database().execute("DROP TABLE items"));
}

}  // namespace
