/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-adaptive-spray.h"

#include "ns3/mrc-fork.h"

#include "ns3/boolean.h"
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
                            .AddConstructor<MrcAdaptiveSpray>()
                            .AddAttribute("EcnSkip",
                                          "An ACK echoing an ECN mark puts its EV in SKIP (MRC's "
                                          "load balancing); false only for the no-ecn-skip "
                                          "mutant (MrcMutant), which ignores the marks",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&MrcAdaptiveSpray::m_ecnSkip),
                                          MakeBooleanChecker());
    return tid;
}

MrcAdaptiveSpray::MrcAdaptiveSpray()
    : m_ecnSkip(true)
{
}

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
    if (ecn && m_ecnSkip)
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
MrcAdaptiveSpray::OnSuspectedLoss(uint16_t ev)
{
    if (ev >= m_evs.size() || !m_evs[ev].active)
    {
        return;
    }
    if (m_evs[ev].state == GOOD && CountInState(GOOD) <= m_minActive)
    {
        // At the floor no EV can wait out the verdict in SKIP: it stays GOOD until the
        // verdict (a lost packet retires it then), as nothing is retired for a queue.
        return;
    }
    // Hold the EV, and the EVs naming the same path, in SKIP until the verdict: nothing more
    // is sent into a path that may have failed, and nothing is retired for a queue.
    const uint16_t plane = m_evs[ev].plane;
    const uint16_t path = m_evs[ev].path;
    for (uint32_t i = 0; i < m_evs.size(); ++i)
    {
        Ev& e = m_evs[i];
        if (!e.active || e.plane != plane || e.path != path)
        {
            continue;
        }
        if (e.state == GOOD && CountInState(GOOD) > m_minActive)
        {
            SetState(static_cast<uint16_t>(i), SKIP, i == ev ? CAUSE_SACK_LOSS : CAUSE_SHARED_PATH);
        }
        if (e.state == SKIP)
        {
            e.skipLeft = SKIP_HELD;
        }
    }
}

void
MrcAdaptiveSpray::OnLossVerdict(uint16_t ev, bool lost)
{
    if (ev >= m_evs.size() || !m_evs[ev].active)
    {
        return;
    }
    if (lost)
    {
        Retire(ev, CAUSE_SACK_LOSS); // and the EVs naming the same path
        return;
    }
    const uint16_t plane = m_evs[ev].plane;
    const uint16_t path = m_evs[ev].path;
    for (uint32_t i = 0; i < m_evs.size(); ++i)
    {
        const Ev& e = m_evs[i];
        if (e.active && e.plane == plane && e.path == path && e.IsHeld())
        {
            SetState(static_cast<uint16_t>(i), GOOD, CAUSE_LATE_ARRIVAL);
        }
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

Ptr<MrcPathSelector>
MrcAdaptiveSpray::Fork() const
{
    return MrcForkAs<MrcPathSelector>(this);
}

} // namespace ns3
