/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-pfc-ingress.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-net-device.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
MrcPfcIngress::Setup(const std::vector<Ptr<MrcNetDevice>>& ports, const Config& config)
{
    const std::size_t n = ports.size();
    m_ports.clear();
    for (const auto& p : ports)
    {
        m_ports.push_back(PeekPointer(p));
    }
    m_quanta = config.quanta;
    m_ingressBytes.assign(n, 0);
    m_maxIngressBytes.assign(n, 0);
    m_xoff.assign(n, 0);
    m_xon.assign(n, 0);
    m_limit.assign(n, 0);
    m_pauseOn.assign(n, 0);
    m_refresh.assign(n, EventId());
    for (std::size_t i = 0; i < n; ++i)
    {
        const MrcNetDevice* port = m_ports[i];
        const uint32_t mtu = port->GetMtu();
        uint32_t headroom = config.headroom;
        if (headroom == 0)
        {
            // What the upstream still sends until it sees the PAUSE (the PAUSE waits for our
            // frame on the wire, then crosses the cable; the upstream finishes its frame) and
            // what is on the cable and in our pipeline then.
            const Time delay = port->GetMrcChannel() ? port->GetMrcChannel()->GetDelay() : Time(0);
            const double seconds = 2 * (delay + config.latency).GetSeconds();
            headroom
                = static_cast<uint32_t>(seconds * port->GetDataRate().GetBitRate() / 8) + 3 * mtu;
        }
        m_xoff[i] = config.xoff != 0 ? config.xoff : 2 * headroom;
        m_xon[i] = config.xon != 0
                     ? std::min(config.xon, m_xoff[i])
                     : std::max(m_xoff[i] / 2, m_xoff[i] > 2 * mtu ? m_xoff[i] - 2 * mtu : 0);
        m_limit[i] = m_xoff[i] + headroom;
    }
}

void
MrcPfcIngress::Charge(uint32_t port, uint32_t bytes)
{
    uint32_t& b = m_ingressBytes[port];
    b += bytes;
    if (b > m_maxIngressBytes[port])
    {
        m_maxIngressBytes[port] = b;
    }
    if (!m_pauseOn[port] && b >= m_xoff[port])
    {
        m_pauseOn[port] = 1;
        m_ports[port]->SendPause(m_quanta);
        ArmRefresh(port);
    }
}

void
MrcPfcIngress::Release(uint32_t port, uint32_t bytes)
{
    uint32_t& b = m_ingressBytes[port];
    b -= bytes;
    if (m_pauseOn[port] && b <= m_xon[port])
    {
        m_pauseOn[port] = 0;
        m_refresh[port].Cancel();
        m_ports[port]->SendPause(0);
    }
}

void
MrcPfcIngress::ArmRefresh(uint32_t port)
{
    // Pause time is quanta x 512 bit times at the port's rate; refresh at half of it.
    const Time half
        = Seconds(double(m_quanta) * 512 / 2 / double(m_ports[port]->GetDataRate().GetBitRate()));
    m_refresh[port] = Simulator::Schedule(half, &MrcPfcIngress::OnRefresh, this, port);
}

void
MrcPfcIngress::OnRefresh(uint32_t port)
{
    if (m_pauseOn[port])
    {
        m_ports[port]->SendPause(m_quanta);
        ArmRefresh(port);
    }
}

void
MrcPfcIngress::Stop()
{
    for (auto& e : m_refresh)
    {
        e.Cancel();
    }
}

uint32_t
MrcPfcIngress::GetIngressBytes(uint32_t port) const
{
    return port < m_ingressBytes.size() ? m_ingressBytes[port] : 0;
}

uint32_t
MrcPfcIngress::GetMaxIngressBytes(uint32_t port) const
{
    return port < m_maxIngressBytes.size() ? m_maxIngressBytes[port] : 0;
}

uint32_t
MrcPfcIngress::GetXoff(uint32_t port) const
{
    return port < m_xoff.size() ? m_xoff[port] : 0;
}

uint32_t
MrcPfcIngress::GetLimit(uint32_t port) const
{
    return port < m_limit.size() ? m_limit[port] : 0;
}

} // namespace ns3
