/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-switch-net-device.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-dscp.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-trimming-queue.h"
#include "ns3/mrc-usid-carrier.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSwitchNetDevice");
NS_OBJECT_ENSURE_REGISTERED(MrcSwitchNetDevice);

const char*
MrcSwitchNetDevice::DropReasonName(uint32_t reason)
{
    switch (reason)
    {
        case WRONG_BLOCK:
            return "WrongBlock";
        case NOT_MINE:
            return "NotMine";
        case END_OF_CARRIER:
            return "EndOfCarrier";
        case UNKNOWN_USID:
            return "UnknownUsid";
        case HOP_LIMIT:
            return "HopLimit";
        case PORT_DOWN:
            return "PortDown";
        case BLACKHOLE:
            return "Blackhole";
        case NO_ROUTE:
            return "NoRoute";
        case PFC_HEADROOM:
            return "PfcHeadroom";
        default:
            return "Unknown";
    }
}

TypeId
MrcSwitchNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcSwitchNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcSwitchNetDevice>()
              .AddAttribute(
                  "Usid",
                  "This switch's own uSID",
                  UintegerValue(0),
                  MakeUintegerAccessor(&MrcSwitchNetDevice::SetUsid, &MrcSwitchNetDevice::GetUsid),
                  MakeUintegerChecker<uint16_t>())
              .AddAttribute("Latency",
                            "Forwarding latency, from arrival to the egress queue",
                            TimeValue(NanoSeconds(500)),
                            MakeTimeAccessor(&MrcSwitchNetDevice::SetLatency,
                                             &MrcSwitchNetDevice::GetLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("CutThrough",
                            "Cut-through forwarding: a frame arriving on a port no slower than "
                            "any of this switch's ports is taken once its first CutThroughBytes "
                            "are in (its forwarding starts then; the rest arrives as fast as an "
                            "egress can send it); on other ports, and when false, store and "
                            "forward (the whole frame first)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcSwitchNetDevice::SetCutThrough,
                                                &MrcSwitchNetDevice::GetCutThrough),
                            MakeBooleanChecker())
              .AddAttribute("CutThroughBytes",
                            "Cut-through: bytes of a frame needed to forward it (its headers; "
                            "64, as cut-through switches document it)",
                            UintegerValue(64),
                            MakeUintegerAccessor(&MrcSwitchNetDevice::m_cutThroughBytes),
                            MakeUintegerChecker<uint32_t>(1, 9000))
              .AddAttribute("EcmpHashing",
                            "ECMP on member loss: resilient (only the lost member's flows move) "
                            "or modulo (every flow is rehashed over the usable members)",
                            StringValue("resilient"),
                            MakeStringAccessor(&MrcSwitchNetDevice::SetEcmpHashing,
                                               &MrcSwitchNetDevice::GetEcmpHashing),
                            MakeMrcChoiceChecker({"resilient", "modulo"}))
              .AddAttribute("PfcEnabled",
                            "Priority flow control for the data class (lossless; the RoCE "
                            "baseline). Needs drop-free egress queues for data.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcSwitchNetDevice::m_pfc),
                            MakeBooleanChecker())
              .AddAttribute("PfcXoffBytes",
                            "PFC: per ingress port, queued data bytes at which a PAUSE is sent "
                            "(0: twice the port's headroom)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSwitchNetDevice::m_pfcXoffAttr),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PfcXonBytes",
                            "PFC: the charge at which the pause is lifted (0: XOFF minus two "
                            "MTUs, at least half of XOFF)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSwitchNetDevice::m_pfcXonAttr),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PfcHeadroomBytes",
                            "PFC: room above XOFF for what is on the cable when the PAUSE goes "
                            "out (0: 2 x (link delay + Latency) x rate + 3 MTUs, per port)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSwitchNetDevice::m_pfcHeadroomAttr),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PfcQuanta",
                            "PFC: pause time a PAUSE asks for, in 512-bit-time quanta",
                            UintegerValue(65535),
                            MakeUintegerAccessor(&MrcSwitchNetDevice::m_pfcQuanta),
                            MakeUintegerChecker<uint16_t>(1))
              .AddTraceSource("Forward",
                              "A packet was handed to an egress port (packet, inPort, outPort)",
                              MakeTraceSourceAccessor(&MrcSwitchNetDevice::m_forwardTrace),
                              "ns3::MrcSwitchNetDevice::ForwardTracedCallback")
              .AddTraceSource("Drop",
                              "The switch dropped a packet (packet, DropReason)",
                              MakeTraceSourceAccessor(&MrcSwitchNetDevice::m_dropTrace),
                              "ns3::MrcSwitchNetDevice::DropTracedCallback");
    return tid;
}

