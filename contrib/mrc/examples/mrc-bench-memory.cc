/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief How long a load takes that depends on the one before it, over buffers of given sizes:
 * how much of the caches this process gets on this core now. `./ns3 bench` runs it before and
 * after each round, because the CPU a large simulation takes per packet follows how much of the
 * shared last-level cache the process gets (docs/performance.md, "What the cost per packet grows
 * with").
 *
 * `mrc-bench-memory [--sizes=8] [--loads=4000000]`: for each size, one pointer in each cache line
 * of a buffer of that many MiB (on transparent huge pages where the kernel gives them, so that
 * the walk measures the caches and not the TLB), the lines chained in a random cycle (a fixed
 * seed: the same cycle every run), walked once to load it and then `loads` times while timed.
 * It prints `dependent load over <N> MiB: <t> ns` per size.
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

#if defined(__linux__)
#    include <sys/mman.h>
#endif

using namespace ns3;

namespace
{

constexpr std::size_t LINE = 64;           //!< bytes per cache line
constexpr std::size_t PAGE = 2 << 20;      //!< a huge page, the buffer's alignment
constexpr uint64_t MAX_MIB = 1024;         //!< the largest size accepted
constexpr uint64_t MIN_LOADS = 1000;       //!< the fewest timed loads accepted
constexpr uint64_t MAX_LOADS = 1000000000; //!< the most timed loads accepted

/**
 * Parse a comma-separated list of sizes in MiB.
 * @param text the list
 * @param sizes set to the sizes
 * @return true if every item is a whole number from 1 to MAX_MIB
 */
bool
ParseSizes(const std::string& text, std::vector<uint64_t>& sizes)
{
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        uint64_t mib = 0;
        std::string why;
        if (!MrcNumberParser::ParseUnsigned(item, 1, MAX_MIB, mib, why))
        {
            return false;
        }
        sizes.push_back(mib);
    }
    return !sizes.empty() && text.back() != ',';
}

/**
 * Time the dependent loads over one buffer.
 * @param mib its size in MiB
 * @param loads the timed loads
 * @return nanoseconds per load
 */
double
Walk(uint64_t mib, uint64_t loads)
{
    const std::size_t bytes = mib << 20;
    const std::size_t lines = bytes / LINE;
    // aligned_alloc wants a whole number of alignments.
    auto* buffer = static_cast<char*>(std::aligned_alloc(PAGE, (bytes + PAGE - 1) / PAGE * PAGE));
    if (buffer == nullptr)
    {
        std::cerr << "error: --sizes: cannot allocate " << mib << " MiB" << std::endl;
        std::exit(1);
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(buffer, bytes, MADV_HUGEPAGE);
#endif
    std::vector<uint32_t> order(lines);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(1));
    for (std::size_t i = 0; i < lines; ++i)
    {
        *reinterpret_cast<void**>(buffer + order[i] * LINE)
            = buffer + order[(i + 1) % lines] * LINE;
    }
    void* p = buffer;
    for (std::size_t i = 0; i < lines; ++i)
    {
        p = *static_cast<void**>(p);
    }
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < loads; ++i)
    {
        p = *static_cast<void**>(p);
    }
    const auto end = std::chrono::steady_clock::now();
    // The walk's end is used, so that the loads are made.
    volatile uintptr_t sink = reinterpret_cast<uintptr_t>(p);
    (void) sink;
    std::free(buffer);
    return std::chrono::duration<double, std::nano>(end - start).count() / double(loads);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string sizes = "8";
    uint64_t loads = 4000000;
    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("sizes",
                 "Buffer sizes in MiB, comma-separated, each from 1 to 1024 (a process's share of "
                 "the last-level cache shows between the sizes that load quickly and those that "
                 "do not)",
                 sizes);
    cmd.AddValue("loads", "Timed loads per size", loads);
    cmd.SetRange("loads", MIN_LOADS, MAX_LOADS);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    std::vector<uint64_t> mibs;
    if (!ParseSizes(sizes, mibs))
    {
        std::cerr << "error: --sizes must be whole numbers of MiB from 1 to " << MAX_MIB
                  << ", comma-separated (got '" << sizes << "')" << std::endl;
        return 1;
    }
    for (const uint64_t mib : mibs)
    {
        std::cout << "dependent load over " << mib << " MiB: " << std::fixed << std::setprecision(1)
                  << Walk(mib, loads) << " ns" << std::endl;
    }
    return 0;
}
