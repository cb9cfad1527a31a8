/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-clos-topology.h"

#include "ns3/mrc-dscp.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcClosTopology");
NS_OBJECT_ENSURE_REGISTERED(MrcClosTopology);

TypeId
MrcClosTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcClosTopology")
                            .SetParent<MrcPathProvider>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcClosTopology>();
    return tid;
}

MrcClosTopology::MrcClosTopology() = default;

MrcClosTopology::~MrcClosTopology() = default;

void
MrcClosTopology::DoDispose()
{
    m_hostPorts.clear();
    m_hostLinks.clear();
    m_t0.clear();
    m_t1.clear();
    m_uplinks.clear();
    m_t2.clear();
    m_spines.clear();
    m_ecmp = nullptr;
    MrcPathProvider::DoDispose();
}

uint16_t
MrcClosTopology::T0Usid(uint32_t i)
{
    return static_cast<uint16_t>(0x1000 + i);
}

uint16_t
MrcClosTopology::T1Usid(uint32_t j)
{
    return static_cast<uint16_t>(0x2000 + j);
}

uint16_t
MrcClosTopology::T2Usid(uint32_t k)
{
    return static_cast<uint16_t>(0x3000 + k);
}

uint16_t
MrcClosTopology::HostUsid(uint32_t k)
{
    return static_cast<uint16_t>(0x0100 + k);
}

const MrcClosShape&
MrcClosTopology::GetShape() const
{
    return m_shape;
}

MrcPathSet
MrcClosTopology::GetPathSet(uint32_t src, uint32_t dst, uint32_t plane) const
{
    MrcPathSet set;
    if (m_shape.ecmp)
    {
        // Destination routing: every path has the same address; the EV (flow label) steers.
        set.count = 1;
        if (GetT0Of(src) != GetT0Of(dst))
        {
            set.count = GetPodOf(src) == GetPodOf(dst) ? m_shape.t1sPerPod
                                                       : m_shape.t1sPerPod * m_shape.t2s;
        }
        GetHostAddress(dst, plane).GetBytes(set.base);
        return set;
    }
    MakeCarrier(src, dst, 0).GetAddress().GetBytes(set.base);
    if (GetT0Of(src) == GetT0Of(dst))
    {
        set.count = 1;
        return set;
    }
    // <block><T0 up><T1><T0 down><host port>: path j differs from path 0 only in the T1's uSID,
    // T1Usid(j) = T1Usid(0) + j.
    set.count = m_shape.t1sPerPod;
    set.varByte = static_cast<int8_t>(m_shape.blockBits / 8 + 2);
    return set;
}

Time
MrcClosTopology::GetBaseRtt(uint32_t packetBytes) const
{
    return BaseRtt(m_shape, packetBytes, m_shape.tiers == 3 ? 6 : 4);
}

Time
MrcClosTopology::GetBaseRtt(uint32_t packetBytes, uint32_t src, uint32_t dst) const
{
    return GetBaseRtt(m_shape, packetBytes, src, dst);
}

Time
MrcClosTopology::GetBaseRtt(const MrcClosShape& shape,
                            uint32_t packetBytes,
                            uint32_t src,
                            uint32_t dst)
{
    // One way: two links under one T0; four across a T1 (within a pod); six across a T2.
    const uint32_t t0src = src / shape.hostsPerT0;
    const uint32_t t0dst = dst / shape.hostsPerT0;
    const uint32_t links = t0src == t0dst ? 2
                         : shape.tiers < 3 || t0src / shape.t0sPerPod == t0dst / shape.t0sPerPod
                             ? 4
                             : 6;
    return BaseRtt(shape, packetBytes, links);
}