MrcSwitchNetDevice::MrcSwitchNetDevice()
    : m_usid(0)
    , m_blockBytes(4)
    , m_frozen(false)
    , m_blackhole(false)
    , m_ecmp(false)
    , m_hashSeed(12345)
    , m_resilient(true)
    , m_pfc(false)
    , m_pfcXoffAttr(0)
    , m_pfcXonAttr(0)
    , m_pfcHeadroomAttr(0)
    , m_pfcQuanta(65535)
    , m_latency(NanoSeconds(500))
    , m_cutThrough(false)
    , m_cutThroughBytes(64)
    , m_fastestPort(0)
    , m_ifIndex(0)
    , m_address(Mac48Address::Allocate())
    , m_received(0)
    , m_forwarded(0)
{
    SetLocatorBlock(Ipv6Address("fcbb:bbbb::"), 32);
}

MrcSwitchNetDevice::~MrcSwitchNetDevice() = default;

void
MrcSwitchNetDevice::DoInitialize()
{
    // The simulation is starting: from now on the static table is immutable.
    m_frozen = true;
    UpdateCutThrough(); // the ports' rates are final now
    if (m_pfc)
    {
        SetupPfc();
    }
    NetDevice::DoInitialize();
}

void
MrcSwitchNetDevice::SetupPfc()
{
    const std::size_t n = m_ports.size();
    m_ingressBytes.assign(n, 0);
    m_maxIngressBytes.assign(n, 0);
    m_xoff.assign(n, 0);
    m_xon.assign(n, 0);
    m_limit.assign(n, 0);
    m_pauseOn.assign(n, 0);
    m_refresh.assign(n, EventId());
    for (std::size_t i = 0; i < n; ++i)
    {
        const Ptr<MrcNetDevice>& port = m_ports[i];
        const uint32_t mtu = port->GetMtu();
        uint32_t headroom = m_pfcHeadroomAttr;
        if (headroom == 0)
        {
            // What the upstream still sends until it sees the PAUSE (the PAUSE waits for our
            // frame on the wire, then crosses the cable; the upstream finishes its frame) and
            // what is on the cable and in our pipeline then.
            const Time delay = port->GetMrcChannel() ? port->GetMrcChannel()->GetDelay() : Time(0);
            const double seconds = 2 * (delay + m_latency).GetSeconds();
            headroom
                = static_cast<uint32_t>(seconds * port->GetDataRate().GetBitRate() / 8) + 3 * mtu;
        }
        m_xoff[i] = m_pfcXoffAttr != 0 ? m_pfcXoffAttr : 2 * headroom;
        m_xon[i] = m_pfcXonAttr != 0
                     ? std::min(m_pfcXonAttr, m_xoff[i])
                     : std::max(m_xoff[i] / 2, m_xoff[i] > 2 * mtu ? m_xoff[i] - 2 * mtu : 0);
        m_limit[i] = m_xoff[i] + headroom;
        if (port->GetQueue())
        {
            port->GetQueue()->SetIngressOwner(this);
        }
    }
}

void
MrcSwitchNetDevice::IngressCharge(uint32_t port, uint32_t bytes)
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
        m_ports[port]->SendPause(m_pfcQuanta);
        RefreshPause(port);
    }
}

void
MrcSwitchNetDevice::IngressRelease(uint32_t port, uint32_t bytes)
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
MrcSwitchNetDevice::RefreshPause(uint32_t port)
{
    // Pause time is quanta x 512 bit times at the port's rate; refresh at half of it.
    const Time half = Seconds(double(m_pfcQuanta) * 512 / 2
                              / double(m_ports[port]->GetDataRate().GetBitRate()));
    m_refresh[port] = Simulator::Schedule(
        half,
        +[](MrcSwitchNetDevice* sw, uint32_t p)
        {
            if (sw->m_pauseOn[p])
            {
                sw->m_ports[p]->SendPause(sw->m_pfcQuanta);
                sw->RefreshPause(p);
            }
        },
        this,
        port);
}

