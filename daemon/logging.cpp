#include "logging.h"

#include "journal_sink.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstdio>
#include <sys/stat.h>

namespace resized {
namespace {

// systemd sets JOURNAL_STREAM to "device:inode" of the stream it connected to
// stderr; only when it still matches is stderr the journal.
bool stderrIsJournal()
{
    const char* stream = std::getenv("JOURNAL_STREAM");
    if (!stream)
        return false;
    unsigned long long device = 0;
    unsigned long long inode = 0;
    if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2)
        return false;
    struct stat st {};
    return fstat(STDERR_FILENO, &st) == 0 && st.st_dev == device && st.st_ino == inode;
}

}  // namespace

void setUpLogging(std::string_view level)
{
    std::shared_ptr<spdlog::logger> logger;
    if (stderrIsJournal()) {
        logger = std::make_shared<spdlog::logger>("resized", std::make_shared<JournalSink>());
        logger->set_pattern("%v");
    } else {
        logger = spdlog::stderr_color_mt("resized");
    }
    logger->set_level(spdlog::level::from_str(level == "warning" ? "warn" : std::string(level)));
    spdlog::set_default_logger(logger);
}

}  // namespace resized