Time
MrcClosTopology::BaseRtt(const MrcClosShape& shape, uint32_t packetBytes, int64_t links)
{
    const DataRate host = shape.linkRate;
    const DataRate up = shape.uplinkRate.GetBitRate() > 0 ? shape.uplinkRate : host;
    const uint32_t ctrlBytes = MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE;
    // One way: the host link up, the switch-to-switch links, the host link down. A switch
    // takes a frame once it is complete, or, cut-through, once its first bytes are in on a
    // port no slower than the switch's others (MrcSwitchNetDevice::CutThrough); the receiving
    // NIC always takes it whole.
    const uint32_t cut = shape.cutThroughBytes;
    const uint64_t fastestT0 = std::max(host.GetBitRate(), up.GetBitRate());
    auto oneWay = [&](uint32_t bytes)
    {
        auto wire = [&](const DataRate& rate, bool cutThrough)
        {
            return rate.CalculateBytesTxTime(cutThrough ? std::min(bytes, cut) : bytes);
        };
        Time t = wire(host, cut > 0 && host.GetBitRate() >= fastestT0); // into a T0
        for (int64_t k = 0; k < links - 3; ++k)
        {
            t += wire(up, cut > 0); // into a T1 (or T2), whose ports all run at the uplink rate
        }
        if (links > 2)
        {
            t += wire(up, cut > 0 && up.GetBitRate() >= fastestT0); // back into a T0
        }
        t += host.CalculateBytesTxTime(bytes); // into the NIC
        return t + links * shape.linkDelay + (links - 1) * shape.switchLatency + shape.nicTxLatency
             + shape.nicRxLatency;
    };
    return oneWay(packetBytes) + oneWay(ctrlBytes);
}

uint64_t
MrcClosTopology::GetTrimmedTotal() const
{
    uint64_t trims = 0;
    for (const auto* tier : {&m_t0, &m_t1, &m_t2})
    {
        for (const auto& plane : *tier)
        {
            for (const auto& sw : plane)
            {
                for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
                {
                    trims += sw->GetPort(k)->GetQueue()->GetTrimmed();
                }
            }
        }
    }
    return trims;
}

std::map<std::string, uint64_t>
MrcClosTopology::GetDropsByReason() const
{
    std::map<std::string, uint64_t> by;
    auto add = [&by](const char* where, const char* reason, uint64_t n)
    {
        if (n > 0)
        {
            by[std::string(where) + "/" + reason] += n;
        }
    };
    auto queue = [&add](const char* where, Ptr<MrcTrimmingQueue> q)
    {
        for (uint32_t r = 0; r < MrcTrimmingQueue::DROP_REASON_COUNT; ++r)
        {
            add(where, MrcTrimmingQueue::DropReasonName(r), q->GetDropped(r));
        }
    };
    auto link = [&add](Ptr<MrcChannel> c)
    {
        if (c)
        {
            add("link", "RandomLoss", c->GetRandomLosses());
            add("link", "InFlight", c->GetLostInFlight());
        }
    };
    for (const auto& ports : m_hostPorts)
    {
        for (const auto& d : ports)
        {
            for (uint32_t r = 0; r < MrcNetDevice::DROP_REASON_COUNT; ++r)
            {
                add("nic", MrcNetDevice::DropReasonName(r), d->GetDropped(r));
            }
            queue("nic-queue", d->GetQueue());
        }
    }
    for (const auto* tier : {&m_t0, &m_t1, &m_t2})
    {
        for (const auto& plane : *tier)
        {
            for (const auto& sw : plane)
            {
                for (uint32_t r = 0; r < MrcSwitchNetDevice::DROP_REASON_COUNT; ++r)
                {
                    add("switch", MrcSwitchNetDevice::DropReasonName(r), sw->GetDropped(r));
                }
                for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
                {
                    queue("switch-queue", sw->GetPort(k)->GetQueue());
                }
            }
        }
    }
    for (const auto* links : {&m_hostLinks, &m_uplinks, &m_spines})
    {
        for (const auto& group : *links)
        {
            for (const auto& c : group)
            {
                link(c);
            }
        }
    }
    return by;
}

uint64_t
MrcClosTopology::GetNicRate() const
{
    return m_shape.linkRate.GetBitRate() * m_shape.planes;
}

DataRate
MrcClosTopology::GetUplinkRate() const
{
    return m_shape.uplinkRate.GetBitRate() > 0 ? m_shape.uplinkRate : m_shape.linkRate;
}

DataRate
MrcClosTopology::GetLinkRate() const
{
    return m_shape.linkRate;
}

Ptr<Packet>
MrcClosTopology::SendRawPacket(uint32_t src, const MrcPath& path, uint32_t bytes, uint8_t ecn) const
{
    // A well-formed MRC data packet (UDP port 4793, so captures decode it) addressed to no QP,
    // the whole frame payload being `bytes` long when that leaves room for the header.
    Ptr<Packet> p;
    if (bytes >= MrcHeader::SIZE)
    {
        p = Create<Packet>(bytes - MrcHeader::SIZE);
        MrcHeader m;
        m.SetOpcode(MrcHeader::WRITE);
        m.SetDstQpn(0xFFFFFF);
        m.SetPlane(static_cast<uint8_t>(path.plane));
        m.SetPayloadLen(static_cast<uint16_t>(bytes - MrcHeader::SIZE));
        p->AddHeader(m);
    }
    else
    {
        p = Create<Packet>(bytes);
    }
    MrcIpv6Fields h(GetHostAddress(src, path.plane),
                    path.carrier.GetAddress(),
                    0,
                    MrcDscp::TrafficClass(MrcDscp::DATA, ecn),
                    static_cast<uint16_t>(bytes));
    GetHostPort(src, path.plane)->SendFrame(p, h);
    return p;
}

