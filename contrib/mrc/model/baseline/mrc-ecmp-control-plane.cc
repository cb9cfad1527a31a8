/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-ecmp-control-plane.h"

#include "ns3/mrc-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEcmpControlPlane");
NS_OBJECT_ENSURE_REGISTERED(MrcEcmpControlPlane);

TypeId
MrcEcmpControlPlane::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcEcmpControlPlane")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcEcmpControlPlane>()
              .AddAttribute(
                  "DetectionDelay",
                  "How long a link must keep a new state (down or up) before the switches "
                  "next to it stop (or resume) using it, as BFD's detection time (deployed: "
                  "3 x 50 ms hellos); a shorter outage goes unnoticed",
                  TimeValue(MilliSeconds(150)),
                  MakeTimeAccessor(&MrcEcmpControlPlane::m_detection),
                  MakeTimeChecker(Time(0)))
              .AddAttribute("ReconvergenceDelay",
                            "Further delay before every switch's routes reflect the change, as BGP "
                            "(deployed: seconds)",
                            TimeValue(Seconds(2)),
                            MakeTimeAccessor(&MrcEcmpControlPlane::m_reconvergence),
                            MakeTimeChecker(Time(0)));
    return tid;
}

MrcEcmpControlPlane::MrcEcmpControlPlane()
    : m_hosts(0)
    , m_hostsPerT0(1)
    , m_recomputations(0)
    , m_detections(0)
{
}

MrcEcmpControlPlane::~MrcEcmpControlPlane() = default;

void
MrcEcmpControlPlane::DoDispose()
{
    m_switches.clear();
    m_links.clear();
    m_adj.clear();
    Object::DoDispose();
}

void
MrcEcmpControlPlane::SetHosts(uint32_t hosts, uint32_t hostsPerT0)
{
    NS_ABORT_MSG_IF(hostsPerT0 == 0, "MrcEcmpControlPlane: hostsPerT0 must be positive");
    m_hosts = hosts;
    m_hostsPerT0 = hostsPerT0;
}

void
MrcEcmpControlPlane::AddSwitch(uint32_t plane, Ptr<MrcSwitchNetDevice> sw, bool isT0)
{
    if (plane >= m_switches.size())
    {
        m_switches.resize(plane + 1);
        m_adj.resize(plane + 1);
        m_nT0.resize(plane + 1, 0);
    }
    NS_ABORT_MSG_IF(isT0 && m_nT0[plane] != m_switches[plane].size(),
                    "MrcEcmpControlPlane: add a plane's T0s before its other switches");
    m_switches[plane].push_back(sw);
    m_adj[plane].emplace_back();
    m_nT0[plane] += isT0 ? 1 : 0;
}

void
MrcEcmpControlPlane::AddLink(
    uint32_t plane, uint32_t aSw, uint16_t aPort, int32_t bSw, uint16_t bPort, Ptr<MrcChannel> ch)
{
    NS_ABORT_MSG_IF(plane >= m_switches.size() || aSw >= m_switches[plane].size()
                        || (bSw >= 0 && static_cast<uint32_t>(bSw) >= m_switches[plane].size()),
                    "MrcEcmpControlPlane: a link to a switch not added");
    const auto idx = static_cast<uint32_t>(m_links.size());
    m_links.push_back({plane, {aSw, aPort}, bSw, bPort, ch, true, true, 0});
    m_adj[plane][aSw].push_back(idx);
    if (bSw >= 0)
    {
        m_adj[plane][bSw].push_back(idx);
    }
}

void
MrcEcmpControlPlane::Start()
{
    for (uint32_t p = 0; p < m_switches.size(); ++p)
    {
        RecomputeRoutes(p);
    }
    for (uint32_t l = 0; l < m_links.size(); ++l)
    {
        m_links[l].ch->GetMrcDevice(0)->AddLinkChangeCallback(
            MakeCallback(&MrcEcmpControlPlane::LinkChanged, this).Bind(l));
    }
}

uint64_t
MrcEcmpControlPlane::GetRecomputations() const
{
    return m_recomputations;
}

uint64_t
MrcEcmpControlPlane::GetDetections() const
{
    return m_detections;
}

