#pragma once

#include <ostream>

#include "machine.h"
#include "results.h"

namespace resized::bench {

// The whole run as Markdown, ready for docs/benchmarks.md: the machine, one
// table per measurement, and each goal with whether this run met it.
void printReport(std::ostream& out, const Machine& machine, const Results& results);

}  // namespace resized::bench
