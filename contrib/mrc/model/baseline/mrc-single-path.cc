/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-single-path.h"

#include "ns3/mrc-fork.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSinglePath);

TypeId
MrcSinglePath::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSinglePath")
                            .SetParent<MrcPathSelector>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSinglePath>();
    return tid;
}

MrcSinglePath::MrcSinglePath() = default;
MrcSinglePath::~MrcSinglePath() = default;

void
MrcSinglePath::Init(const std::vector<uint32_t>& pathsPerPlane,
                    Ptr<UniformRandomVariable> rng,
                    uint32_t hash)
{
    NS_ABORT_MSG_IF(pathsPerPlane.empty(), "MrcSinglePath: no planes");
    m_rng = rng;
    m_pathsPerPlane = pathsPerPlane;
    const auto planes = static_cast<uint32_t>(pathsPerPlane.size());
    const uint16_t plane = hash % planes;
    const uint16_t path = (hash / planes) % pathsPerPlane[plane];
    m_quota.assign(planes, 0);
    m_quota[plane] = 1;
    m_evs.clear();
    m_evs.push_back({plane, path, GOOD, 0, 0, true, false, false, 0, 0});
    m_cursor = 0;
}

int32_t
MrcSinglePath::Select(uint64_t /* planeMask */)
{
    return 0;
}

int32_t
MrcSinglePath::SelectFresh(uint64_t /* planeMask */, int32_t /* exclude */)
{
    return 0;
}

Ptr<MrcPathSelector>
MrcSinglePath::Fork() const
{
    return MrcForkAs<MrcPathSelector>(this);
}

} // namespace ns3
