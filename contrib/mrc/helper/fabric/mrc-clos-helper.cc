/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-clos-helper.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-dscp.h"
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
 * The pcap link type of a frame that begins with its IPv6 header (LINKTYPE_RAW, 101), as an
 * argument of PcapHelper::CreateFile, which takes a PcapHelper::DataLinkType up to ns-3.48 and a
 * uint16_t from ns-3.49 on (where PcapHelper::DLT_RAW is deprecated for iana::linktype::RAW).
 * It converts to either, so no spelling or version test specific to one release is needed.
 */
struct PcapLinkTypeRaw
{
    /// @return the link type 101 as the parameter type of PcapHelper::CreateFile
    template<typename T>
    constexpr operator T() const
    {
        return static_cast<T>(101);
    }
};

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
              .AddAttribute("UplinkRate",
                            "Rate of the switch-to-switch links (T0-T1, T1-T2); 0: LinkRate",
                            DataRateValue(DataRate("0bps")),
                            MakeDataRateAccessor(&MrcClosHelper::m_uplinkRate),
                            MakeDataRateChecker())
              .AddAttribute("LinkDelay",
                            "Propagation delay of every link",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcClosHelper::m_linkDelay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("NicTxLatency",
                            "A NIC's send pipeline: added to every frame a host port sends "
                            "(MrcNetDevice::TxLatency of the host ports)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcClosHelper::m_nicTxLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("NicRxLatency",
                            "A NIC's receive pipeline: added to every frame a host port "
                            "receives (MrcNetDevice::RxLatency of the host ports)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcClosHelper::m_nicRxLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("HostQueueBytes",
                            "Host NIC port queue limit, bytes",
                            UintegerValue(64000000),
                            MakeUintegerAccessor(&MrcClosHelper::m_hostQueue),
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
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("LastHopEcn",
                            "Mark ECN on host-facing ports too (MRC: off; DCQCN needs it on)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcClosHelper::m_lastHopEcn),
                            MakeBooleanChecker())
              .AddAttribute("Routing",
                            "srv6 (MRC: uSID source routing, static tables) or ecmp (the routed "
                            "baseline: destination-based ECMP with BFD/BGP-like delays)",
                            StringValue("srv6"),
                            MakeStringAccessor(&MrcClosHelper::m_routing),
                            MakeMrcChoiceChecker({"srv6", "ecmp"}))
              .AddAttribute("Tiers",
                            "Switch tiers: 2, or 3 (a fat tree; ecmp routing only)",
                            UintegerValue(2),
                            MakeUintegerAccessor(&MrcClosHelper::m_tiers),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Pods",
                            "Pods (3 tiers): each has T0sPerPlane T0s and T1sPerPlane T1s",
                            UintegerValue(2),
                            MakeUintegerAccessor(&MrcClosHelper::m_pods),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute(
                  "T2sPerPlane",
                  "T2 (core) switches per plane (3 tiers); every T1 has one uplink to each",
                  UintegerValue(2),
                  MakeUintegerAccessor(&MrcClosHelper::m_nT2),
                  MakeUintegerChecker<uint32_t>())
              .AddAttribute("Pfc",
                            "Priority flow control on every switch and NIC port for the data "
                            "class: lossless, the egress data queues never drop (SetRoutedBaseline "
                            "turns it on)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcClosHelper::m_pfc),
                            MakeBooleanChecker())
              .AddAttribute("PfcWatchdog",
                            "PFC watchdog on switch ports: a data class paused this long is "
                            "declared stormed, dropped and unpaused for 200 ms (0: off)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcClosHelper::m_pfcWatchdog),
                            MakeTimeChecker(Time(0)));
    return tid;
}

MrcClosHelper::MrcClosHelper()
    : m_lastHopEcn(false)
    , m_pfc(false)
    , m_pfcWatchdog(0)
    , m_routing("srv6")
    , m_tiers(2)
    , m_pods(2)
    , m_nT2(2)
{
    m_queueFactory.SetTypeId(MrcTrimmingQueue::GetTypeId());
    m_controlPlaneFactory.SetTypeId(MrcEcmpControlPlane::GetTypeId());
    m_switchFactory.SetTypeId(MrcSwitchNetDevice::GetTypeId());
}

void
MrcClosHelper::SetQueueAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(m_topo, "MrcClosHelper: SetQueueAttribute after Build()");
    m_queueFactory.Set(name, value);
}

void
MrcClosHelper::SetControlPlaneAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(m_topo, "MrcClosHelper: SetControlPlaneAttribute after Build()");
    m_controlPlaneFactory.Set(name, value);
}

