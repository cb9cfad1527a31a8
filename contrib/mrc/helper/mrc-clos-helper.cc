/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-clos-helper.h"

#include "ns3/mrc-header.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcClosHelper");
NS_OBJECT_ENSURE_REGISTERED(MrcClosHelper);

namespace
{
/**
 * Write a frame to a pcap file.
 * @param file the file
 * @param packet the frame, IPv6 header included
 */
void
PcapSink(Ptr<PcapFileWrapper> file, Ptr<const Packet> packet)
{
    file->Write(Simulator::Now(), packet);
}
} // namespace

TypeId
MrcClosHelper::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcClosHelper")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcClosHelper>()
              .AddAttribute("Planes",
                            "Independent network planes (= NIC ports per host)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&MrcClosHelper::m_planes),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("HostsPerT0",
                            "Host-facing ports per T0 switch",
                            UintegerValue(4),
                            MakeUintegerAccessor(&MrcClosHelper::m_hostsPerT0),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("T0sPerPlane",
                            "T0 (leaf) switches per plane",
                            UintegerValue(2),
                            MakeUintegerAccessor(&MrcClosHelper::m_nT0),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("T1sPerPlane",
                            "T1 (spine) switches per plane; every T0 has one uplink to each",
                            UintegerValue(2),
                            MakeUintegerAccessor(&MrcClosHelper::m_nT1),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("SwitchRadix",
                            "Ports per switch (0: unlimited)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcClosHelper::m_radix),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("LinkRate",
                            "Rate of every link",
                            DataRateValue(DataRate("100Gbps")),
                            MakeDataRateAccessor(&MrcClosHelper::m_linkRate),
                            MakeDataRateChecker())
              .AddAttribute("LinkDelay",
                            "Propagation delay of every link",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcClosHelper::m_linkDelay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("SwitchLatency",
                            "Switch forwarding latency",
                            TimeValue(NanoSeconds(500)),
                            MakeTimeAccessor(&MrcClosHelper::m_switchLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("DataQueueBytes",
                            "Switch data class limit per port, bytes",
                            UintegerValue(512000),
                            MakeUintegerAccessor(&MrcClosHelper::m_dataQueue),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ControlQueueBytes",
                            "Switch control class limit per port, bytes",
                            UintegerValue(200000),
                            MakeUintegerAccessor(&MrcClosHelper::m_controlQueue),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("HostQueueBytes",
                            "Host NIC port queue limit, bytes",
                            UintegerValue(64000000),
                            MakeUintegerAccessor(&MrcClosHelper::m_hostQueue),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("EcnMinBytes",
                            "ECN marking threshold (low) on fabric ports",
                            UintegerValue(100000),
                            MakeUintegerAccessor(&MrcClosHelper::m_ecnMin),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("EcnMaxBytes",
                            "ECN marking threshold (high) on fabric ports",
                            UintegerValue(400000),
                            MakeUintegerAccessor(&MrcClosHelper::m_ecnMax),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("EcnMaxProbability",
                            "ECN marking probability at the high threshold",
                            DoubleValue(0.2),
                            MakeDoubleAccessor(&MrcClosHelper::m_ecnMaxP),
                            MakeDoubleChecker<double>())
              .AddAttribute("TrimEnabled",
                            "Switches trim (true) or drop (false) overflowing data packets",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcClosHelper::m_trim),
                            MakeBooleanChecker())
              .AddAttribute("TrimSize",
                            "IPv6 payload bytes a trimmed packet keeps (default: UDP + MrcHeader)",
                            UintegerValue(MrcHeader::SIZE),
                            MakeUintegerAccessor(&MrcClosHelper::m_trimSize),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("LocatorBlock",
                            "SRv6 uSID locator block",
                            Ipv6AddressValue(Ipv6Address("fcbb:bbbb::")),
                            MakeIpv6AddressAccessor(&MrcClosHelper::m_block),
                            MakeIpv6AddressChecker())
              .AddAttribute("BlockBits",
                            "Locator block length in bits (16, 32, 48 or 64)",
                            UintegerValue(32),
                            MakeUintegerAccessor(&MrcClosHelper::m_blockBits),
                            MakeUintegerChecker<uint32_t>());
    return tid;
}

MrcClosHelper::MrcClosHelper()
    : m_built(false)
{
}

MrcClosHelper::~MrcClosHelper() = default;

void
MrcClosHelper::GetPlanePaths(uint32_t src,
                             uint32_t dst,
                             uint32_t plane,
                             std::vector<Ipv6Address>& out) const
{
    out.clear();
    if (GetT0Of(src) == GetT0Of(dst))
    {
        out.push_back(MakeCarrier(src, dst, plane, 0).GetAddress());
        return;
    }
    for (uint32_t j = 0; j < m_nT1; ++j)
    {
        out.push_back(MakeCarrier(src, dst, plane, j).GetAddress());
    }
}

Time
MrcClosHelper::GetBaseRtt(uint32_t packetBytes) const
{
    const Time data = m_linkRate.CalculateBytesTxTime(packetBytes);
    const Time ctrl = m_linkRate.CalculateBytesTxTime(40 + 76);
    return 8 * m_linkDelay + 6 * m_switchLatency + 4 * data + 4 * ctrl;
}

uint64_t
MrcClosHelper::GetNicRate() const
{
    return m_linkRate.GetBitRate() * m_planes;
}

DataRate
MrcClosHelper::GetLinkRate() const
{
    return m_linkRate;
}

void
MrcClosHelper::DoDispose()
{
    m_hostPorts.clear();
    m_hostLinks.clear();
    m_t0.clear();
    m_t1.clear();
    m_uplinks.clear();
    Object::DoDispose();
}

std::string
MrcClosHelper::Validate() const
{
    std::ostringstream e;
    if (m_planes < 1 || m_planes > 64)
    {
        e << "Planes must be between 1 and 64 (got " << m_planes << ")";
    }
    else if (m_hostsPerT0 < 1 || m_hostsPerT0 > 0x0f00)
    {
        e << "HostsPerT0 must be between 1 and 3840 (got " << m_hostsPerT0 << ")";
    }
    else if (m_nT0 < 1 || m_nT0 > 0x1000)
    {
        e << "T0sPerPlane must be between 1 and 4096 (got " << m_nT0 << ")";
    }
    else if (m_nT1 < 1 || m_nT1 > 0x1000)
    {
        e << "T1sPerPlane must be between 1 and 4096 (got " << m_nT1 << ")";
    }
    else if (m_radix != 0 && m_hostsPerT0 + m_nT1 > m_radix)
    {
        e << "SwitchRadix " << m_radix << " is too small for a T0 with HostsPerT0=" << m_hostsPerT0
          << " down and T1sPerPlane=" << m_nT1 << " up ports (needs " << m_hostsPerT0 + m_nT1
          << ")";
    }
    else if (m_radix != 0 && m_nT0 > m_radix)
    {
        e << "SwitchRadix " << m_radix << " is too small for a T1 facing T0sPerPlane=" << m_nT0
          << " T0s";
    }
    else if (m_blockBits != 16 && m_blockBits != 32 && m_blockBits != 48 && m_blockBits != 64)
    {
        e << "BlockBits must be 16, 32, 48 or 64 (got " << m_blockBits << ")";
    }
    else if (m_linkRate.GetBitRate() == 0)
    {
        e << "LinkRate must be positive";
    }
    else if (m_dataQueue < 9100 || m_controlQueue < 1500)
    {
        e << "DataQueueBytes must be at least 9100 and ControlQueueBytes at least 1500 (got "
          << m_dataQueue << ", " << m_controlQueue << ")";
    }
    else if (m_ecnMin > m_ecnMax)
    {
        e << "EcnMinBytes (" << m_ecnMin << ") must not exceed EcnMaxBytes (" << m_ecnMax << ")";
    }
    else if (m_ecnMaxP < 0 || m_ecnMaxP > 1)
    {
        e << "EcnMaxProbability must be in [0, 1] (got " << m_ecnMaxP << ")";
    }
    return e.str();
}

uint16_t
MrcClosHelper::T0Usid(uint32_t i)
{
    return static_cast<uint16_t>(0x1000 + i);
}

uint16_t
MrcClosHelper::T1Usid(uint32_t j)
{
    return static_cast<uint16_t>(0x2000 + j);
}

uint16_t
MrcClosHelper::HostUsid(uint32_t k)
{
    return static_cast<uint16_t>(0x0100 + k);
}

Ptr<MrcTrimmingQueue>
MrcClosHelper::MakeQueue(bool host, bool lastHop) const
{
    Ptr<MrcTrimmingQueue> q = CreateObject<MrcTrimmingQueue>();
    if (host)
    {
        q->SetAttribute("DataLimit", UintegerValue(m_hostQueue));
        q->SetAttribute("ControlLimit", UintegerValue(m_hostQueue));
        q->SetAttribute("TrimEnabled", BooleanValue(false));
        q->SetAttribute("EcnEnabled", BooleanValue(false));
        return q;
    }
    q->SetAttribute("DataLimit", UintegerValue(m_dataQueue));
    q->SetAttribute("ControlLimit", UintegerValue(m_controlQueue));
    q->SetAttribute("TrimEnabled", BooleanValue(m_trim));
    q->SetAttribute("TrimSize", UintegerValue(m_trimSize));
    q->SetAttribute("EcnEnabled", BooleanValue(!lastHop));
    q->SetAttribute("EcnMinBytes", UintegerValue(m_ecnMin));
    q->SetAttribute("EcnMaxBytes", UintegerValue(m_ecnMax));
    q->SetAttribute("EcnMaxProbability", DoubleValue(m_ecnMaxP));
    q->SetAttribute("LastHop", BooleanValue(lastHop));
    return q;
}

Ptr<MrcChannel>
MrcClosHelper::Connect(Ptr<Node> a,
                       Ptr<Node> b,
                       bool aLastHop,
                       bool aHost,
                       bool bHost,
                       Ptr<MrcNetDevice>& pa,
                       Ptr<MrcNetDevice>& pb)
{
    Ptr<MrcChannel> ch = CreateObject<MrcChannel>();
    ch->SetAttribute("Delay", TimeValue(m_linkDelay));
    pa = CreateObject<MrcNetDevice>();
    pb = CreateObject<MrcNetDevice>();
    pa->SetDataRate(m_linkRate);
    pb->SetDataRate(m_linkRate);
    pa->SetQueue(MakeQueue(aHost, aLastHop));
    pb->SetQueue(MakeQueue(bHost, false));
    a->AddDevice(pa);
    b->AddDevice(pb);
    pa->Attach(ch);
    pb->Attach(ch);
    return ch;
}

void
MrcClosHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "MrcClosHelper: Build() called twice");
    const std::string err = Validate();
    NS_ABORT_MSG_IF(!err.empty(), "MrcClosHelper: " << err);
    m_built = true;

    const uint32_t nHosts = m_hostsPerT0 * m_nT0;
    m_hosts.Create(nHosts);
    m_hostPorts.assign(nHosts, std::vector<Ptr<MrcNetDevice>>(m_planes));
    m_hostLinks.assign(nHosts, std::vector<Ptr<MrcChannel>>(m_planes));
    m_t0.assign(m_planes, {});
    m_t1.assign(m_planes, {});
    m_uplinks.assign(m_planes, std::vector<Ptr<MrcChannel>>(m_nT0 * m_nT1));

    for (uint32_t p = 0; p < m_planes; ++p)
    {
        NodeContainer t0Nodes;
        NodeContainer t1Nodes;
        t0Nodes.Create(m_nT0);
        t1Nodes.Create(m_nT1);
        m_switchNodes.Add(t0Nodes);
        m_switchNodes.Add(t1Nodes);
        auto makeSwitch = [this](Ptr<Node> n, uint16_t usid)
        {
            Ptr<MrcSwitchNetDevice> sw = CreateObject<MrcSwitchNetDevice>();
            sw->SetUsid(usid);
            sw->SetLocatorBlock(m_block, static_cast<uint8_t>(m_blockBits));
            sw->SetAttribute("Latency", TimeValue(m_switchLatency));
            n->AddDevice(sw);
            return sw;
        };
        for (uint32_t i = 0; i < m_nT0; ++i)
        {
            m_t0[p].push_back(makeSwitch(t0Nodes.Get(i), T0Usid(i)));
        }
        for (uint32_t j = 0; j < m_nT1; ++j)
        {
            m_t1[p].push_back(makeSwitch(t1Nodes.Get(j), T1Usid(j)));
        }
        // Host links: T0 ports 0..HostsPerT0-1.
        for (uint32_t i = 0; i < m_nT0; ++i)
        {
            for (uint32_t k = 0; k < m_hostsPerT0; ++k)
            {
                const uint32_t h = i * m_hostsPerT0 + k;
                Ptr<MrcNetDevice> swPort;
                Ptr<MrcNetDevice> hostPort;
                m_hostLinks[h][p]
                    = Connect(t0Nodes.Get(i), m_hosts.Get(h), true, false, true, swPort, hostPort);
                const uint32_t idx = m_t0[p][i]->AddPort(swPort);
                m_t0[p][i]->AddRoute(HostUsid(k), idx);
                m_hostPorts[h][p] = hostPort;
            }
        }
        // Uplinks: T0 ports HostsPerT0 + j; T1 port i.
        for (uint32_t i = 0; i < m_nT0; ++i)
        {
            for (uint32_t j = 0; j < m_nT1; ++j)
            {
                Ptr<MrcNetDevice> up;
                Ptr<MrcNetDevice> down;
                m_uplinks[p][i * m_nT1 + j]
                    = Connect(t0Nodes.Get(i), t1Nodes.Get(j), false, false, false, up, down);
                m_t0[p][i]->AddRoute(T1Usid(j), m_t0[p][i]->AddPort(up));
                (void) down;
            }
        }
        for (uint32_t j = 0; j < m_nT1; ++j)
        {
            for (uint32_t i = 0; i < m_nT0; ++i)
            {
                Ptr<MrcNetDevice> down = m_uplinks[p][i * m_nT1 + j]->GetMrcDevice(1);
                m_t1[p][j]->AddRoute(T0Usid(i), m_t1[p][j]->AddPort(down));
            }
        }
    }
    NS_LOG_INFO("built " << m_planes << " planes, " << nHosts << " hosts, " << m_switchNodes.GetN()
                         << " switches");
}

uint32_t
MrcClosHelper::GetNHosts() const
{
    return m_hostsPerT0 * m_nT0;
}

uint32_t
MrcClosHelper::GetNPlanes() const
{
    return m_planes;
}

uint32_t
MrcClosHelper::GetNT0() const
{
    return m_nT0;
}

uint32_t
MrcClosHelper::GetNT1() const
{
    return m_nT1;
}

uint32_t
MrcClosHelper::GetHostsPerT0() const
{
    return m_hostsPerT0;
}

NodeContainer
MrcClosHelper::GetHosts() const
{
    return m_hosts;
}

NodeContainer
MrcClosHelper::GetSwitches() const
{
    return m_switchNodes;
}

Ptr<MrcNetDevice>
MrcClosHelper::GetHostPort(uint32_t h, uint32_t plane) const
{
    return m_hostPorts.at(h).at(plane);
}

Ptr<MrcSwitchNetDevice>
MrcClosHelper::GetT0(uint32_t plane, uint32_t i) const
{
    return m_t0.at(plane).at(i);
}

Ptr<MrcSwitchNetDevice>
MrcClosHelper::GetT1(uint32_t plane, uint32_t j) const
{
    return m_t1.at(plane).at(j);
}

Ptr<MrcChannel>
MrcClosHelper::GetHostLink(uint32_t h, uint32_t plane) const
{
    return m_hostLinks.at(h).at(plane);
}

Ptr<MrcChannel>
MrcClosHelper::GetUplink(uint32_t plane, uint32_t i, uint32_t j) const
{
    return m_uplinks.at(plane).at(i * m_nT1 + j);
}

uint32_t
MrcClosHelper::GetT0Of(uint32_t h) const
{
    return h / m_hostsPerT0;
}

Ipv6Address
MrcClosHelper::GetHostAddress(uint32_t h, uint32_t plane) const
{
    MrcUsidCarrier c(m_block,
                     static_cast<uint8_t>(m_blockBits),
                     {T0Usid(GetT0Of(h)), HostUsid(h % m_hostsPerT0)});
    uint8_t b[16];
    c.GetAddress().GetBytes(b);
    b[14] = static_cast<uint8_t>(plane >> 8);
    b[15] = static_cast<uint8_t>(plane & 0xff);
    return Ipv6Address(b);
}

MrcUsidCarrier
MrcClosHelper::MakeCarrier(uint32_t src, uint32_t dst, uint32_t /* plane */, uint32_t t1) const
{
    const uint32_t a = GetT0Of(src);
    const uint32_t b = GetT0Of(dst);
    const uint16_t host = HostUsid(dst % m_hostsPerT0);
    if (a == b)
    {
        return MrcUsidCarrier(m_block, static_cast<uint8_t>(m_blockBits), {T0Usid(a), host});
    }
    return MrcUsidCarrier(
        m_block, static_cast<uint8_t>(m_blockBits), {T0Usid(a), T1Usid(t1), T0Usid(b), host});
}

std::vector<MrcPath>
MrcClosHelper::GetPaths(uint32_t src, uint32_t dst) const
{
    std::vector<MrcPath> out;
    const bool local = GetT0Of(src) == GetT0Of(dst);
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        if (local)
        {
            out.push_back({p, -1, MakeCarrier(src, dst, p, 0)});
            continue;
        }
        for (uint32_t j = 0; j < m_nT1; ++j)
        {
            out.push_back({p, static_cast<int32_t>(j), MakeCarrier(src, dst, p, j)});
        }
    }
    return out;
}

std::vector<uint32_t>
MrcClosHelper::GetSwitchNodeIds(uint32_t src, uint32_t dst, const MrcPath& path) const
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

void
MrcClosHelper::EnablePcapHosts(const std::string& prefix)
{
    PcapHelper pcap;
    for (uint32_t h = 0; h < m_hostPorts.size(); ++h)
    {
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            std::ostringstream name;
            name << prefix << "-" << h << "-" << p << ".pcap";
            Ptr<PcapFileWrapper> file
                = pcap.CreateFile(name.str(), std::ios::out, PcapHelper::DLT_RAW);
            m_hostPorts[h][p]->TraceConnectWithoutContext("Sniffer",
                                                          MakeBoundCallback(&PcapSink, file));
        }
    }
}

int64_t
MrcClosHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t p = 0; p < m_planes; ++p)
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

} // namespace ns3
