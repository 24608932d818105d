// Calls one method of resized on the system bus and prints "ok" or the
// error's name and message, "NAME: MESSAGE" (busctl prints only a generic
// text for an error, so it cannot tell the bus policy's refusal from the
// daemon's). The authorization tests run it as users without privileges:
//
//   hostile_bus_caller OBJECT_PATH INTERFACE METHOD [STRING]
//
// STRING, when given, is the first argument; the update methods (Manager's
// UpdateResources, Workload's Update) then get resources {CpuMillis: 500}
// and no options, SetAutoscalePolicy the policy {CpuTargetUtilization: 50},
// ReportMetrics the values {fps: 30}, SetPool the spec {CpuMillis: 500}. SubmitPlan gets instead a dry run of
// one change, CpuMillis 500 for the workload STRING.

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 4 || argc > 5)
    {
        std::cerr << "usage: " << argv[0] << " OBJECT_PATH INTERFACE METHOD [STRING]\n";
        return 2;
    }
    const std::string method = argv[3];
    try
    {
        const auto proxy =
            sdbus::createProxy(sdbus::createSystemBusConnection(), "io.resized1", argv[1]);
        auto call = proxy->createMethodCall(argv[2], method);
        using Dictionary = std::map<std::string, sdbus::Variant>;
        if (method == "SubmitPlan")
        {
            const std::vector<sdbus::Struct<std::string, Dictionary>> changes{
                {std::string(argc == 5 ? argv[4] : ""), {{"CpuMillis", sdbus::Variant(std::uint64_t{500})}}}};
            call << changes << Dictionary{{"DryRun", sdbus::Variant(true)}};
        }
        else if (argc == 5)
        {
            call << std::string(argv[4]);
        }
        if (method == "UpdateResources" || method == "Update")
        {
            call << Dictionary{{"CpuMillis", sdbus::Variant(std::uint64_t{500})}} << Dictionary{};
        }
        if (method == "SetAutoscalePolicy")
        {
            call << Dictionary{{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})}};
        }
        if (method == "ReportMetrics")
        {
            call << std::map<std::string, double>{{"fps", 30.0}};
        }
        if (method == "SetPool")
        {
            call << Dictionary{{"CpuMillis", sdbus::Variant(std::uint64_t{500})}};
        }
        proxy->callMethod(call);
        std::cout << "ok\n";
    }
    catch (const sdbus::Error& error)
    {
        std::cout << error.getName() << ": " << error.getMessage() << "\n";
    }
    return 0;
}