Ptr<MrcEcmpControlPlane>
MrcClosTopology::GetControlPlane() const
{
    return m_ecmp;
}

uint32_t
MrcClosTopology::GetNHosts() const
{
    return m_shape.hostsPerT0 * GetNT0();
}

bool
MrcClosTopology::IsEcmp() const
{
    return m_shape.ecmp;
}

uint32_t
MrcClosTopology::GetNTiers() const
{
    return m_shape.tiers;
}

uint32_t
MrcClosTopology::GetNT2() const
{
    return m_shape.t2s;
}

Ptr<MrcSwitchNetDevice>
MrcClosTopology::GetT2(uint32_t plane, uint32_t k) const
{
    return m_t2.at(plane).at(k);
}

Ptr<MrcChannel>
MrcClosTopology::GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const
{
    return m_spines.at(plane).at(t1 * m_shape.t2s + k);
}

uint32_t
MrcClosTopology::GetPodOf(uint32_t h) const
{
    return GetT0Of(h) / m_shape.t0sPerPod;
}

uint32_t
MrcClosTopology::GetNPlanes() const
{
    return m_shape.planes;
}

uint32_t
MrcClosTopology::GetNT0() const
{
    return m_shape.t0sPerPod * m_shape.pods;
}

uint32_t
MrcClosTopology::GetNT1() const
{
    return m_shape.t1sPerPod * m_shape.pods;
}

uint32_t
MrcClosTopology::GetHostsPerT0() const
{
    return m_shape.hostsPerT0;
}

NodeContainer
MrcClosTopology::GetHosts() const
{
    return m_hosts;
}

Ptr<Node>
MrcClosTopology::GetHost(uint32_t h) const
{
    return m_hosts.Get(h);
}

NodeContainer
MrcClosTopology::GetSwitches() const
{
    return m_switchNodes;
}

Ptr<MrcNetDevice>
MrcClosTopology::GetHostPort(uint32_t h, uint32_t plane) const
{
    return m_hostPorts.at(h).at(plane);
}

uint32_t
MrcClosTopology::GetNUplinks(uint32_t plane, uint32_t t0) const
{
    return GetT0(plane, t0)->GetNPorts() - m_shape.hostsPerT0;
}

Ptr<MrcSwitchNetDevice>
MrcClosTopology::GetSwitchDevice(uint32_t plane, uint32_t tier, uint32_t i) const
{
    return tier == 0 ? GetT0(plane, i) : (tier == 1 ? GetT1(plane, i) : GetT2(plane, i));
}

std::vector<Ptr<MrcChannel>>
MrcClosTopology::GetSwitchLinks(uint32_t plane, uint32_t tier, uint32_t i) const
{
    Ptr<MrcSwitchNetDevice> sw = GetSwitchDevice(plane, tier, i);
    std::vector<Ptr<MrcChannel>> links;
    links.reserve(sw->GetNPorts());
    for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
    {
        links.push_back(sw->GetPort(k)->GetMrcChannel());
    }
    return links;
}

Ptr<MrcSwitchNetDevice>
MrcClosTopology::GetT0(uint32_t plane, uint32_t i) const
{
    return m_t0.at(plane).at(i);
}

Ptr<MrcSwitchNetDevice>
MrcClosTopology::GetT1(uint32_t plane, uint32_t j) const
{
    return m_t1.at(plane).at(j);
}

Ptr<MrcChannel>
MrcClosTopology::GetHostLink(uint32_t h, uint32_t plane) const
{
    return m_hostLinks.at(h).at(plane);
}

Ptr<MrcChannel>
MrcClosTopology::GetUplink(uint32_t plane, uint32_t i, uint32_t j) const
{
    return m_uplinks.at(plane).at(i * m_shape.t1sPerPod + j);
}

uint32_t
MrcClosTopology::GetT0Of(uint32_t h) const
{
    return h / m_shape.hostsPerT0;
}