uint32_t
MrcSwitchNetDevice::GetIngressBytes(uint32_t port) const
{
    return port < m_ingressBytes.size() ? m_ingressBytes[port] : 0;
}

uint32_t
MrcSwitchNetDevice::GetMaxIngressBytes(uint32_t port) const
{
    return port < m_maxIngressBytes.size() ? m_maxIngressBytes[port] : 0;
}

uint32_t
MrcSwitchNetDevice::GetPfcXoff(uint32_t port) const
{
    return port < m_xoff.size() ? m_xoff[port] : 0;
}

uint32_t
MrcSwitchNetDevice::GetPfcLimit(uint32_t port) const
{
    return port < m_limit.size() ? m_limit[port] : 0;
}

void
MrcSwitchNetDevice::SetEcmpHashing(std::string value)
{
    NS_ABORT_MSG_UNLESS(value == "resilient" || value == "modulo",
                        "MrcSwitchNetDevice: EcmpHashing must be resilient or modulo (got '"
                            << value << "')");
    m_resilient = value == "resilient";
}

std::string
MrcSwitchNetDevice::GetEcmpHashing() const
{
    return m_resilient ? "resilient" : "modulo";
}

void
MrcSwitchNetDevice::DoDispose()
{
    for (auto& e : m_refresh)
    {
        e.Cancel();
    }
    for (auto& p : m_ports)
    {
        p->SetFrameReceiver(nullptr, 0);
    }
    m_ports.clear();
    m_node = nullptr;
    NetDevice::DoDispose();
}

uint32_t
MrcSwitchNetDevice::AddPort(Ptr<MrcNetDevice> port)
{
    const auto index = static_cast<uint32_t>(m_ports.size());
    NS_ABORT_MSG_IF(index >= NO_PORT, "MrcSwitchNetDevice: too many ports");
    m_ports.push_back(port);
    port->SetFrameReceiver(this, index);
    port->SetRxLatency(m_latency);
    if (m_cutThrough) // store and forward (the default) needs no per-port work
    {
        const uint64_t rate = port->GetDataRate().GetBitRate();
        if (rate > m_fastestPort)
        {
            UpdateCutThrough(); // a new fastest port: the others may lose cut-through
        }
        else
        {
            port->SetCutThroughBytes(rate >= m_fastestPort ? m_cutThroughBytes : 0);
        }
    }
    return index;
}

void
MrcSwitchNetDevice::SetCutThrough(bool on)
{
    m_cutThrough = on;
    UpdateCutThrough();
}

bool
MrcSwitchNetDevice::GetCutThrough() const
{
    return m_cutThrough;
}

void
MrcSwitchNetDevice::UpdateCutThrough()
{
    uint64_t fastest = 0;
    for (const auto& p : m_ports)
    {
        fastest = std::max(fastest, p->GetDataRate().GetBitRate());
    }
    m_fastestPort = fastest;
    for (const auto& p : m_ports)
    {
        const bool cut = m_cutThrough && p->GetDataRate().GetBitRate() >= fastest;
        p->SetCutThroughBytes(cut ? m_cutThroughBytes : 0);
    }
}

uint32_t
MrcSwitchNetDevice::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<MrcNetDevice>
MrcSwitchNetDevice::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

bool
MrcSwitchNetDevice::AddRoute(uint16_t usid, uint32_t port)
{
    if (m_frozen || Simulator::Now().IsStrictlyPositive())
    {
        NS_LOG_WARN("switch " << m_usid << ": static table is immutable once the simulation runs");
        return false;
    }
    if (usid == 0 || port >= m_ports.size())
    {
        return false;
    }
    if (m_table.size() <= usid)
    {
        m_table.resize(usid + 1u, NO_PORT);
    }
    m_table[usid] = static_cast<uint16_t>(port);
    return true;
}

