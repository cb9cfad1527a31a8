/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fabric-size.h"

#include <sstream>

namespace ns3
{

namespace
{

/**
 * Multiply two non-negative 64-bit integers, detecting overflow.
 * @param a first factor
 * @param b second factor
 * @param [out] result the product, valid only if the function returns true
 * @return true if the product fits in int64_t
 */
bool
CheckedMul(int64_t a, int64_t b, int64_t& result)
{
    return !__builtin_mul_overflow(a, b, &result);
}

/**
 * Add two non-negative 64-bit integers, detecting overflow.
 * @param a first term
 * @param b second term
 * @param [out] result the sum, valid only if the function returns true
 * @return true if the sum fits in int64_t
 */
bool
CheckedAdd(int64_t a, int64_t b, int64_t& result)
{
    return !__builtin_add_overflow(a, b, &result);
}

} // namespace

bool
MrcFabricSize::Compute(const std::string& design,
                       int64_t planes,
                       int64_t tiers,
                       int64_t radix,
                       int64_t portGbps,
                       MrcFabricSize& size)
{
    size = MrcFabricSize();
    size.design = design;
    size.planes = planes;
    size.tiers = tiers;
    size.radix = radix;
    size.portGbps = portGbps;

    const int64_t half = radix / 2;

    // topSwitches = (R/2)^(t-1) per plane; N = 2 * (R/2)^t = 2 * R/2 * topSwitches.
    int64_t topSwitches = 1;
    for (int64_t i = 1; i < tiers; ++i)
    {
        if (!CheckedMul(topSwitches, half, topSwitches))
        {
            return false;
        }
    }
    int64_t lowerSwitches = 0; // N / (R/2) = 2 * (R/2)^(t-1) per plane
    if (!CheckedMul(topSwitches, 2, lowerSwitches))
    {
        return false;
    }
    int64_t nics = 0;
    if (!CheckedMul(lowerSwitches, half, nics))
    {
        return false;
    }
    size.nics = nics;

    int64_t switchesTotal = 0;
    for (int64_t tier = 0; tier < tiers; ++tier)
    {
        const int64_t perPlane = (tier == tiers - 1) ? topSwitches : lowerSwitches;
        if (!CheckedMul(perPlane, planes, size.switches[tier])
            || !CheckedAdd(switchesTotal, size.switches[tier], switchesTotal))
        {
            return false;
        }
    }
    size.switchesTotal = switchesTotal;

    // Each plane: N host links plus N links at each of the t-1 inter-tier levels.
    int64_t linksPerPlane = 0;
    if (!CheckedMul(nics, planes, size.hostLinks) || !CheckedMul(nics, tiers, linksPerPlane)
        || !CheckedMul(linksPerPlane, planes, size.links))
    {
        return false;
    }
    return true;
}

std::string
MrcFabricSize::Format() const
{
    std::ostringstream os;
    os << "design=" << design << " planes=" << planes << " tiers=" << tiers << " radix=" << radix
       << " port_gbps=" << portGbps << " nics=" << nics;
    for (int64_t tier = 0; tier < MAX_TIERS; ++tier)
    {
        os << " switches_t" << tier << "=" << switches[tier];
    }
    os << " switches_total=" << switchesTotal << " links=" << links << " host_links=" << hostLinks;
    return os.str();
}

} // namespace ns3
