/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-path-provider.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPathProvider);

TypeId
MrcPathProvider::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPathProvider").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

void
MrcPathProvider::GetPlanePaths(uint32_t src,
                               uint32_t dst,
                               uint32_t plane,
                               std::vector<Ipv6Address>& out) const
{
    const MrcPathSet set = GetPathSet(src, dst, plane);
    out.clear();
    out.reserve(set.count);
    for (uint32_t i = 0; i < set.count; ++i)
    {
        out.push_back(set.Get(i));
    }
}

} // namespace ns3