uint16_t
MrcSwitchNetDevice::GetRoute(uint16_t usid) const
{
    return usid < m_table.size() ? m_table[usid] : NO_PORT;
}

bool
MrcSwitchNetDevice::IsFrozen() const
{
    return m_frozen;
}

void
MrcSwitchNetDevice::SetUsid(uint16_t usid)
{
    if (usid != m_usid && (m_frozen || Simulator::Now().IsStrictlyPositive()))
    {
        NS_LOG_WARN("switch " << m_usid << ": its uSID is static once the simulation runs");
        return;
    }
    m_usid = usid;
    // The ECMP hash salt follows the switch's identity, whatever the order of the setters.
    m_hashSeed = static_cast<uint32_t>(m_usid) * 2654435761u + 12345;
}

uint16_t
MrcSwitchNetDevice::GetUsid() const
{
    return m_usid;
}

bool
MrcSwitchNetDevice::SetLocatorBlock(Ipv6Address block, uint8_t bits)
{
    NS_ABORT_MSG_UNLESS(MrcUsidCarrier::IsValidBlockBits(bits),
                        "MrcSwitchNetDevice: block length must be 16..96 bits in steps of 16");
    if (m_frozen || Simulator::Now().IsStrictlyPositive())
    {
        NS_LOG_WARN("switch " << m_usid
                              << ": the locator block is static once the simulation runs");
        return false;
    }
    block.GetBytes(m_block);
    m_blockBytes = bits / 8;
    return true;
}

void
MrcSwitchNetDevice::SetBlackhole(bool on)
{
    m_blackhole = on;
}

void
MrcSwitchNetDevice::SetLatency(Time latency)
{
    m_latency = latency;
    for (auto& p : m_ports)
    {
        p->SetRxLatency(latency);
    }
}

Time
MrcSwitchNetDevice::GetLatency() const
{
    return m_latency;
}

void
MrcSwitchNetDevice::ReceiveFrame(uint32_t inPort, Ptr<Packet> packet, MrcIpv6Fields& header)
{
    header.SetPayloadLength(static_cast<uint16_t>(packet->GetSize()));
    ReceiveOwnedFrame(inPort, MrcFrame(packet), header);
}