Ipv6Address
MrcClosTopology::GetHostAddress(uint32_t h, uint32_t plane) const
{
    if (m_shape.ecmp)
    {
        uint8_t r[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        r[6] = static_cast<uint8_t>(plane >> 8);
        r[7] = static_cast<uint8_t>(plane & 0xff);
        r[12] = static_cast<uint8_t>(h >> 24);
        r[13] = static_cast<uint8_t>(h >> 16);
        r[14] = static_cast<uint8_t>(h >> 8);
        r[15] = static_cast<uint8_t>(h);
        return Ipv6Address(r);
    }
    MrcUsidCarrier c(m_shape.block,
                     static_cast<uint8_t>(m_shape.blockBits),
                     {T0Usid(GetT0Of(h)), HostUsid(h % m_shape.hostsPerT0)});
    uint8_t b[16];
    c.GetAddress().GetBytes(b);
    b[14] = static_cast<uint8_t>(plane >> 8);
    b[15] = static_cast<uint8_t>(plane & 0xff);
    return Ipv6Address(b);
}

MrcUsidCarrier
MrcClosTopology::MakeCarrier(uint32_t src, uint32_t dst, uint32_t t1) const
{
    const uint32_t a = GetT0Of(src);
    const uint32_t b = GetT0Of(dst);
    const uint16_t host = HostUsid(dst % m_shape.hostsPerT0);
    const auto bits = static_cast<uint8_t>(m_shape.blockBits);
    if (a == b)
    {
        return MrcUsidCarrier(m_shape.block, bits, {T0Usid(a), host});
    }
    return MrcUsidCarrier(m_shape.block, bits, {T0Usid(a), T1Usid(t1), T0Usid(b), host});
}

std::vector<MrcPath>
MrcClosTopology::GetPaths(uint32_t src, uint32_t dst) const
{
    std::vector<MrcPath> out;
    const bool local = GetT0Of(src) == GetT0Of(dst);
    for (uint32_t p = 0; p < m_shape.planes; ++p)
    {
        if (m_shape.ecmp)
        {
            // Destination routing: one address per plane; the switches pick the path.
            out.push_back({p,
                           -1,
                           MrcUsidCarrier::FromAddress(GetHostAddress(dst, p),
                                                       static_cast<uint8_t>(m_shape.blockBits))});
            continue;
        }
        if (local)
        {
            out.push_back({p, -1, MakeCarrier(src, dst, 0)});
            continue;
        }
        for (uint32_t j = 0; j < m_shape.t1sPerPod; ++j)
        {
            out.push_back({p, static_cast<int32_t>(j), MakeCarrier(src, dst, j)});
        }
    }
    return out;
}

std::vector<uint32_t>
MrcClosTopology::GetSwitchNodeIds(uint32_t src, uint32_t dst, const MrcPath& path) const
{
    std::vector<uint32_t> ids;
    ids.push_back(m_t0.at(path.plane).at(GetT0Of(src))->GetNode()->GetId());
    if (path.t1 >= 0)
    {
        ids.push_back(m_t1.at(path.plane).at(path.t1)->GetNode()->GetId());
        ids.push_back(m_t0.at(path.plane).at(GetT0Of(dst))->GetNode()->GetId());
    }
    return ids;
}

int64_t
MrcClosTopology::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t p = 0; p < m_shape.planes; ++p)
    {
        for (auto* tier : {&m_t0[p], &m_t1[p]})
        {
            for (auto& sw : *tier)
            {
                for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
                {
                    used += sw->GetPort(i)->GetQueue()->AssignStreams(stream + used);
                }
            }
        }
        for (auto& link : m_uplinks[p])
        {
            used += link->AssignStreams(stream + used);
        }
        for (auto& link : m_spines[p])
        {
            used += link->AssignStreams(stream + used);
        }
        for (auto& sw : m_t2[p])
        {
            for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
            {
                used += sw->GetPort(i)->GetQueue()->AssignStreams(stream + used);
            }
        }
    }
    for (auto& host : m_hostLinks)
    {
        for (auto& link : host)
        {
            used += link->AssignStreams(stream + used);
        }
    }
    return used;
}

int64_t
MrcClosTopology::AssignNicStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& host : m_hostPorts)
    {
        for (auto& port : host)
        {
            used += port->AssignStreams(stream + used);
        }
    }
    return used;
}

} // namespace ns3
