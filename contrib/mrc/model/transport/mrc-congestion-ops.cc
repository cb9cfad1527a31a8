/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-congestion-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcCongestionOps);

TypeId
MrcCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCongestionOps").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcCongestionOps::MrcCongestionOps() = default;
MrcCongestionOps::~MrcCongestionOps() = default;

uint64_t
MrcCongestionOps::GetPacingRate() const
{
    return 0;
}

void
MrcCongestionOps::OnCnp()
{
    OnAck(0, Time(0), true);
}

void
MrcCongestionOps::OnSent(uint32_t /* bytes */)
{
}

void
MrcCongestionOps::Init(uint32_t /* bdp */, Time /* baseRtt */, uint32_t /* mss */)
{
}

void
MrcCongestionOps::SetRateIncreaseCallback(Callback<void> cb)
{
    m_rateIncrease = cb;
}

void
MrcCongestionOps::NotifyRateIncrease()
{
    if (!m_rateIncrease.IsNull())
    {
        m_rateIncrease();
    }
}

void
MrcCongestionOps::DoDispose()
{
    m_rateIncrease = Callback<void>();
    Object::DoDispose();
}

Ptr<MrcCongestionOps>
MrcCongestionOps::Fork() const
{
    return nullptr;
}

} // namespace ns3