void
MrcSwitchNetDevice::ReceiveOwnedFrame(uint32_t inPort, MrcFrame&& frame, MrcIpv6Fields& header)
{
    ++m_received;
    if (m_blackhole)
    {
        Drop(frame.Release(), BLACKHOLE);
        return;
    }
    if (m_pfc && MrcDscp::Dscp(header.GetTrafficClass()) == MrcDscp::DATA
        && m_ingressBytes[inPort] + header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES
               > m_limit[inPort])
    {
        Drop(frame.Release(), PFC_HEADROOM);
        return;
    }
    if (m_ecmp)
    {
        ForwardEcmp(inPort, std::move(frame), header);
        return;
    }
    uint8_t a[16];
    std::memcpy(a, header.dst, sizeof(a));
    if (std::memcmp(a, m_block, m_blockBytes) != 0)
    {
        Drop(frame.Release(), WRONG_BLOCK);
        return;
    }
    if (MrcUsidCarrier::ActiveOf(a, m_blockBytes) != m_usid)
    {
        Drop(frame.Release(), NOT_MINE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(frame.Release(), HOP_LIMIT);
        return;
    }
    MrcUsidCarrier::ShiftBytes(a, m_blockBytes);
    const uint16_t next = MrcUsidCarrier::ActiveOf(a, m_blockBytes);
    if (next == 0)
    {
        Drop(frame.Release(), END_OF_CARRIER);
        return;
    }
    const uint16_t out = next < m_table.size() ? m_table[next] : NO_PORT;
    if (out == NO_PORT)
    {
        Drop(frame.Release(), UNKNOWN_USID);
        return;
    }
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        Drop(frame.Release(), PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    std::memcpy(header.dst, a, sizeof(a));
    ++m_forwarded;
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(Ptr<const Packet>(frame.Peek()), inPort, out);
    }
    port->SendFrame(std::move(frame), header, static_cast<uint16_t>(inPort));
}

void
MrcSwitchNetDevice::ForwardEcmp(uint32_t inPort, MrcFrame&& frame, MrcIpv6Fields& header)
{
    const uint32_t host = HostIdOf(header.dst);
    if (host >= m_hostGroup.size())
    {
        Drop(frame.Release(), NO_ROUTE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(frame.Release(), HOP_LIMIT);
        return;
    }
    const uint16_t out
        = PickEcmp(m_hostGroup[host], HostIdOf(header.src), host, header.GetFlowLabel());
    if (out == NO_PORT)
    {
        Drop(frame.Release(), NO_ROUTE);
        return;
    }
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        // Hashed onto a dead link that local detection has not caught yet.
        Drop(frame.Release(), PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    ++m_forwarded;
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(Ptr<const Packet>(frame.Peek()), inPort, out);
    }
    port->SendFrame(std::move(frame), header, static_cast<uint16_t>(inPort));
}

uint16_t
MrcSwitchNetDevice::PickEcmp(uint32_t g,
                             uint32_t srcHost,
                             uint32_t dstHost,
                             uint32_t flowLabel) const
{
    // The flow hash: source, destination and flow label (which carries the per-QP entropy, as
    // the UDP source port does on a real RoCEv2 fabric), salted per switch against
    // polarisation.
    uint64_t h = (uint64_t(srcHost) << 32) ^ dstHost;
    h ^= uint64_t(flowLabel) * 0x9E3779B97F4A7C15ULL;
    h ^= m_hashSeed;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    const std::vector<uint16_t>& group = m_groups[g];
    const std::vector<uint8_t>& mask = m_groupMask[g];
    const auto n = static_cast<uint32_t>(group.size());
    if (m_resilient)
    {
        // The flow's home member, if it is still in the route and usable.
        const uint32_t home = static_cast<uint32_t>(h % n);
        if (mask[home] && m_portUsable[group[home]])
        {
            return group[home];
        }
        h /= n; // the rest of the hash spreads the lost member's flows
    }
    uint32_t usable = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        usable += mask[i] & m_portUsable[group[i]];
    }
    if (usable == 0)
    {
        return NO_PORT;
    }
    uint32_t k = static_cast<uint32_t>(h % usable);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (mask[i] && m_portUsable[group[i]] && k-- == 0)
        {
            return group[i];
        }
    }
    return NO_PORT;
}

uint16_t
MrcSwitchNetDevice::GetEcmpEgress(Ipv6Address src, Ipv6Address dst, uint32_t flowLabel) const
{
    uint8_t s[16];
    uint8_t d[16];
    src.GetBytes(s);
    dst.GetBytes(d);
    const uint32_t host = HostIdOf(d);
    if (host >= m_hostGroup.size())
    {
        return NO_PORT;
    }
    return PickEcmp(m_hostGroup[host], HostIdOf(s), host, flowLabel);
}

bool
MrcSwitchNetDevice::IsBlackhole() const
{
    return m_blackhole;
}

void
MrcSwitchNetDevice::SetEcmpMode(bool on)
{
    m_ecmp = on;
}

bool
MrcSwitchNetDevice::IsEcmpMode() const
{
    return m_ecmp;
}