void
MrcEcmpControlPlane::RecomputeRoutes(uint32_t plane)
{
    ++m_recomputations;
    const uint32_t nT0 = m_nT0[plane];
    const auto nSw = static_cast<uint32_t>(m_adj[plane].size());
    // groups[sw][t]: next-hop ports of switch sw toward T0 t (shortest paths, routing view).
    std::vector<std::vector<std::vector<uint16_t>>> groups(nSw,
                                                           std::vector<std::vector<uint16_t>>(nT0));
    std::vector<uint32_t> dist(nSw);
    std::vector<uint32_t> queue;
    for (uint32_t t = 0; t < nT0; ++t)
    {
        std::fill(dist.begin(), dist.end(), UINT32_MAX);
        queue.assign(1, t);
        dist[t] = 0;
        for (std::size_t q = 0; q < queue.size(); ++q)
        {
            const uint32_t s = queue[q];
            for (uint32_t l : m_adj[plane][s])
            {
                const Link& link = m_links[l];
                if (link.bSw < 0 || !link.viewUp)
                {
                    continue;
                }
                const uint32_t n = link.a.sw == s ? static_cast<uint32_t>(link.bSw) : link.a.sw;
                if (dist[n] == UINT32_MAX)
                {
                    dist[n] = dist[s] + 1;
                    queue.push_back(n);
                }
            }
        }
        for (uint32_t s = 0; s < nSw; ++s)
        {
            if (s == t || dist[s] == UINT32_MAX)
            {
                continue;
            }
            for (uint32_t l : m_adj[plane][s])
            {
                const Link& link = m_links[l];
                if (link.bSw < 0 || !link.viewUp)
                {
                    continue;
                }
                const bool sIsA = link.a.sw == s;
                const uint32_t n = sIsA ? static_cast<uint32_t>(link.bSw) : link.a.sw;
                if (dist[n] + 1 == dist[s])
                {
                    groups[s][t].push_back(sIsA ? link.a.port : link.bPort);
                }
            }
        }
    }
    for (uint32_t s = 0; s < nSw; ++s)
    {
        std::vector<uint32_t> hostGroup(m_hosts);
        std::vector<std::vector<uint16_t>> g = std::move(groups[s]);
        for (uint32_t h = 0; h < m_hosts; ++h)
        {
            const uint32_t t = h / m_hostsPerT0;
            if (s == t)
            {
                hostGroup[h] = static_cast<uint32_t>(g.size());
                g.push_back({static_cast<uint16_t>(h % m_hostsPerT0)});
            }
            else
            {
                hostGroup[h] = t;
            }
        }
        m_switches[plane][s]->SetEcmpRoutes(std::move(hostGroup), std::move(g));
    }
}

void
MrcEcmpControlPlane::LinkChanged(uint32_t link)
{
    Link& l = m_links[link];
    ++l.changes;
    Simulator::Schedule(
        m_detection, &MrcEcmpControlPlane::ApplyDetection, this, link, l.ch->IsUp(), l.changes);
}

void
MrcEcmpControlPlane::ApplyDetection(uint32_t link, bool up, uint32_t change)
{
    Link& l = m_links[link];
    if (change != l.changes || up == l.detectedUp)
    {
        // The cable changed again within the detection time (a flap shorter than BFD's
        // detection time is never seen), or its state is the one already declared.
        return;
    }
    l.detectedUp = up;
    ++m_detections;
    m_switches[l.plane][l.a.sw]->SetPortUsable(l.a.port, up);
    if (l.bSw >= 0)
    {
        m_switches[l.plane][l.bSw]->SetPortUsable(l.bPort, up);
    }
    Simulator::Schedule(m_reconvergence, &MrcEcmpControlPlane::ApplyReconvergence, this, link, up);
}

void
MrcEcmpControlPlane::ApplyReconvergence(uint32_t link, bool up)
{
    Link& l = m_links[link];
    if (l.viewUp == up || l.bSw < 0)
    {
        l.viewUp = up;
        return; // host links do not change routes beyond their T0
    }
    l.viewUp = up;
    RecomputeRoutes(l.plane);
}

} // namespace ns3
