#pragma once

#include <cstdio>
#include <cstdlib>

// An invariant of the code under test. A broken one aborts, which libFuzzer
// reports as a crash and keeps the input that caused it.
#define FUZZ_CHECK(condition)                                                          \
    do {                                                                               \
        if (!(condition)) {                                                            \
            std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
                         #condition);                                                  \
            std::abort();                                                              \
        }                                                                              \
    } while (false)