bool
MrcSwitchNetDevice::SetEcmpRoutes(std::vector<uint32_t> hostGroup,
                                  std::vector<std::vector<uint16_t>> groups)
{
    if (!m_ecmp && (m_frozen || Simulator::Now().IsStrictlyPositive()))
    {
        NS_LOG_WARN("switch " << m_usid
                              << ": an SRv6 switch's tables are immutable once the "
                                 "simulation runs");
        return false;
    }
    m_portUsable.resize(m_ports.size(), 1);
    if (!m_resilient || m_baseGroups.empty())
    {
        // Modulo hashing, or the first routes: the groups as given.
        if (m_baseGroups.empty())
        {
            m_baseHostGroup = hostGroup;
            m_baseGroups = groups;
        }
        m_groupMask.clear();
        for (const auto& g : groups)
        {
            m_groupMask.emplace_back(g.size(), 1);
        }
        m_hostGroup = std::move(hostGroup);
        m_groups = std::move(groups);
        return true;
    }
    // Resilient hashing across reconvergence: a destination whose new group is a subset of its
    // first group keeps the first group's member order, with the withdrawn members masked, so
    // that only their flows move.
    std::map<std::pair<uint32_t, std::vector<uint8_t>>, uint32_t> index;
    std::vector<std::vector<uint16_t>> outGroups;
    std::vector<std::vector<uint8_t>> outMasks;
    std::vector<uint32_t> outHostGroup(hostGroup.size());
    for (std::size_t host = 0; host < hostGroup.size(); ++host)
    {
        const std::vector<uint16_t>& now = groups[hostGroup[host]];
        uint32_t base = host < m_baseHostGroup.size() ? m_baseHostGroup[host] : UINT32_MAX;
        std::vector<uint8_t> mask;
        if (base != UINT32_MAX)
        {
            const std::vector<uint16_t>& first = m_baseGroups[base];
            mask.assign(first.size(), 0);
            for (uint16_t p : now)
            {
                auto it = std::find(first.begin(), first.end(), p);
                if (it == first.end())
                {
                    base = UINT32_MAX; // a member the first routes did not have
                    break;
                }
                mask[it - first.begin()] = 1;
            }
        }
        if (base == UINT32_MAX)
        {
            outHostGroup[host] = static_cast<uint32_t>(outGroups.size());
            outGroups.push_back(now);
            outMasks.emplace_back(now.size(), 1);
            continue;
        }
        auto key = std::make_pair(base, mask);
        auto it = index.find(key);
        if (it == index.end())
        {
            it = index.emplace(key, static_cast<uint32_t>(outGroups.size())).first;
            outGroups.push_back(m_baseGroups[base]);
            outMasks.push_back(std::move(mask));
        }
        outHostGroup[host] = it->second;
    }
    m_hostGroup = std::move(outHostGroup);
    m_groups = std::move(outGroups);
    m_groupMask = std::move(outMasks);
    return true;
}

void
MrcSwitchNetDevice::SetPortUsable(uint32_t port, bool usable)
{
    m_portUsable.resize(m_ports.size(), 1);
    m_portUsable.at(port) = usable ? 1 : 0;
}

bool
MrcSwitchNetDevice::IsPortUsable(uint32_t port) const
{
    return port >= m_portUsable.size() || m_portUsable[port] != 0;
}

uint64_t
MrcSwitchNetDevice::GetReceived() const
{
    return m_received;
}

uint64_t
MrcSwitchNetDevice::GetForwarded() const
{
    return m_forwarded;
}

void
MrcSwitchNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
MrcSwitchNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
MrcSwitchNetDevice::GetChannel() const
{
    return nullptr;
}

void
MrcSwitchNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
MrcSwitchNetDevice::GetAddress() const
{
    return m_address;
}

bool
MrcSwitchNetDevice::SetMtu(const uint16_t /* mtu */)
{
    return false;
}

uint16_t
MrcSwitchNetDevice::GetMtu() const
{
    return 9000;
}

bool
MrcSwitchNetDevice::IsLinkUp() const
{
    return true;
}

void
MrcSwitchNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
}

bool
MrcSwitchNetDevice::IsBroadcast() const
{
    return false;
}

Address
MrcSwitchNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcSwitchNetDevice::IsMulticast() const
{
    return false;
}

Address
MrcSwitchNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetBroadcast();
}

Address
MrcSwitchNetDevice::GetMulticast(Ipv6Address /* addr */) const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcSwitchNetDevice::IsPointToPoint() const
{
    return false;
}

bool
MrcSwitchNetDevice::IsBridge() const
{
    return false;
}

bool
MrcSwitchNetDevice::Send(Ptr<Packet> /* packet */,
                         const Address& /* dest */,
                         uint16_t /* protocolNumber */)
{
    return false;
}

bool
MrcSwitchNetDevice::SendFrom(Ptr<Packet> /* packet */,
                             const Address& /* source */,
                             const Address& /* dest */,
                             uint16_t /* protocolNumber */)
{
    return false;
}

Ptr<Node>
MrcSwitchNetDevice::GetNode() const
{
    return m_node;
}

void
MrcSwitchNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
MrcSwitchNetDevice::NeedsArp() const
{
    return false;
}

void
MrcSwitchNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
}

void
MrcSwitchNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
MrcSwitchNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
