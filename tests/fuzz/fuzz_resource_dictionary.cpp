// decodeResources, decodeOptions, SubmitPlan's options and SetPool's spec on
// a{sv} dictionaries built from the input: keys of the contract or any
// string, values of the expected type or of any other. A dictionary is
// refused with InvalidArgument, nothing else; accepted resources are within
// the contract's ranges and encode back to themselves.

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <sdbus-c++/Error.h>
#include <sdbus-c++/Types.h>

#include "bus/variants.h"
#include "core/resource_keys.h"
#include "core/validation.h"
#include "fuzz_check.h"
#include "service/errors.h"

using namespace resized;

namespace {

// The resource keys and the options of the contract.
const std::vector<std::string> kKnownKeys = [] {
    std::vector<std::string> keys{"DryRun",    "Force",  "Defer",  "ReclaimTimeoutUSec", "Pool",
                                  "DelayUSec", "Reason", "ExpectedGenerations", "Budgets", "Value",
                                  "PeriodUSec", "Reasons", "Schedule", "DurationUSec", "TimeZone"};
    core::forEachResourceKey([&keys](const auto& key) {
        if (key.audience == core::Audience::Callers)
            keys.emplace_back(key.name);
    });
    return keys;
}();

std::string consumeKey(FuzzedDataProvider& input)
{
    const size_t choice = input.ConsumeIntegralInRange<size_t>(0, kKnownKeys.size());
    if (choice < kKnownKeys.size())
        return kKnownKeys[choice];
    return input.ConsumeRandomLengthString(32);
}

// A variant of one of the types a caller could send. sd-bus refuses some
// values (a string that is not UTF-8): the bus would never deliver those.
sdbus::Variant consumeVariant(FuzzedDataProvider& input)
{
    switch (input.ConsumeIntegralInRange(0, 10)) {
    case 0:
        return sdbus::Variant(input.ConsumeIntegral<uint64_t>());
    case 1:
        return sdbus::Variant(input.ConsumeRandomLengthString(64));
    case 2:
        return sdbus::Variant(input.ConsumeBool());
    case 3:
        return sdbus::Variant(input.ConsumeIntegral<uint32_t>());
    case 4:
        return sdbus::Variant(input.ConsumeIntegral<int64_t>());
    case 5:
        return sdbus::Variant(input.ConsumeIntegral<int32_t>());
    case 6:
        return sdbus::Variant(input.ConsumeFloatingPoint<double>());
    case 7:
        return sdbus::Variant(std::vector<std::string>{input.ConsumeRandomLengthString(16)});
    case 8:
        return sdbus::Variant(std::map<std::string, uint64_t>{
            {input.ConsumeRandomLengthString(16), input.ConsumeIntegral<uint64_t>()}});
    case 9:
        return sdbus::Variant(std::vector<bus::Dictionary>{
            {{consumeKey(input), sdbus::Variant(input.ConsumeRandomLengthString(16))}}});
    default:
        return sdbus::Variant(bus::Dictionary{{input.ConsumeRandomLengthString(16),
                                               sdbus::Variant(input.ConsumeIntegral<uint64_t>())}});
    }
}

bus::Dictionary consumeDictionary(FuzzedDataProvider& input)
{
    bus::Dictionary dictionary;
    const size_t entries = input.ConsumeIntegralInRange<size_t>(0, 6);
    for (size_t i = 0; i < entries; ++i) {
        std::string key = consumeKey(input);
        try {
            dictionary.insert_or_assign(std::move(key), consumeVariant(input));
        } catch (const sdbus::Error&) {
        }
    }
    return dictionary;
}

void checkResources(const bus::Dictionary& dictionary)
{
    core::Resources resources;
    try {
        resources = bus::decodeResources(dictionary);
    } catch (const service::ResizeError& error) {
        FUZZ_CHECK(error.code() == service::ErrorCode::InvalidArgument);
        return;
    }
    FUZZ_CHECK(!core::outOfRange(resources));
    FUZZ_CHECK(bus::decodeResources(bus::encodeResources(resources)) == resources);
}

void checkOptions(const bus::Dictionary& dictionary)
{
    try {
        const service::UpdateOptions options = bus::decodeOptions(dictionary);
        FUZZ_CHECK(!options.reclaimTimeout || options.reclaimTimeout->count() >= 0);
    } catch (const service::ResizeError& error) {
        FUZZ_CHECK(error.code() == service::ErrorCode::InvalidArgument);
    }
}

void checkPlanOptions(const bus::Dictionary& dictionary)
{
    try {
        const service::PlanRequest request = bus::decodePlanRequest({}, dictionary);
        FUZZ_CHECK(request.delay.count() >= 0);
        FUZZ_CHECK(request.changes.empty());
    } catch (const service::ResizeError& error) {
        FUZZ_CHECK(error.code() == service::ErrorCode::InvalidArgument);
    }
}

void checkPoolSpec(const bus::Dictionary& dictionary)
{
    try {
        const service::PoolSpec spec = bus::decodePoolSpec(dictionary);
        if (spec.budgets)
            for (const auto& budget : *spec.budgets)
                FUZZ_CHECK(!budget.percent || budget.value <= 100);
    } catch (const service::ResizeError& error) {
        FUZZ_CHECK(error.code() == service::ErrorCode::InvalidArgument);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider input(data, size);
    const bus::Dictionary dictionary = consumeDictionary(input);
    checkResources(dictionary);
    checkOptions(dictionary);
    checkPlanOptions(dictionary);
    checkPoolSpec(dictionary);
    return 0;
}
