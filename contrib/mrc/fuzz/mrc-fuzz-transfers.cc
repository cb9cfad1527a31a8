/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the CSV transfer-list reader. Any input is accepted or refused with a
 * one-line message; an accepted list names only ranks it counts and earlier rows.
 */

#include "ns3/mrc-workload-file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    MrcTransferList list;
    std::string error;
    const bool ok = MrcWorkloadFile::ParseTransferList(text, "fuzz", list, error);
    if (!ok && (error.empty() || error.find('\n') != std::string::npos))
    {
        std::abort(); // refused without a one-line message
    }
    if (!ok)
    {
        return 0;
    }
    for (const auto& step : list.steps)
    {
        for (std::size_t i = 0; i < step.size(); ++i)
        {
            const MrcTransfer& t = step[i];
            if (t.srcRank >= list.nRanks || t.dstRank >= list.nRanks || t.srcRank == t.dstRank
                || t.bytes == 0 || t.bytes > (uint64_t(1) << 32))
            {
                std::abort(); // an accepted row the workload cannot run
            }
            for (uint32_t dep : t.deps)
            {
                bool earlier = false;
                for (std::size_t j = 0; j < i && !earlier; ++j)
                {
                    earlier = step[j].id == dep;
                }
                if (!earlier)
                {
                    std::abort(); // a dependency on no earlier transfer of its step
                }
            }
        }
    }
    return 0;
}