void
MrcClosHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(m_topo, "MrcClosHelper: SetSwitchAttribute after Build()");
    m_switchFactory.Set(name, value);
}

const std::vector<std::pair<std::string, std::string>>&
MrcClosHelper::GetAttributesItSets()
{
    static const std::vector<std::pair<std::string, std::string>> set = {
        {"ns3::MrcChannel::Delay", "use --ns3::MrcClosHelper::LinkDelay"},
        {"ns3::MrcNetDevice::DataRate", "use --ns3::MrcClosHelper::LinkRate"},
        {"ns3::MrcNetDevice::PfcWatchdog", "use --ns3::MrcClosHelper::PfcWatchdog"},
        {"ns3::MrcSwitchNetDevice::PfcEnabled", "use --ns3::MrcClosHelper::Pfc"},
        {"ns3::MrcSwitchNetDevice::Usid", "from its address plan"},
        {"ns3::MrcTrimmingQueue::LastHop", "on the ports that face hosts"},
    };
    return set;
}

Ptr<MrcClosTopology>
MrcClosHelper::GetTopology() const
{
    return m_topo;
}

MrcClosHelper::~MrcClosHelper() = default;

void
MrcClosHelper::DoDispose()
{
    m_topo = nullptr;
    m_portProto = nullptr;
    for (auto& q : m_queueProto)
    {
        q = nullptr;
    }
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
    else if (m_radix != 0 && m_tiers == 2 && m_nT0 > m_radix)
    {
        e << "SwitchRadix " << m_radix << " is too small for a T1 facing T0sPerPlane=" << m_nT0
          << " T0s";
    }
    else if (m_routing != "srv6" && m_routing != "ecmp")
    {
        e << "Routing must be srv6 or ecmp (got '" << m_routing << "')";
    }
    else if (m_tiers != 2 && m_tiers != 3)
    {
        e << "Tiers must be 2 or 3 (got " << m_tiers << ")";
    }
    else if (m_tiers == 3 && m_routing != "ecmp")
    {
        e << "Tiers=3 needs Routing=ecmp (the SRv6 fabric is two-tier)";
    }
    else if (m_tiers == 3 && (m_pods < 1 || m_nT2 < 1 || m_pods * m_nT0 > 0x1000))
    {
        e << "Pods and T2sPerPlane must be at least 1, and Pods x T0sPerPlane at most 4096 (got "
          << m_pods << ", " << m_nT2 << ")";
    }
    else if (m_tiers == 3 && m_radix != 0 && (m_nT0 + m_nT2 > m_radix || m_pods * m_nT1 > m_radix))
    {
        e << "SwitchRadix " << m_radix << " is too small for a T1 with T0sPerPlane=" << m_nT0
          << " down and T2sPerPlane=" << m_nT2
          << " up ports, or a T2 facing Pods x T1sPerPlane=" << m_pods * m_nT1 << " T1s";
    }
    else if (m_blockBits != 16 && m_blockBits != 32 && m_blockBits != 48 && m_blockBits != 64)
    {
        e << "BlockBits must be 16, 32, 48 or 64 (got " << m_blockBits << ")";
    }
    else if (m_linkRate.GetBitRate() == 0)
    {
        e << "LinkRate must be positive";
    }
    else if (m_hostQueue < 9100)
    {
        e << "HostQueueBytes must be at least 9100 (got " << m_hostQueue << ")";
    }
    if (!e.str().empty())
    {
        return e.str();
    }
    // The fabric ports' queues, as the factory (Config defaults included) makes them.
    Ptr<MrcTrimmingQueue> q = m_queueFactory.Create<MrcTrimmingQueue>();
    UintegerValue data;
    UintegerValue control;
    UintegerValue ecnMin;
    UintegerValue ecnMax;
    q->GetAttribute("DataLimit", data);
    q->GetAttribute("ControlLimit", control);
    q->GetAttribute("EcnMinBytes", ecnMin);
    q->GetAttribute("EcnMaxBytes", ecnMax);
    if (data.Get() < 9100 || control.Get() < 1500)
    {
        e << "the queues' DataLimit must be at least 9100 and ControlLimit at least 1500 (got "
          << data.Get() << ", " << control.Get() << ")";
    }
    else if (ecnMin.Get() > ecnMax.Get())
    {
        e << "the queues' EcnMinBytes (" << ecnMin.Get() << ") must not exceed EcnMaxBytes ("
          << ecnMax.Get() << ")";
    }
    return e.str();
}

