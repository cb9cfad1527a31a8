/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-link-tier.h"

namespace ns3
{

const MrcNameTable<MrcLinkTier>&
MrcLinkTierNames()
{
    static const MrcNameTable<MrcLinkTier> names{{MrcLinkTier::HOST_T0, "host-t0"},
                                                 {MrcLinkTier::T0_HOST, "t0-host"},
                                                 {MrcLinkTier::T0_T1, "t0-t1"},
                                                 {MrcLinkTier::T1_T0, "t1-t0"},
                                                 {MrcLinkTier::T1_T2, "t1-t2"},
                                                 {MrcLinkTier::T2_T1, "t2-t1"}};
    return names;
}

bool
MrcIsUpwardTier(MrcLinkTier tier)
{
    return tier == MrcLinkTier::HOST_T0 || tier == MrcLinkTier::T0_T1 || tier == MrcLinkTier::T1_T2;
}

} // namespace ns3
