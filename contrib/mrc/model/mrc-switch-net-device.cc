/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-switch-net-device.h"

#include "mrc-net-device.h"
#include "mrc-usid-carrier.h"

#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstring>

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
    , m_latency(NanoSeconds(500))
    , m_ifIndex(0)
    , m_address(Mac48Address::Allocate())
    , m_received(0)
    , m_forwarded(0)
{
    m_dropped.fill(0);
    SetLocatorBlock(Ipv6Address("fcbb:bbbb::"), 32);
}

MrcSwitchNetDevice::~MrcSwitchNetDevice() = default;

void
MrcSwitchNetDevice::DoInitialize()
{
    // The simulation is starting: from now on the static table is immutable.
    m_frozen = true;
    NetDevice::DoInitialize();
}

void
MrcSwitchNetDevice::DoDispose()
{
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
    return index;
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
    m_usid = usid;
    // The ECMP hash salt follows the switch's identity, whatever the order of the setters.
    m_hashSeed = static_cast<uint32_t>(m_usid) * 2654435761u + 12345;
}

uint16_t
MrcSwitchNetDevice::GetUsid() const
{
    return m_usid;
}

void
MrcSwitchNetDevice::SetLocatorBlock(Ipv6Address block, uint8_t bits)
{
    NS_ABORT_MSG_UNLESS(MrcUsidCarrier::IsValidBlockBits(bits),
                        "MrcSwitchNetDevice: block length must be 16..96 bits in steps of 16");
    block.GetBytes(m_block);
    m_blockBytes = bits / 8;
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
MrcSwitchNetDevice::Drop(Ptr<const Packet> packet, DropReason reason)
{
    ++m_dropped[reason];
    m_dropTrace(packet, reason);
}

void
MrcSwitchNetDevice::ReceiveFrame(uint32_t inPort, Ptr<Packet> packet, Ipv6Header& header)
{
    ++m_received;
    if (m_blackhole)
    {
        Drop(packet, BLACKHOLE);
        return;
    }
    if (m_ecmp)
    {
        ForwardEcmp(inPort, packet, header);
        return;
    }
    uint8_t a[16];
    header.GetDestination().GetBytes(a);
    if (std::memcmp(a, m_block, m_blockBytes) != 0)
    {
        Drop(packet, WRONG_BLOCK);
        return;
    }
    if (MrcUsidCarrier::ActiveOf(a, m_blockBytes) != m_usid)
    {
        Drop(packet, NOT_MINE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(packet, HOP_LIMIT);
        return;
    }
    MrcUsidCarrier::ShiftBytes(a, m_blockBytes);
    const uint16_t next = MrcUsidCarrier::ActiveOf(a, m_blockBytes);
    if (next == 0)
    {
        Drop(packet, END_OF_CARRIER);
        return;
    }
    const uint16_t out = next < m_table.size() ? m_table[next] : NO_PORT;
    if (out == NO_PORT)
    {
        Drop(packet, UNKNOWN_USID);
        return;
    }
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        Drop(packet, PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    header.SetDestination(Ipv6Address(a));
    ++m_forwarded;
    m_forwardTrace(packet, inPort, out);
    port->SendFrame(packet, header);
}

void
MrcSwitchNetDevice::ForwardEcmp(uint32_t inPort, Ptr<Packet> packet, Ipv6Header& header)
{
    uint8_t dst[16];
    header.GetDestination().GetBytes(dst);
    const uint32_t host = HostIdOf(dst);
    if (host >= m_hostGroup.size())
    {
        Drop(packet, NO_ROUTE);
        return;
    }
    const std::vector<uint16_t>& group = m_groups[m_hostGroup[host]];
    uint32_t usable = 0;
    for (uint16_t p : group)
    {
        usable += m_portUsable[p];
    }
    if (usable == 0)
    {
        Drop(packet, NO_ROUTE);
        return;
    }
    const uint8_t hopLimit = header.GetHopLimit();
    if (hopLimit <= 1)
    {
        Drop(packet, HOP_LIMIT);
        return;
    }
    uint8_t src[16];
    header.GetSource().GetBytes(src);
    const uint16_t out = PickEcmp(group, usable, HostIdOf(src), host, header.GetFlowLabel());
    MrcNetDevice* port = PeekPointer(m_ports[out]);
    if (!port->IsLinkUp())
    {
        // Hashed onto a dead link that local detection has not caught yet.
        Drop(packet, PORT_DOWN);
        return;
    }
    header.SetHopLimit(hopLimit - 1);
    ++m_forwarded;
    m_forwardTrace(packet, inPort, out);
    port->SendFrame(packet, header);
}

uint16_t
MrcSwitchNetDevice::PickEcmp(const std::vector<uint16_t>& group,
                             uint32_t usable,
                             uint32_t srcHost,
                             uint32_t dstHost,
                             uint32_t flowLabel) const
{
    // The flow hash: source, destination and flow label (which carries the EV, as the UDP
    // source port does on a real RoCEv2 fabric), salted per switch against polarisation.
    uint64_t h = (uint64_t(srcHost) << 32) ^ dstHost;
    h ^= uint64_t(flowLabel) * 0x9E3779B97F4A7C15ULL;
    h ^= m_hashSeed;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    uint32_t k = static_cast<uint32_t>(h % usable);
    for (uint16_t p : group)
    {
        if (m_portUsable[p] && k-- == 0)
        {
            return p;
        }
    }
    return group[0];
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
    const std::vector<uint16_t>& group = m_groups[m_hostGroup[host]];
    uint32_t usable = 0;
    for (uint16_t p : group)
    {
        usable += m_portUsable[p];
    }
    return usable == 0 ? NO_PORT : PickEcmp(group, usable, HostIdOf(s), host, flowLabel);
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

void
MrcSwitchNetDevice::SetEcmpRoutes(std::vector<uint32_t> hostGroup,
                                  std::vector<std::vector<uint16_t>> groups)
{
    m_hostGroup = std::move(hostGroup);
    m_groups = std::move(groups);
    m_portUsable.resize(m_ports.size(), 1);
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

uint64_t
MrcSwitchNetDevice::GetDropped(DropReason reason) const
{
    return m_dropped[reason];
}

uint64_t
MrcSwitchNetDevice::GetDroppedTotal() const
{
    uint64_t s = 0;
    for (auto d : m_dropped)
    {
        s += d;
    }
    return s;
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
