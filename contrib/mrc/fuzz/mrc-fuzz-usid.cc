/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fuzz harness: the uSID carrier, from any 16-byte address and block length. Checks
 * that the per-packet static functions agree with the object, that shifting ends, and that a
 * carrier rebuilt from its uSIDs carries the same ones.
 */

#include "ns3/mrc-usid-carrier.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 17)
    {
        return 0;
    }
    const uint32_t blockBits = data[0];
    if (!MrcUsidCarrier::IsValidBlockBits(blockBits))
    {
        return 0;
    }
    uint8_t raw[16];
    std::memcpy(raw, data + 1, 16);
    MrcUsidCarrier c
        = MrcUsidCarrier::FromAddress(Ipv6Address(raw), static_cast<uint8_t>(blockBits));
    const uint32_t blockBytes = blockBits / 8;
    const auto usids = c.GetUsids();
    if (usids.size() > c.GetCapacity())
    {
        std::abort();
    }
    // A carrier rebuilt from the block and the uSIDs carries the same uSIDs.
    MrcUsidCarrier again(c.GetAddress(), c.GetBlockBits(), usids);
    if (again.GetUsids() != usids || again.GetActive() != c.GetActive())
    {
        std::abort();
    }
    // Shift to the end: the object and the per-packet functions agree at every step.
    uint8_t bytes[16];
    c.GetAddress().GetBytes(bytes);
    for (uint32_t step = 0; step <= c.GetCapacity(); ++step)
    {
        if (c.IsEnd())
        {
            return 0;
        }
        if (MrcUsidCarrier::ActiveOf(bytes, blockBytes) != c.GetActive())
        {
            std::abort();
        }
        c.Shift();
        MrcUsidCarrier::ShiftBytes(bytes, blockBytes);
        uint8_t check[16];
        c.GetAddress().GetBytes(check);
        if (std::memcmp(check, bytes, 16) != 0)
        {
            std::abort();
        }
    }
    std::abort(); // more shifts than the carrier has room for
}
