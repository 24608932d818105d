// resized-metrics-exporter as resized-metrics.socket starts it: the
// listening socket passed the way systemd passes it (systemd-socket-activate),
// scraped over HTTP with curl, in front of the real daemon.

#include "daemon_test.h"

#include "support/child_process.h"
#include "support/command.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

using ::testing::HasSubstr;

struct HttpAnswer
{
    std::string status;
    std::string headers;
    std::string body;
};

class MetricsExporterTest : public ManagedContainerTest
{
  protected:
    void SetUp() override
    {
        ManagedContainerTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        // Short: a unix socket's path has at most 107 bytes, and the test's
        // own directory is named after the test.
        for (const auto* which : {"first", "second"})
        {
            sockets_.push_back(std::filesystem::temp_directory_path() /
                               ("resized-metrics-test-" + std::to_string(getpid()) + "-" + which + ".sock"));
        }
        exporterLog_ = daemonOptions().logFile.parent_path() / "exporter.log";
        // Two sockets, as resized-metrics.socket passes (IPv4 and IPv6).
        // systemd-socket-activate passes on only the variables it is told.
        exporter_.emplace(std::vector<std::string>{"systemd-socket-activate", "--listen=" + sockets_[0].string(),
                                                   "--listen=" + sockets_[1].string(),
                                                   "--setenv=DBUS_SYSTEM_BUS_ADDRESS", METRICS_EXPORTER_BINARY},
                          exporterLog_);
        for (const auto& socket : sockets_)
        {
            ASSERT_TRUE(waitUntil([&] { return std::filesystem::exists(socket); }, std::chrono::seconds(10)))
                << "systemd-socket-activate did not listen on " << socket << ": " << exporterLogText();
        }
    }

    void TearDown() override
    {
        if (HasFailure())
        {
            std::cerr << "The exporter's log:\n" << exporterLogText();
        }
        exporter_.reset();
        for (const auto& socket : sockets_)
        {
            std::filesystem::remove(socket);
        }
        ManagedContainerTest::TearDown();
    }

    std::string exporterLogText() const
    {
        std::ifstream log(exporterLog_);
        return std::string(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
    }

    HttpAnswer request(const std::string& path, const std::string& method = "GET", std::size_t socket = 0)
    {
        const auto result = runCommand({"curl", "--silent", "--show-error", "--max-time", "30", "--unix-socket",
                                        sockets_.at(socket).string(), "--request", method, "--include",
                                        "http://localhost" + path});
        EXPECT_EQ(result.exitStatus, 0) << result.standardError;
        HttpAnswer answer;
        const auto headersEnd = result.standardOutput.find("\r\n\r\n");
        answer.headers = result.standardOutput.substr(0, headersEnd);
        if (headersEnd != std::string::npos)
        {
            answer.body = result.standardOutput.substr(headersEnd + 4);
        }
        answer.status = answer.headers.substr(0, answer.headers.find("\r\n"));
        return answer;
    }

  private:
    std::vector<std::filesystem::path> sockets_;
    std::filesystem::path exporterLog_;
    std::optional<ChildProcess> exporter_;
};

TEST_F(MetricsExporterTest, AScrapeGetsTheDaemonsMetricsInTheTextFormat)
{
    const auto answer = request("/metrics");

    EXPECT_THAT(answer.status, HasSubstr(" 200 ")) << answer.body;
    EXPECT_THAT(answer.headers, HasSubstr("text/plain; version=0.0.4"));
    // SetUp's update, counted by the daemon.
    EXPECT_THAT(answer.body, HasSubstr("resized_update_requests_total{result=\"success\"} 1\n"));
    EXPECT_THAT(answer.body, HasSubstr("resized_workload_cpu_limit_millicores{workload=\"" + name() + "\"} 300\n"));
}

TEST_F(MetricsExporterTest, EverySocketFromSystemdIsServed)
{
    EXPECT_THAT(request("/metrics", "GET", 1).status, HasSubstr(" 200 "));
    EXPECT_THAT(request("/metrics", "GET", 0).status, HasSubstr(" 200 "));
}

TEST_F(MetricsExporterTest, OtherPathsAndMethodsAreRefused)
{
    EXPECT_THAT(request("/other").status, HasSubstr(" 404 "));
    const auto post = request("/metrics", "POST");
    EXPECT_THAT(post.status, HasSubstr(" 405 "));
    EXPECT_THAT(post.headers, HasSubstr("Allow: GET, HEAD"));
}

TEST_F(MetricsExporterTest, WithoutTheDaemonAScrapeIsUnavailableAndRecoversWhenItIsBack)
{
    daemon().stop();
    const auto away = request("/metrics");
    EXPECT_THAT(away.status, HasSubstr(" 503 "));
    EXPECT_THAT(away.body, HasSubstr("resized did not answer"));

    startDaemon();
    EXPECT_THAT(request("/metrics").status, HasSubstr(" 200 "));
}

} // namespace
} // namespace resized::integration