Ptr<MrcTrimmingQueue>
MrcClosHelper::MakeQueue(bool host, bool lastHop)
{
    Ptr<MrcTrimmingQueue>& proto = m_queueProto[host ? 0 : (lastHop ? 1 : 2)];
    if (proto)
    {
        return CopyObject<MrcTrimmingQueue>(proto);
    }
    proto = m_queueFactory.Create<MrcTrimmingQueue>();
    if (host)
    {
        proto->SetAttribute("DataLimit", UintegerValue(m_hostQueue));
        proto->SetAttribute("ControlLimit", UintegerValue(m_hostQueue));
        proto->SetAttribute("TrimEnabled", BooleanValue(false));
        proto->SetAttribute("EcnEnabled", BooleanValue(false));
        return CopyObject<MrcTrimmingQueue>(proto);
    }
    // Under PFC the data class is lossless: the ingress thresholds bound it, not DataLimit.
    if (m_pfc)
    {
        proto->SetAttribute("DataLimit", UintegerValue(0x7fffffffu));
    }
    if (lastHop && !m_lastHopEcn)
    {
        proto->SetAttribute("EcnEnabled", BooleanValue(false));
    }
    proto->SetAttribute("LastHop", BooleanValue(lastHop));
    return CopyObject<MrcTrimmingQueue>(proto);
}

Ptr<MrcNetDevice>
MrcClosHelper::MakePort()
{
    if (!m_portProto)
    {
        Ptr<MrcNetDevice> first = CreateObject<MrcNetDevice>();
        m_portProto = CopyObject<MrcNetDevice>(first); // never attached; keeps first's MAC
        return first;
    }
    Ptr<MrcNetDevice> port = CopyObject<MrcNetDevice>(m_portProto);
    port->SetAddress(Mac48Address::Allocate());
    return port;
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
    pa = MakePort();
    pb = MakePort();
    const DataRate rate
        = (aHost || bHost || m_uplinkRate.GetBitRate() == 0) ? m_linkRate : m_uplinkRate;
    pa->SetDataRate(rate);
    pb->SetDataRate(rate);
    pa->SetQueue(MakeQueue(aHost, aLastHop));
    pb->SetQueue(MakeQueue(bHost, false));
    for (const auto& [dev, host] : {std::make_pair(pa, aHost), std::make_pair(pb, bHost)})
    {
        if (host)
        {
            dev->SetAttribute("TxLatency", TimeValue(m_nicTxLatency));
            dev->SetRxLatency(m_nicRxLatency);
        }
    }
    if (m_pfc)
    {
        // The watchdog guards switch ports (as on switches deployed with PFC).
        (aHost ? pb : pa)->SetAttribute("PfcWatchdog", TimeValue(m_pfcWatchdog));
        if (!aHost && !bHost)
        {
            pb->SetAttribute("PfcWatchdog", TimeValue(m_pfcWatchdog));
        }
    }
    a->AddDevice(pa);
    b->AddDevice(pb);
    pa->Attach(ch);
    pb->Attach(ch);
    return ch;
}

MrcClosShape
MrcClosHelper::GetShape() const
{
    MrcClosShape shape;
    shape.planes = m_planes;
    shape.hostsPerT0 = m_hostsPerT0;
    shape.t0sPerPod = m_nT0;
    shape.t1sPerPod = m_nT1;
    shape.tiers = m_tiers;
    shape.pods = m_tiers == 3 ? m_pods : 1;
    shape.t2s = m_tiers == 3 ? m_nT2 : 0;
    shape.ecmp = m_routing == "ecmp";
    shape.block = m_block;
    shape.blockBits = m_blockBits;
    shape.linkRate = m_linkRate;
    shape.uplinkRate = m_uplinkRate;
    shape.linkDelay = m_linkDelay;
    // The switches' latency, as the factory (Config defaults included) makes them.
    TimeValue latency;
    BooleanValue cut;
    UintegerValue cutBytes;
    Ptr<MrcSwitchNetDevice> probe = m_switchFactory.Create<MrcSwitchNetDevice>();
    probe->GetAttribute("Latency", latency);
    shape.switchLatency = latency.Get();
    probe->GetAttribute("CutThrough", cut);
    probe->GetAttribute("CutThroughBytes", cutBytes);
    shape.cutThroughBytes = cut.Get() ? static_cast<uint32_t>(cutBytes.Get()) : 0;
    shape.nicTxLatency = m_nicTxLatency;
    shape.nicRxLatency = m_nicRxLatency;
    return shape;
}

