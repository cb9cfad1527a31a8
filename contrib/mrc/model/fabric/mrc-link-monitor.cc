/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-link-monitor.h"

#include "ns3/mrc-simulator-impl.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcLinkMonitor);

// A flow-level fabric's tier t (MrcFluidNetwork::GetTierBytes) is MrcLinkTier t.
static_assert(static_cast<int>(MrcLinkTier::HOST_T0) == 0
                  && static_cast<int>(MrcLinkTier::T0_HOST) == 1
                  && static_cast<int>(MrcLinkTier::T0_T1) == 2
                  && static_cast<int>(MrcLinkTier::T1_T0) == 3,
              "MrcFluidNetwork's tiers are MrcLinkTier's first four");

TypeId
MrcLinkMonitor::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcLinkMonitor")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcLinkMonitor>()
              .AddTraceSource("LinkSample",
                              "One group's utilisation and backlog over the last bin (time in us, "
                              "plane, tier, utilisation, mean backlog, largest backlog)",
                              MakeTraceSourceAccessor(&MrcLinkMonitor::m_sampleTrace),
                              "ns3::MrcLinkMonitor::SampleTracedCallback");
    return tid;
}

MrcLinkMonitor::MrcLinkMonitor()
    : m_rate(0)
    , m_sampling(false)
    , m_lastIdle(false)
    , m_activity(0)
    , m_activityAtSample(0)
    , m_countsActivity(true)
{
}

MrcLinkMonitor::~MrcLinkMonitor()
{
    StopCounting();
}

void
MrcLinkMonitor::StopCounting()
{
    for (auto& g : m_groups)
    {
        for (const auto& p : g.ports)
        {
            p->ReleaseActivityCounter(&m_activity);
        }
    }
}

void
MrcLinkMonitor::DoDispose()
{
    m_sampleEvent.Cancel();
    StopCounting();
    m_groups.clear();
    m_fluid = nullptr;
    Object::DoDispose();
}

void
MrcLinkMonitor::AddGroup(uint32_t plane, MrcLinkTier tier, std::vector<Ptr<MrcNetDevice>> ports)
{
    Group g;
    g.plane = plane;
    g.tier = tier;
    g.ports = std::move(ports);
    g.lastBytes.reserve(g.ports.size());
    for (const auto& p : g.ports)
    {
        g.lastBytes.push_back(p->GetTxBytes());
        // A port another monitor counts for cannot count for this one too: then every bin
        // reads the ports.
        m_countsActivity = p->SetActivityCounter(&m_activity) && m_countsActivity;
    }
    m_groups.push_back(std::move(g));
}

void
MrcLinkMonitor::SetFluid(Ptr<MrcFluidNetwork> net)
{
    m_fluid = net;
    m_fluid->EnableTierAccounting();
    m_fluidLast = m_fluid->GetTierBytes();
}

void
MrcLinkMonitor::Start(Time bin, double linkRate)
{
    m_bin = bin;
    m_rate = linkRate;
    m_sampling = true;
    m_lastIdle = false;
    m_sampleEvent = Simulator::Schedule(bin, &MrcLinkMonitor::Sample, this);
}

void
MrcLinkMonitor::Stop()
{
    m_sampling = false;
    m_sampleEvent.Cancel();
}

void
MrcLinkMonitor::Sample()
{
    if (!m_sampling)
    {
        return;
    }
    const double now = MrcNow().GetNanoSeconds() / 1000.0;
    if (m_fluid)
    {
        const std::vector<double> bytes = m_fluid->GetTierBytes();
        bool idle = true;
        for (std::size_t t = 0; t < bytes.size(); ++t)
        {
            idle = idle && bytes[t] - m_fluidLast[t] < 0.5;
        }
        if (!idle || !m_lastIdle)
        {
            for (std::size_t t = 0; t < bytes.size(); ++t)
            {
                const double util = (bytes[t] - m_fluidLast[t]) * 8.0
                                  / (m_bin.GetSeconds() * m_rate * m_fluid->GetTierLinks(t % 4));
                m_sampleTrace(now,
                              static_cast<uint32_t>(t / 4),
                              static_cast<MrcLinkTier>(t % 4),
                              std::min(std::max(util, 0.0), 1.0),
                              0.0,
                              0);
            }
        }
        m_fluidLast = bytes;
        m_lastIdle = idle;
        m_sampleEvent = Simulator::Schedule(m_bin, &MrcLinkMonitor::Sample, this);
        return;
    }
    if (m_lastIdle && m_countsActivity && m_activity == m_activityAtSample)
    {
        // Nothing was offered to or started on any port since an idle bin: no port sent a
        // byte and every data backlog is still empty. Idle again, and not reported.
        m_sampleEvent = Simulator::Schedule(m_bin, &MrcLinkMonitor::Sample, this);
        return;
    }
    m_activityAtSample = m_activity;
    bool idle = true;
    for (auto& g : m_groups)
    {
        uint64_t bytes = 0;
        double qsum = 0;
        uint32_t qmax = 0;
        for (std::size_t i = 0; i < g.ports.size(); ++i)
        {
            const uint64_t tx = g.ports[i]->GetTxBytes();
            bytes += tx - g.lastBytes[i];
            g.lastBytes[i] = tx;
            const uint32_t q = g.ports[i]->GetQueuedDataBytes();
            qsum += q;
            qmax = std::max(qmax, q);
        }
        g.bytes = bytes;
        g.qsum = qsum;
        g.qmax = qmax;
        idle = idle && bytes == 0 && qmax == 0;
    }
    if (!idle || !m_lastIdle)
    {
        for (const auto& g : m_groups)
        {
            const double util = g.bytes * 8.0 / (m_bin.GetSeconds() * m_rate * g.ports.size());
            m_sampleTrace(
                now, g.plane, g.tier, std::min(util, 1.0), g.qsum / g.ports.size(), g.qmax);
        }
    }
    m_lastIdle = idle;
    m_sampleEvent = Simulator::Schedule(m_bin, &MrcLinkMonitor::Sample, this);
}

} // namespace ns3
