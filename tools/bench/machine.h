#pragma once

#include <string>

namespace resized::bench {

// The machine a run measured, as the report shows it.
struct Machine {
    unsigned cpus = 0;
    std::string cpuModel;
    std::string memory;
    std::string kernel;
    std::string podman;
    std::string cgroups;
    // The 1, 5 and 15 minute load averages when the run began and ended:
    // other work on the machine shows in every wall-clock figure.
    std::string loadAtStart;
    std::string loadAtEnd;
};

// Everything but loadAtEnd.
Machine describeMachine();

std::string loadAverage();

}  // namespace resized::bench
