/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-switch-net-device.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-dscp.h"
#include "ns3/mrc-lazy-trace-source-accessor.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-simulator-impl.h"
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

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSwitchNetDevice");
NS_OBJECT_ENSURE_REGISTERED(MrcSwitchNetDevice);

static_assert(MrcEcmpTable::NO_PORT == MrcSwitchNetDevice::NO_PORT, "one marker for no port");

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
                              MrcMakeLazyTraceSourceAccessor(&MrcSwitchNetDevice::m_dropTrace),
                              "ns3::MrcSwitchNetDevice::DropTracedCallback");
    return tid;
}

MrcSwitchNetDevice::MrcSwitchNetDevice()
    : m_received(0)
    , m_forwarded(0)
    , m_blockBytes(4)
    , m_usid(0)
    , m_blackhole(false)
    , m_ecmp(false)
    , m_pfc(false)
    , m_frozen(false)
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
    m_pfcIngress.Setup(m_ports,
                       MrcPfcIngress::Config{
                           m_pfcXoffAttr, m_pfcXonAttr, m_pfcHeadroomAttr, m_pfcQuanta, m_latency});
    for (const auto& port : m_ports)
    {
        if (port->GetQueue())
        {
            port->GetQueue()->SetIngressOwner(this);
        }
    }
}

void
MrcSwitchNetDevice::IngressCharge(uint32_t port, uint32_t bytes)
{
    m_pfcIngress.Charge(port, bytes);
}

void
MrcSwitchNetDevice::IngressRelease(uint32_t port, uint32_t bytes)
{
    m_pfcIngress.Release(port, bytes);
}

uint32_t
MrcSwitchNetDevice::GetIngressBytes(uint32_t port) const
{
    return m_pfcIngress.GetIngressBytes(port);
}

uint32_t
MrcSwitchNetDevice::GetMaxIngressBytes(uint32_t port) const
{
    return m_pfcIngress.GetMaxIngressBytes(port);
}

uint32_t
MrcSwitchNetDevice::GetPfcXoff(uint32_t port) const
{
    return m_pfcIngress.GetXoff(port);
}

uint32_t
MrcSwitchNetDevice::GetPfcLimit(uint32_t port) const
{
    return m_pfcIngress.GetLimit(port);
}

void
MrcSwitchNetDevice::SetEcmpHashing(std::string value)
{
    NS_ABORT_MSG_UNLESS(value == "resilient" || value == "modulo",
                        "MrcSwitchNetDevice: EcmpHashing must be resilient or modulo (got '"
                            << value << "')");
    m_ecmpTable.SetResilient(value == "resilient");
}

std::string
MrcSwitchNetDevice::GetEcmpHashing() const
{
    return m_ecmpTable.IsResilient() ? "resilient" : "modulo";
}