Ptr<MrcClosTopology>
MrcClosHelper::Build()
{
    NS_ABORT_MSG_IF(m_topo, "MrcClosHelper: Build() called twice");
    const std::string err = Validate();
    NS_ABORT_MSG_IF(!err.empty(), "MrcClosHelper: " << err);
    m_topo = CreateObject<MrcClosTopology>();
    MrcClosTopology& t = *m_topo;
    t.m_shape = GetShape();
    const MrcClosShape& shape = t.m_shape;

    const bool ecmp = shape.ecmp;
    const uint32_t nT0 = t.GetNT0();
    const uint32_t nT1 = t.GetNT1();
    const uint32_t nT2 = shape.t2s;
    const uint32_t nHosts = t.GetNHosts();
    t.m_hosts.Create(nHosts);
    t.m_hostPorts.assign(nHosts, std::vector<Ptr<MrcNetDevice>>(m_planes));
    t.m_hostLinks.assign(nHosts, std::vector<Ptr<MrcChannel>>(m_planes));
    t.m_t0.assign(m_planes, {});
    t.m_t1.assign(m_planes, {});
    t.m_t2.assign(m_planes, {});
    t.m_uplinks.assign(m_planes, std::vector<Ptr<MrcChannel>>(nT0 * m_nT1));
    t.m_spines.assign(m_planes, std::vector<Ptr<MrcChannel>>(nT1 * nT2));
    if (ecmp)
    {
        t.m_ecmp = m_controlPlaneFactory.Create<MrcEcmpControlPlane>();
        t.m_ecmp->SetHosts(nHosts, m_hostsPerT0);
    }

    for (uint32_t p = 0; p < m_planes; ++p)
    {
        NodeContainer t0Nodes;
        NodeContainer t1Nodes;
        NodeContainer t2Nodes;
        t0Nodes.Create(nT0);
        t1Nodes.Create(nT1);
        t2Nodes.Create(nT2);
        t.m_switchNodes.Add(t0Nodes);
        t.m_switchNodes.Add(t1Nodes);
        t.m_switchNodes.Add(t2Nodes);
        auto makeSwitch = [this, ecmp](Ptr<Node> n, uint16_t usid)
        {
            Ptr<MrcSwitchNetDevice> sw = m_switchFactory.Create<MrcSwitchNetDevice>();
            sw->SetUsid(usid);
            sw->SetLocatorBlock(m_block, static_cast<uint8_t>(m_blockBits));
            sw->SetEcmpMode(ecmp);
            sw->SetAttribute("PfcEnabled", BooleanValue(m_pfc));
            n->AddDevice(sw);
            return sw;
        };
        for (uint32_t i = 0; i < nT0; ++i)
        {
            t.m_t0[p].push_back(makeSwitch(t0Nodes.Get(i), MrcClosTopology::T0Usid(i)));
        }
        for (uint32_t j = 0; j < nT1; ++j)
        {
            t.m_t1[p].push_back(makeSwitch(t1Nodes.Get(j), MrcClosTopology::T1Usid(j)));
        }
        for (uint32_t k = 0; k < nT2; ++k)
        {
            t.m_t2[p].push_back(makeSwitch(t2Nodes.Get(k), MrcClosTopology::T2Usid(k)));
        }
        // Switch indices in the plane's list: T0s, then T1s, then T2s.
        if (ecmp)
        {
            for (const auto* tier : {&t.m_t0[p], &t.m_t1[p], &t.m_t2[p]})
            {
                for (const auto& sw : *tier)
                {
                    t.m_ecmp->AddSwitch(p, sw, tier == &t.m_t0[p]);
                }
            }
        }
        const uint32_t t1Base = nT0;
        const uint32_t t2Base = nT0 + nT1;
        // Host links: T0 ports 0..HostsPerT0-1.
        for (uint32_t i = 0; i < nT0; ++i)
        {
            for (uint32_t k = 0; k < m_hostsPerT0; ++k)
            {
                const uint32_t h = i * m_hostsPerT0 + k;
                Ptr<MrcNetDevice> swPort;
                Ptr<MrcNetDevice> hostPort;
                t.m_hostLinks[h][p] = Connect(
                    t0Nodes.Get(i), t.m_hosts.Get(h), true, false, true, swPort, hostPort);
                const uint32_t idx = t.m_t0[p][i]->AddPort(swPort);
                if (!ecmp)
                {
                    t.m_t0[p][i]->AddRoute(MrcClosTopology::HostUsid(k), idx);
                }
                t.m_hostPorts[h][p] = hostPort;
                AddCable(t, p, i, static_cast<uint16_t>(idx), -1, 0, t.m_hostLinks[h][p]);
            }
        }
        // Uplinks: T0 ports HostsPerT0 + j to the T1s of its pod; T1 ports: the pod's T0s.
        for (uint32_t i = 0; i < nT0; ++i)
        {
            const uint32_t pod = i / m_nT0;
            for (uint32_t j = 0; j < m_nT1; ++j)
            {
                const uint32_t t1 = pod * m_nT1 + j;
                Ptr<MrcNetDevice> up;
                Ptr<MrcNetDevice> down;
                Ptr<MrcChannel> ch
                    = Connect(t0Nodes.Get(i), t1Nodes.Get(t1), false, false, false, up, down);
                t.m_uplinks[p][i * m_nT1 + j] = ch;
                const uint32_t upIdx = t.m_t0[p][i]->AddPort(up);
                if (!ecmp)
                {
                    t.m_t0[p][i]->AddRoute(MrcClosTopology::T1Usid(t1), upIdx);
                }
            }
        }
        for (uint32_t t1 = 0; t1 < nT1; ++t1)
        {
            const uint32_t pod = t1 / m_nT1;
            const uint32_t j = t1 % m_nT1;
            for (uint32_t li = 0; li < m_nT0; ++li)
            {
                const uint32_t i = pod * m_nT0 + li;
                Ptr<MrcChannel> ch = t.m_uplinks[p][i * m_nT1 + j];
                const uint32_t downIdx = t.m_t1[p][t1]->AddPort(ch->GetMrcDevice(1));
                if (!ecmp)
                {
                    t.m_t1[p][t1]->AddRoute(MrcClosTopology::T0Usid(i), downIdx);
                }
                AddCable(t,
                         p,
                         i,
                         static_cast<uint16_t>(m_hostsPerT0 + j),
                         static_cast<int32_t>(t1Base + t1),
                         static_cast<uint16_t>(downIdx),
                         ch);
            }
        }
        // Spine links (3 tiers): T1 ports after its T0s, one per T2; T2 port t1.
        for (uint32_t t1 = 0; t1 < nT1; ++t1)
        {
            for (uint32_t k = 0; k < nT2; ++k)
            {
                Ptr<MrcNetDevice> up;
                Ptr<MrcNetDevice> down;
                Ptr<MrcChannel> ch
                    = Connect(t1Nodes.Get(t1), t2Nodes.Get(k), false, false, false, up, down);
                t.m_spines[p][t1 * nT2 + k] = ch;
                const uint32_t upIdx = t.m_t1[p][t1]->AddPort(up);
                const uint32_t downIdx = t.m_t2[p][k]->AddPort(down);
                AddCable(t,
                         p,
                         t1Base + t1,
                         static_cast<uint16_t>(upIdx),
                         static_cast<int32_t>(t2Base + k),
                         static_cast<uint16_t>(downIdx),
                         ch);
            }
        }
    }
    if (t.m_ecmp)
    {
        t.m_ecmp->Start(); // routes for every plane; from now on it reacts to cable changes
    }
    NS_LOG_INFO("built " << m_planes << " planes, " << nHosts << " hosts, "
                         << t.m_switchNodes.GetN() << " switches");
    m_portProto = nullptr;
    for (auto& q : m_queueProto)
    {
        q = nullptr;
    }
    return m_topo;
}

