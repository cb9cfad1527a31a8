/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-adaptive-spray.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcAdaptiveSpray");
NS_OBJECT_ENSURE_REGISTERED(MrcAdaptiveSpray);

TypeId
MrcAdaptiveSpray::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcAdaptiveSpray")
                            .SetParent<MrcPathSelector>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcAdaptiveSpray>();
    return tid;
}

MrcAdaptiveSpray::MrcAdaptiveSpray() = default;
MrcAdaptiveSpray::~MrcAdaptiveSpray() = default;

void
MrcAdaptiveSpray::Skip(uint16_t ev, Cause cause)
{
    if (ev >= m_evs.size() || m_evs[ev].state != GOOD || !m_evs[ev].active)
    {
        return;
    }
    if (CountInState(GOOD) <= m_minActive)
    {
        return;
    }
    SetState(ev, SKIP, cause);
}

void
MrcAdaptiveSpray::OnAck(uint16_t ev, bool ecn)
{
    if (ecn)
    {
        Skip(ev, CAUSE_ECN);
    }
}

void
MrcAdaptiveSpray::OnNack(uint16_t ev, bool lastHop)
{
    if (!lastHop)
    {
        Skip(ev, CAUSE_TRIM);
    }
}

void
MrcAdaptiveSpray::OnLoss(uint16_t ev, Cause cause)
{
    if (ev < m_evs.size())
    {
        Retire(ev, cause);
    }
}

void
MrcAdaptiveSpray::OnProbeResult(uint16_t ev, bool success)
{
    if (ev >= m_evs.size())
    {
        return;
    }
    Ev& e = m_evs[ev];
    e.probePending = false;
    if (e.state != ASSUMED_BAD)
    {
        return;
    }
    if (!success)
    {
        e.probeOk = 0;
        return;
    }
    if (++e.probeOk < m_probeSuccesses)
    {
        return;
    }
    SetState(ev, GOOD, CAUSE_PROBE);
    // Release the newest replacement in that plane if the plane is above its quota again.
    uint32_t inPlane = 0;
    for (const auto& o : m_evs)
    {
        inPlane += (o.active && o.plane == e.plane && o.state != ASSUMED_BAD) ? 1 : 0;
    }
    if (inPlane <= m_quota[e.plane])
    {
        return;
    }
    for (uint32_t i = m_evs.size(); i-- > 0;)
    {
        Ev& o = m_evs[i];
        if (o.active && o.replacement && o.plane == e.plane && o.state != ASSUMED_BAD)
        {
            o.active = false; // not ASSUMED_BAD, so m_nBad is unchanged
            m_stateTrace(static_cast<uint16_t>(i), o.state, o.state, CAUSE_RELEASED);
            break;
        }
    }
}

} // namespace ns3
