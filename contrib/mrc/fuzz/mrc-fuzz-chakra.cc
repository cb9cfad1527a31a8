/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the Chakra execution-trace reader. The input is the rank files joined by
 * the separator "@RANK@". Any input is accepted or refused with a one-line message; an accepted
 * trace gives every rank exactly one node per collective, the two ends of every message one node
 * each, and dependencies on existing nodes of the same rank only.
 */

#include "ns3/mrc-chakra-trace.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string all(reinterpret_cast<const char*>(data), size);
    const std::string sep = "@RANK@";
    std::vector<std::string> files;
    std::vector<std::string> names;
    std::size_t at = 0;
    while (files.size() < 16)
    {
        const std::size_t next = all.find(sep, at);
        files.push_back(all.substr(at, next == std::string::npos ? std::string::npos : next - at));
        names.push_back("f" + std::to_string(names.size()));
        if (next == std::string::npos)
        {
            break;
        }
        at = next + sep.size();
    }
    MrcJobProgram p;
    std::string error;
    const bool ok = MrcChakraTrace::Parse(files, names, p, error);
    if (!ok && (error.empty() || error.find('\n') != std::string::npos))
    {
        std::abort(); // refused without a one-line message
    }
    if (!ok || !MrcChakraTrace::IsAvailable())
    {
        return 0;
    }
    const std::size_t n = p.ranks.size();
    if (n != files.size())
    {
        std::abort();
    }
    std::vector<std::vector<uint32_t>> count(n, std::vector<uint32_t>(p.ops.size(), 0));
    for (std::size_t r = 0; r < n; ++r)
    {
        for (const MrcProgramNode& nd : p.ranks[r])
        {
            if (!nd.compute && nd.op >= p.ops.size())
            {
                std::abort();
            }
            if (!nd.compute)
            {
                ++count[r][nd.op];
            }
            for (uint32_t d : nd.deps)
            {
                if (d >= p.ranks[r].size())
                {
                    std::abort();
                }
            }
        }
    }
    for (std::size_t o = 0; o < p.ops.size(); ++o)
    {
        const MrcProgramOp& op = p.ops[o];
        for (std::size_t r = 0; r < n; ++r)
        {
            const uint32_t want = op.p2p ? (r == op.src || r == op.dst ? 1 : 0) : 1;
            if (count[r][o] != want || op.bytes == 0 || (op.p2p && op.src == op.dst))
            {
                std::abort(); // an operation the job could not run
            }
        }
    }
    return 0;
}