void
MrcClosHelper::SetRoutedBaseline()
{
    NS_ABORT_MSG_IF(m_topo, "MrcClosHelper: SetRoutedBaseline() must come before Build()");
    m_routing = "ecmp";
    m_queueFactory.Set("TrimEnabled", BooleanValue(false));
    m_lastHopEcn = true;
    m_pfc = true;
}

void
MrcClosHelper::AddCable(MrcClosTopology& topo,
                        uint32_t plane,
                        uint32_t aSw,
                        uint16_t aPort,
                        int32_t bSw,
                        uint16_t bPort,
                        Ptr<MrcChannel> ch)
{
    if (topo.m_ecmp)
    {
        topo.m_ecmp->AddLink(plane, aSw, aPort, bSw, bPort, ch);
    }
}

void
MrcClosHelper::EnablePcapHosts(const std::string& prefix)
{
    NS_ABORT_MSG_IF(!m_topo, "MrcClosHelper: EnablePcapHosts before Build()");
    PcapHelper pcap;
    for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            std::ostringstream name;
            name << prefix << "-" << h << "-" << p << ".pcap";
            Ptr<PcapFileWrapper> file
                = pcap.CreateFile(name.str(), std::ios::out, PcapLinkTypeRaw());
            m_topo->GetHostPort(h, p)->TraceConnectWithoutContext(
                "Sniffer", MakeBoundCallback(&PcapSink, file));
        }
    }
}

} // namespace ns3
