// Prepared statements are kept per SQL text and reused: each use must start
// as if freshly prepared, and a use must end the statement's hold on the
// database.

#include "store/database.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "temp_directory.h"

using namespace resized;

namespace {

constexpr auto kInsert = "INSERT INTO items (name, amount) VALUES (?, ?)";
constexpr auto kNames = "SELECT name FROM items ORDER BY name";

class StatementTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        database_.emplace(directory_.path() / "state.db");
        database_->execute("CREATE TABLE items (name TEXT PRIMARY KEY, amount INTEGER)");
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
    test::TempDirectory directory_;
    std::optional<store::Database> database_;
};

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
