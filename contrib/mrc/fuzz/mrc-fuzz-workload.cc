/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the JSON workload reader. Any input is accepted or refused with a
 * one-line message; nothing else (no exception, no crash, no multi-line error).
 */

#include "ns3/mrc-workload-file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<MrcJobSpec> specs;
    std::string error;
    // "transfers" files are looked up in a directory that does not exist.
    const bool ok = MrcWorkloadFile::Parse(text, "fuzz", specs, error, "/nonexistent/mrc-fuzz");
    if (!ok && (error.empty() || error.find('\n') != std::string::npos))
    {
        std::abort(); // refused without a one-line message
    }
    return 0;
}