void
MrcSwitchNetDevice::DoDispose()
{
    m_pfcIngress.Stop();
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
    if (m_frozen || MrcNow().IsStrictlyPositive())
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
    if (usid != m_usid && (m_frozen || MrcNow().IsStrictlyPositive()))
    {
        NS_LOG_WARN("switch " << m_usid << ": its uSID is static once the simulation runs");
        return;
    }
    m_usid = usid;
    // The ECMP hash salt follows the switch's identity, whatever the order of the setters.
    m_ecmpTable.SetSeed(static_cast<uint32_t>(m_usid) * 2654435761u + 12345);
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
    if (m_frozen || MrcNow().IsStrictlyPositive())
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

bool
MrcSwitchNetDevice::ReadsPackets() const
{
    return false;
}

const MrcNetDevice*
MrcSwitchNetDevice::GetRouteHint(const MrcIpv6Fields& header) const
{
    if (m_blackhole || m_ecmp || m_blockBytes + 4 > sizeof(header.dst))
    {
        return nullptr;
    }
    // The uSID after the active one: the active one after the shift.
    const uint16_t next = MrcUsidCarrier::ActiveOf(header.dst, m_blockBytes + 2);
    if (next == 0 || next >= m_table.size())
    {
        return nullptr;
    }
    const uint16_t out = m_table[next];
    return out < m_ports.size() ? PeekPointer(m_ports[out]) : nullptr;
}

void
MrcSwitchNetDevice::PrefetchForwarding(const MrcIpv6Fields& header) const
{
    if (const MrcNetDevice* port = GetRouteHint(header); port != nullptr)
    {
        port->PrefetchEgress();
    }
}

void
MrcSwitchNetDevice::ReceiveOwnedFrame(uint32_t inPort, MrcFrame&& frame, MrcIpv6Fields& header)
{
    ++m_received;
    if (m_blackhole)
    {
        Drop(std::move(frame), BLACKHOLE);
        return;
    }
    if (m_pfc && MrcDscp::Dscp(header.GetTrafficClass()) == MrcDscp::DATA
        && !m_pfcIngress.Admits(inPort, header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES))
    {
        Drop(std::move(frame), PFC_HEADROOM);
        return;
    }
    if (m_ecmp)
    {
        ForwardEcmp(inPort, std::move(frame), header);
        return;
    }
    // The checks read the header itself, byte by byte: memcmp's masked vector load of a copy
    // written just before could not take the bytes from the pending store and waited for it.
    uint8_t wrongBlock = 0;
    for (uint32_t i = 0; i < m_blockBytes; ++i)
    {
        wrongBlock |= header.dst[i] ^ m_block[i];
    }
    if (wrongBlock != 0)
    {
        Drop(std::move(frame), WRONG_BLOCK);
        return;
    }
    if (MrcUsidCarrier::ActiveOf(header.dst, m_blockBytes) != m_usid)
    {
        Drop(std::move(frame), NOT_MINE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(std::move(frame), HOP_LIMIT);
        return;
    }
    uint8_t a[16];
    std::memcpy(a, header.dst, sizeof(a));
    MrcUsidCarrier::ShiftBytes(a, m_blockBytes);
    const uint16_t next = MrcUsidCarrier::ActiveOf(a, m_blockBytes);
    if (next == 0)
    {
        Drop(std::move(frame), END_OF_CARRIER);
        return;
    }
    const uint16_t out = next < m_table.size() ? m_table[next] : NO_PORT;
    if (out == NO_PORT)
    {
        Drop(std::move(frame), UNKNOWN_USID);
        return;
    }
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        Drop(std::move(frame), PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    std::memcpy(header.dst, a, sizeof(a));
    ++m_forwarded;
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(Ptr<const Packet>(frame.GetPacket()), inPort, out);
    }
    port->SendFrame(std::move(frame), header, static_cast<uint16_t>(inPort));
}

void
MrcSwitchNetDevice::ForwardEcmp(uint32_t inPort, MrcFrame&& frame, MrcIpv6Fields& header)
{
    const uint32_t host = HostIdOf(header.dst);
    if (!m_ecmpTable.HasRoute(host))
    {
        Drop(std::move(frame), NO_ROUTE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(std::move(frame), HOP_LIMIT);
        return;
    }
    const uint16_t out = m_ecmpTable.Lookup(HostIdOf(header.src), host, header.GetFlowLabel());
    if (out == NO_PORT)
    {
        Drop(std::move(frame), NO_ROUTE);
        return;
    }
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        // Hashed onto a dead link that local detection has not caught yet.
        Drop(std::move(frame), PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    ++m_forwarded;
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(Ptr<const Packet>(frame.GetPacket()), inPort, out);
    }
    port->SendFrame(std::move(frame), header, static_cast<uint16_t>(inPort));
}

uint16_t
MrcSwitchNetDevice::GetEcmpEgress(Ipv6Address src, Ipv6Address dst, uint32_t flowLabel) const
{
    uint8_t s[16];
    uint8_t d[16];
    src.GetBytes(s);
    dst.GetBytes(d);
    const uint32_t host = HostIdOf(d);
    if (!m_ecmpTable.HasRoute(host))
    {
        return NO_PORT;
    }
    return m_ecmpTable.Lookup(HostIdOf(s), host, flowLabel);
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
    if (!m_ecmp && (m_frozen || MrcNow().IsStrictlyPositive()))
    {
        NS_LOG_WARN("switch " << m_usid
                              << ": an SRv6 switch's tables are immutable once the "
                                 "simulation runs");
        return false;
    }
    m_ecmpTable.SetRoutes(std::move(hostGroup), std::move(groups), m_ports.size());
    return true;
}

void
MrcSwitchNetDevice::SetPortUsable(uint32_t port, bool usable)
{
    m_ecmpTable.SetPortUsable(port, usable, m_ports.size());
}

bool
MrcSwitchNetDevice::IsPortUsable(uint32_t port) const
{
    return m_ecmpTable.IsPortUsable(port);
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
