/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-clos-helper.h"

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
              .AddAttribute("DetectionDelay",
                            "ECMP: delay before the switches next to a failed (or repaired) link "
                            "stop (or resume) using it, as BFD (deployed: 3 x 50 ms hellos); "
                            "given to the MrcEcmpControlPlane at Build",
                            TimeValue(MilliSeconds(150)),
                            MakeTimeAccessor(&MrcClosHelper::m_detection),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("ReconvergenceDelay",
                            "ECMP: further delay before every switch's routes reflect the change, "
                            "as BGP (deployed: seconds); given to the MrcEcmpControlPlane at "
                            "Build",
                            TimeValue(Seconds(2)),
                            MakeTimeAccessor(&MrcClosHelper::m_reconvergence),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("EcmpHashing",
                            "ECMP: resilient (on member loss only that member's flows move; "
                            "what deployed switches do) or modulo (every flow is rehashed)",
                            StringValue("resilient"),
                            MakeStringAccessor(&MrcClosHelper::m_hashing),
                            MakeMrcChoiceChecker({"resilient", "modulo"}))
              .AddAttribute("Pfc",
                            "Priority flow control on every switch and NIC port for the data "
                            "class: lossless, the egress data queues never drop (SetRoutedBaseline "
                            "turns it on)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcClosHelper::m_pfc),
                            MakeBooleanChecker())
              .AddAttribute("PfcXoffBytes",
                            "PFC XOFF threshold per ingress port (0: twice the port's headroom, "
                            "which follows link delay and rate)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcClosHelper::m_pfcXoff),
                            MakeUintegerChecker<uint32_t>())
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
    , m_pfcXoff(0)
    , m_pfcWatchdog(0)
    , m_hashing("resilient")
    , m_routing("srv6")
    , m_tiers(2)
    , m_pods(2)
    , m_nT2(2)
    , m_built(false)
{
    m_queueFactory.SetTypeId(MrcTrimmingQueue::GetTypeId());
}

void
MrcClosHelper::SetQueueAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(m_built, "MrcClosHelper: SetQueueAttribute after Build()");
    m_queueFactory.Set(name, value);
}

MrcClosHelper::~MrcClosHelper() = default;

MrcPathSet
MrcClosHelper::GetPathSet(uint32_t src, uint32_t dst, uint32_t plane) const
{
    MrcPathSet set;
    if (IsEcmp())
    {
        // Destination routing: every path has the same address; the EV (flow label) steers.
        set.count = 1;
        if (GetT0Of(src) != GetT0Of(dst))
        {
            set.count = GetPodOf(src) == GetPodOf(dst) ? m_nT1 : m_nT1 * m_nT2;
        }
        GetHostAddress(dst, plane).GetBytes(set.base);
        return set;
    }
    MakeCarrier(src, dst, plane, 0).GetAddress().GetBytes(set.base);
    if (GetT0Of(src) == GetT0Of(dst))
    {
        set.count = 1;
        return set;
    }
    // <block><T0 up><T1><T0 down><host port>: path j differs from path 0 only in the T1's uSID,
    // T1Usid(j) = T1Usid(0) + j.
    set.count = m_nT1;
    set.varByte = static_cast<int8_t>(m_blockBits / 8 + 2);
    return set;
}

Time
MrcClosHelper::GetBaseRtt(uint32_t packetBytes) const
{
    const Time data = m_linkRate.CalculateBytesTxTime(packetBytes);
    const Time ctrl
        = m_linkRate.CalculateBytesTxTime(MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE);
    const int64_t links = m_tiers == 3 ? 6 : 4; // one way, hosts in different pods / T0s
    return 2 * links * m_linkDelay + 2 * (links - 1) * m_switchLatency + links * data
         + links * ctrl;
}

uint64_t
MrcClosHelper::GetTrimmedTotal() const
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
    m_t2.clear();
    m_spines.clear();
    m_ecmp = nullptr;
    MrcPathProvider::DoDispose();
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
    else if (m_hashing != "resilient" && m_hashing != "modulo")
    {
        e << "EcmpHashing must be resilient or modulo (got '" << m_hashing << "')";
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
    Ptr<MrcTrimmingQueue> q = m_queueFactory.Create<MrcTrimmingQueue>();
    if (host)
    {
        q->SetAttribute("DataLimit", UintegerValue(m_hostQueue));
        q->SetAttribute("ControlLimit", UintegerValue(m_hostQueue));
        q->SetAttribute("TrimEnabled", BooleanValue(false));
        q->SetAttribute("EcnEnabled", BooleanValue(false));
        return q;
    }
    // Under PFC the data class is lossless: the ingress thresholds bound it, not DataLimit.
    if (m_pfc)
    {
        q->SetAttribute("DataLimit", UintegerValue(0x7fffffffu));
    }
    if (lastHop && !m_lastHopEcn)
    {
        q->SetAttribute("EcnEnabled", BooleanValue(false));
    }
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

void
MrcClosHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "MrcClosHelper: Build() called twice");
    const std::string err = Validate();
    NS_ABORT_MSG_IF(!err.empty(), "MrcClosHelper: " << err);
    m_built = true;

    const bool ecmp = IsEcmp();
    const uint32_t pods = m_tiers == 3 ? m_pods : 1;
    const uint32_t nT0 = m_nT0 * pods;
    const uint32_t nT1 = m_nT1 * pods;
    const uint32_t nT2 = m_tiers == 3 ? m_nT2 : 0;
    const uint32_t nHosts = m_hostsPerT0 * nT0;
    m_hosts.Create(nHosts);
    m_hostPorts.assign(nHosts, std::vector<Ptr<MrcNetDevice>>(m_planes));
    m_hostLinks.assign(nHosts, std::vector<Ptr<MrcChannel>>(m_planes));
    m_t0.assign(m_planes, {});
    m_t1.assign(m_planes, {});
    m_t2.assign(m_planes, {});
    m_uplinks.assign(m_planes, std::vector<Ptr<MrcChannel>>(nT0 * m_nT1));
    m_spines.assign(m_planes, std::vector<Ptr<MrcChannel>>(nT1 * nT2));
    if (ecmp)
    {
        m_ecmp = CreateObject<MrcEcmpControlPlane>();
        m_ecmp->SetAttribute("DetectionDelay", TimeValue(m_detection));
        m_ecmp->SetAttribute("ReconvergenceDelay", TimeValue(m_reconvergence));
        m_ecmp->SetHosts(nHosts, m_hostsPerT0);
    }

    for (uint32_t p = 0; p < m_planes; ++p)
    {
        NodeContainer t0Nodes;
        NodeContainer t1Nodes;
        NodeContainer t2Nodes;
        t0Nodes.Create(nT0);
        t1Nodes.Create(nT1);
        t2Nodes.Create(nT2);
        m_switchNodes.Add(t0Nodes);
        m_switchNodes.Add(t1Nodes);
        m_switchNodes.Add(t2Nodes);
        auto makeSwitch = [this, ecmp](Ptr<Node> n, uint16_t usid)
        {
            Ptr<MrcSwitchNetDevice> sw = CreateObject<MrcSwitchNetDevice>();
            sw->SetUsid(usid);
            sw->SetLocatorBlock(m_block, static_cast<uint8_t>(m_blockBits));
            sw->SetAttribute("Latency", TimeValue(m_switchLatency));
            sw->SetEcmpMode(ecmp);
            sw->SetAttribute("EcmpHashing", StringValue(m_hashing));
            sw->SetAttribute("PfcEnabled", BooleanValue(m_pfc));
            sw->SetAttribute("PfcXoffBytes", UintegerValue(m_pfcXoff));
            n->AddDevice(sw);
            return sw;
        };
        for (uint32_t i = 0; i < nT0; ++i)
        {
            m_t0[p].push_back(makeSwitch(t0Nodes.Get(i), T0Usid(i)));
        }
        for (uint32_t j = 0; j < nT1; ++j)
        {
            m_t1[p].push_back(makeSwitch(t1Nodes.Get(j), T1Usid(j)));
        }
        for (uint32_t k = 0; k < nT2; ++k)
        {
            m_t2[p].push_back(makeSwitch(t2Nodes.Get(k), static_cast<uint16_t>(0x3000 + k)));
        }
        // Switch indices in the plane's list: T0s, then T1s, then T2s.
        if (m_ecmp)
        {
            for (const auto* tier : {&m_t0[p], &m_t1[p], &m_t2[p]})
            {
                for (const auto& sw : *tier)
                {
                    m_ecmp->AddSwitch(p, sw, tier == &m_t0[p]);
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
                m_hostLinks[h][p]
                    = Connect(t0Nodes.Get(i), m_hosts.Get(h), true, false, true, swPort, hostPort);
                const uint32_t idx = m_t0[p][i]->AddPort(swPort);
                if (!ecmp)
                {
                    m_t0[p][i]->AddRoute(HostUsid(k), idx);
                }
                m_hostPorts[h][p] = hostPort;
                AddCable(p, i, static_cast<uint16_t>(idx), -1, 0, m_hostLinks[h][p]);
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
                m_uplinks[p][i * m_nT1 + j] = ch;
                const uint32_t upIdx = m_t0[p][i]->AddPort(up);
                if (!ecmp)
                {
                    m_t0[p][i]->AddRoute(T1Usid(t1), upIdx);
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
                Ptr<MrcChannel> ch = m_uplinks[p][i * m_nT1 + j];
                const uint32_t downIdx = m_t1[p][t1]->AddPort(ch->GetMrcDevice(1));
                if (!ecmp)
                {
                    m_t1[p][t1]->AddRoute(T0Usid(i), downIdx);
                }
                AddCable(p,
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
                m_spines[p][t1 * nT2 + k] = ch;
                const uint32_t upIdx = m_t1[p][t1]->AddPort(up);
                const uint32_t downIdx = m_t2[p][k]->AddPort(down);
                AddCable(p,
                         t1Base + t1,
                         static_cast<uint16_t>(upIdx),
                         static_cast<int32_t>(t2Base + k),
                         static_cast<uint16_t>(downIdx),
                         ch);
            }
        }
    }
    if (m_ecmp)
    {
        m_ecmp->Start(); // routes for every plane; from now on it reacts to cable changes
    }
    NS_LOG_INFO("built " << m_planes << " planes, " << nHosts << " hosts, " << m_switchNodes.GetN()
                         << " switches");
}

void
MrcClosHelper::SetRoutedBaseline()
{
    NS_ABORT_MSG_IF(m_built, "MrcClosHelper: SetRoutedBaseline() must come before Build()");
    m_routing = "ecmp";
    m_queueFactory.Set("TrimEnabled", BooleanValue(false));
    m_lastHopEcn = true;
    m_pfc = true;
}

Ptr<Packet>
MrcClosHelper::SendRawPacket(uint32_t src, const MrcPath& path, uint32_t bytes, uint8_t ecn) const
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

void
MrcClosHelper::AddCable(
    uint32_t plane, uint32_t aSw, uint16_t aPort, int32_t bSw, uint16_t bPort, Ptr<MrcChannel> ch)
{
    if (m_ecmp)
    {
        m_ecmp->AddLink(plane, aSw, aPort, bSw, bPort, ch);
    }
}

Ptr<MrcEcmpControlPlane>
MrcClosHelper::GetControlPlane() const
{
    return m_ecmp;
}

uint32_t
MrcClosHelper::GetNHosts() const
{
    return m_hostsPerT0 * GetNT0();
}

bool
MrcClosHelper::IsEcmp() const
{
    return m_routing == "ecmp";
}

uint32_t
MrcClosHelper::GetNTiers() const
{
    return m_tiers;
}

uint32_t
MrcClosHelper::GetNT2() const
{
    return m_tiers == 3 ? m_nT2 : 0;
}

Ptr<MrcSwitchNetDevice>
MrcClosHelper::GetT2(uint32_t plane, uint32_t k) const
{
    return m_t2.at(plane).at(k);
}

Ptr<MrcChannel>
MrcClosHelper::GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const
{
    return m_spines.at(plane).at(t1 * m_nT2 + k);
}

uint32_t
MrcClosHelper::GetPodOf(uint32_t h) const
{
    return GetT0Of(h) / m_nT0;
}

uint32_t
MrcClosHelper::GetNPlanes() const
{
    return m_planes;
}

uint32_t
MrcClosHelper::GetNT0() const
{
    return m_nT0 * (m_tiers == 3 ? m_pods : 1);
}

uint32_t
MrcClosHelper::GetNT1() const
{
    return m_nT1 * (m_tiers == 3 ? m_pods : 1);
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

Ptr<Node>
MrcClosHelper::GetHost(uint32_t h) const
{
    return m_hosts.Get(h);
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

uint32_t
MrcClosHelper::GetNUplinks(uint32_t plane, uint32_t t0) const
{
    return GetT0(plane, t0)->GetNPorts() - m_hostsPerT0;
}

Ptr<MrcSwitchNetDevice>
MrcClosHelper::GetSwitchDevice(uint32_t plane, uint32_t tier, uint32_t i) const
{
    return tier == 0 ? GetT0(plane, i) : (tier == 1 ? GetT1(plane, i) : GetT2(plane, i));
}

std::vector<Ptr<MrcChannel>>
MrcClosHelper::GetSwitchLinks(uint32_t plane, uint32_t tier, uint32_t i) const
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
    if (IsEcmp())
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
        if (IsEcmp())
        {
            // Destination routing: one address per plane; the switches pick the path.
            out.push_back({p,
                           -1,
                           MrcUsidCarrier::FromAddress(GetHostAddress(dst, p),
                                                       static_cast<uint8_t>(m_blockBits))});
            continue;
        }
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
                = pcap.CreateFile(name.str(), std::ios::out, PcapLinkTypeRaw());
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

} // namespace ns3
