// loadConfig on a real file: the input is written as resized.conf itself or
// as a drop-in beside an empty one (its first byte chooses). A file is either
// refused with a ConfigError naming it, or gives settings the daemon can run
// with.

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "config.h"
#include "core/resources.h"
#include "fuzz_check.h"

using namespace resized;

namespace {

// A folder of this process's own, removed when the fuzzer exits.
class ScratchDirectory {
public:
    ScratchDirectory()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "resized-fuzz-config.XXXXXX").string();
        FUZZ_CHECK(mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    ~ScratchDirectory()
    {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

void writeFile(const std::filesystem::path& file, std::string_view content)
{
    std::ofstream stream(file, std::ios::binary | std::ios::trunc);
    stream.write(content.data(), static_cast<std::streamsize>(content.size()));
    FUZZ_CHECK(stream.good());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const ScratchDirectory scratch;
    if (size == 0)
        return 0;
    const bool asDropIn = (data[0] & 1) != 0;
    const std::string_view content(reinterpret_cast<const char*>(data) + 1, size - 1);

    const std::filesystem::path mainFile = scratch.path() / "resized.conf";
    const std::filesystem::path dropInDir = scratch.path() / "resized.conf.d";
    const std::filesystem::path dropIn = dropInDir / "50-fuzz.conf";
    std::filesystem::create_directories(dropInDir);
    writeFile(mainFile, asDropIn ? std::string_view() : content);
    if (asDropIn)
        writeFile(dropIn, content);
    else
        std::filesystem::remove(dropIn);
    const std::filesystem::path& fuzzedFile = asDropIn ? dropIn : mainFile;

    try {
        const service::Settings settings = loadConfig(mainFile, service::Settings{});
        FUZZ_CHECK(!settings.stateDir.empty() && !settings.podmanSocket.empty() &&
                   !settings.cgroupRoot.empty() && !settings.adminGroup.empty());
        FUZZ_CHECK(settings.syncInterval.count() > 0);
        FUZZ_CHECK(settings.historyLimit > 0);
        FUZZ_CHECK(settings.systemReserve.cpuMillis != core::kUnlimited);
        FUZZ_CHECK(settings.systemReserve.memory != core::kUnlimited);
        FUZZ_CHECK(settings.retryInterval.count() >= 0);
        FUZZ_CHECK(settings.defaultReclaimTimeout.count() >= 0);
    } catch (const ConfigError& error) {
        FUZZ_CHECK(std::string_view(error.what()).starts_with(fuzzedFile.string()));
    }
    return 0;
}
