/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINK_TIER_H
#define MRC_LINK_TIER_H

#include "ns3/mrc-name-table.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A tier of links of a Clos fabric, in one direction of transmission: where a link's
 * transmitting end is and where it sends to.
 *
 * links.csv reports one row per plane and tier (MrcLinkMonitor, MrcRecorder); flap processes
 * act on the cables of an upward tier (MrcFaultInjector::AddFlapProcess: host-t0, t0-t1 or
 * t1-t2, the cable's name being its upward direction). The first four values are, in this
 * order, the tiers a flow-level fabric accounts (MrcFluidNetwork::GetTierBytes).
 */
enum class MrcLinkTier : uint8_t
{
    HOST_T0, //!< "host-t0": NIC ports towards their T0
    T0_HOST, //!< "t0-host": T0 ports towards their hosts (the last hop)
    T0_T1,   //!< "t0-t1": T0 uplinks
    T1_T0,   //!< "t1-t0": T1 ports towards the T0s
    T1_T2,   //!< "t1-t2": T1 uplinks (three tiers)
    T2_T1,   //!< "t2-t1": T2 ports (three tiers)
};

/**
 * @ingroup mrc
 * @return the one name table of MrcLinkTier: host-t0, t0-host, t0-t1, t1-t0, t1-t2, t2-t1
 */
const MrcNameTable<MrcLinkTier>& MrcLinkTierNames();

/**
 * @ingroup mrc
 * @param tier a tier
 * @return whether it is upward (host-t0, t0-t1, t1-t2), the direction that names a tier's
 *         cables
 */
bool MrcIsUpwardTier(MrcLinkTier tier);

} // namespace ns3

#endif /* MRC_LINK_TIER_H */
