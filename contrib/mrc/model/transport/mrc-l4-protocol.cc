/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-l4-protocol.h"

#include "ns3/mrc-adaptive-spray.h"
#include "ns3/mrc-header.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-recovery-ops.h"
#include "ns3/mrc-selective-recovery.h"

#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcL4Protocol");
NS_OBJECT_ENSURE_REGISTERED(MrcL4Protocol);

TypeId
MrcL4Protocol::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcL4Protocol")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcL4Protocol>()
              .AddAttribute("PathSelector",
                            "TypeId of new queue pairs' path selection (a MrcPathSelector)",
                            TypeIdValue(MrcAdaptiveSpray::GetTypeId()),
                            MakeTypeIdAccessor(&MrcL4Protocol::m_selectorType),
                            MakeTypeIdChecker())
              .AddAttribute("CongestionControl",
                            "TypeId of new queue pairs' congestion control (a MrcCongestionOps)",
                            TypeIdValue(MrcNscc::GetTypeId()),
                            MakeTypeIdAccessor(&MrcL4Protocol::m_ccType),
                            MakeTypeIdChecker())
              .AddAttribute("LossRecovery",
                            "TypeId of new queue pairs' loss recovery (a MrcRecoveryOps): "
                            "ns3::MrcSelectiveRecovery (MRC: SACK/NACK, selective "
                            "retransmission) or ns3::MrcGoBackNRecovery (RoCE: the receiver "
                            "takes only in-order packets and NAKs a gap, the sender rewinds)",
                            TypeIdValue(MrcSelectiveRecovery::GetTypeId()),
                            MakeTypeIdAccessor(&MrcL4Protocol::m_recoveryType),
                            MakeTypeIdChecker())
              .AddAttribute(
                  "PortBacklogBytes",
                  "A NIC port takes a queue pair's next data packet only while less than this "
                  "many data bytes wait in its queue (besides the frame on the wire), so that "
                  "a retransmission or a path change applies to the next packet out, as in a "
                  "NIC whose transmit scheduler pulls packets from its queue pairs when a port "
                  "has room. 0: no limit (queue pairs push everything their window allows "
                  "into the port queues)",
                  UintegerValue(4096),
                  MakeUintegerAccessor(&MrcL4Protocol::m_backlogLimit),
                  MakeUintegerChecker<uint32_t>());
    return tid;
}

MrcL4Protocol::MrcL4Protocol()
    : m_firstWaiter(nullptr)
    , m_backlogLimit(4096)
    , m_waking(false)
    , m_host(0)
    , m_nicRate(0)
    , m_planeMask(0)
    , m_unknownQp(0)
{
    m_qpFactory.SetTypeId(MrcQueuePair::GetTypeId());
    m_rng = CreateObject<UniformRandomVariable>();
    m_prototypes = std::make_shared<Prototypes>();
}

MrcL4Protocol::~MrcL4Protocol() = default;

void
MrcL4Protocol::DoDispose()
{
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_portWaiters.clear();
    m_firstWaiter = nullptr;
    for (auto& p : m_ports)
    {
        p->SetTxNotify(false);
        p->SetFrameReceiver(nullptr, 0);
    }
    m_ports.clear();
    m_paths = nullptr;
    m_rng = nullptr;
    Object::DoDispose();
}

void
MrcL4Protocol::Setup(uint32_t host,
                     const std::vector<Ptr<MrcNetDevice>>& ports,
                     Ptr<MrcPathProvider> paths,
                     uint64_t nicRate,
                     Time baseRtt)
{
    NS_ABORT_MSG_IF(ports.size() > 64, "MrcL4Protocol: at most 64 planes");
    m_host = host;
    m_ports = ports;
    m_paths = paths;
    m_nicRate = nicRate;
    m_baseRtt = baseRtt;
    m_sources.clear();
    for (uint32_t p = 0; p < ports.size(); ++p)
    {
        ports[p]->SetFrameReceiver(this, p);
        ports[p]->SetTxNotify(m_backlogLimit > 0);
        ports[p]->AddLinkChangeCallback(MakeCallback(&MrcL4Protocol::PortChanged, this));
        paths->GetHostAddress(host, p).GetBytes(m_sources.emplace_back().data());
    }
    PortChanged();
}

void
MrcL4Protocol::PortChanged()
{
    uint64_t mask = 0;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (m_ports[p]->IsLinkUp())
        {
            mask |= uint64_t(1) << p;
        }
    }
    if (mask == m_planeMask)
    {
        return;
    }
    NS_LOG_INFO("host " << m_host << " planes up: " << std::hex << mask);
    m_planeMask = mask;
    for (auto& qp : m_qps)
    {
        qp->NotifyPlanesChanged();
    }
}

void
MrcL4Protocol::SetQueuePairFactory(const ObjectFactory& factory)
{
    m_qpFactory = factory;
    m_prototypes = std::make_shared<Prototypes>();
}

void
MrcL4Protocol::SetPathSelectorFactory(const ObjectFactory& factory)
{
    m_selectorFactory = factory;
    m_prototypes = std::make_shared<Prototypes>();
}

void
MrcL4Protocol::SetCongestionOpsFactory(const ObjectFactory& factory)
{
    m_ccFactory = factory;
    m_prototypes = std::make_shared<Prototypes>();
}

void
MrcL4Protocol::SetRecoveryOpsFactory(const ObjectFactory& factory)
{
    m_recoveryFactory = factory;
    m_prototypes = std::make_shared<Prototypes>();
}

void
MrcL4Protocol::SharePrototypes(Ptr<MrcL4Protocol> other)
{
    m_prototypes = other->m_prototypes;
}

template<typename T>
Ptr<T>
MrcL4Protocol::ForkOrMake(Ptr<T>& proto, const ObjectFactory& factory)
{
    if (!proto || proto->GetInstanceTypeId() != factory.GetTypeId())
    {
        proto = factory.Create()->GetObject<T>();
        if (!proto)
        {
            return nullptr;
        }
    }
    if (Ptr<T> copy = proto->Fork(); copy)
    {
        return copy;
    }
    Ptr<T> made = proto;
    proto = nullptr;
    return made;
}

Ptr<MrcQueuePair>
MrcL4Protocol::CreateQueuePair()
{
    Ptr<MrcQueuePair> qp = ForkOrMake(m_prototypes->qp, m_qpFactory);
    NS_ABORT_MSG_IF(!qp,
                    "MrcL4Protocol: the queue pair factory's type "
                        << m_qpFactory.GetTypeId().GetName() << " is not an MrcQueuePair");
    m_qps.push_back(qp);
    return qp;
}

std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>>
MrcL4Protocol::ConnectPair(Ptr<MrcL4Protocol> peer, int32_t port)
{
    Ptr<MrcQueuePair> qa = CreateQueuePair();
    Ptr<MrcQueuePair> qb = peer->CreateQueuePair();
    if (port >= 0)
    {
        qa->SetAttribute("Port", IntegerValue(port));
        qb->SetAttribute("Port", IntegerValue(port));
    }
    Connect(qa, peer->m_host, peer->GetNQueuePairs() - 1);
    peer->Connect(qb, m_host, GetNQueuePairs() - 1);
    return {qa, qb};
}

void
MrcL4Protocol::Connect(Ptr<MrcQueuePair> qp, uint32_t remoteHost, uint32_t remoteQpn)
{
    NS_ABORT_MSG_IF(m_paths == nullptr, "MrcL4Protocol: Setup() first");
    NS_ABORT_MSG_IF(remoteHost >= m_paths->GetNHosts() || remoteHost == m_host,
                    "MrcL4Protocol: bad peer host " << remoteHost);
    uint32_t qpn = 0;
    while (qpn < m_qps.size() && m_qps[qpn] != qp)
    {
        ++qpn;
    }
    NS_ABORT_MSG_IF(qpn == m_qps.size(), "MrcL4Protocol: not one of this host's queue pairs");
    std::vector<MrcPathSet> paths(m_ports.size());
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        paths[p] = m_paths->GetPathSet(m_host, remoteHost, p);
    }
    ObjectFactory sf = m_selectorFactory;
    if (sf.GetTypeId() != m_selectorType)
    {
        sf.SetTypeId(m_selectorType);
    }
    ObjectFactory cf = m_ccFactory;
    if (cf.GetTypeId() != m_ccType)
    {
        cf.SetTypeId(m_ccType);
    }
    ObjectFactory rf = m_recoveryFactory;
    if (rf.GetTypeId() != m_recoveryType)
    {
        rf.SetTypeId(m_recoveryType);
    }
    // One object of each kind is made from its factory and forked for every queue pair: the
    // same attributes and state as an object made from the factory, without ns-3's attribute
    // construction per object.
    Prototypes& proto = *m_prototypes;
    Ptr<MrcRecoveryOps> recovery = ForkOrMake(proto.recovery, rf);
    NS_ABORT_MSG_IF(!recovery,
                    "MrcL4Protocol: LossRecovery " << m_recoveryType.GetName()
                                                   << " is not a MrcRecoveryOps");
    // The connection hash a single-path QP pins its path with (an ECMP hash stand-in).
    uint32_t hash = (m_host * 2654435761u) ^ (remoteHost * 40503u) ^ (qpn * 2246822519u)
                  ^ (remoteQpn * 3266489917u);
    hash ^= hash >> 15;
    const auto nPorts = static_cast<uint32_t>(m_ports.size());
    const int32_t port = qp->GetPort();
    if (port >= 0)
    {
        // A QP bound to a port: the hash picks the path within that port's plane.
        hash = hash - hash % nPorts + static_cast<uint32_t>(port) % nPorts;
    }
    Ptr<MrcPathSelector> selector = ForkOrMake(proto.selector, sf);
    NS_ABORT_MSG_IF(!selector,
                    "MrcL4Protocol: PathSelector " << m_selectorType.GetName()
                                                   << " is not a MrcPathSelector");
    // A QP that stays on one port is paced at that port's rate, not the whole NIC's.
    const double rate = selector->UsesOnePort() ? double(m_nicRate) / nPorts : double(m_nicRate);
    const auto bdp = static_cast<uint32_t>(
        std::min<double>(rate / 8 * m_baseRtt.GetSeconds(), double(1u << 30)));
    Ptr<MrcCongestionOps> cc = ForkOrMake(proto.cc, cf);
    NS_ABORT_MSG_IF(!cc,
                    "MrcL4Protocol: CongestionControl " << m_ccType.GetName()
                                                        << " is not a MrcCongestionOps");
    qp->Setup(this,
              qpn,
              remoteHost,
              remoteQpn,
              std::move(paths),
              selector,
              cc,
              recovery,
              bdp,
              m_baseRtt,
              m_rng,
              hash);
}

Ptr<MrcQueuePair>
MrcL4Protocol::GetQueuePair(uint32_t qpn) const
{
    return m_qps.at(qpn);
}

uint32_t
MrcL4Protocol::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint32_t
MrcL4Protocol::GetHost() const
{
    return m_host;
}

void
MrcL4Protocol::SendFrame(uint32_t plane,
                         const MrcPathSet& paths,
                         uint32_t path,
                         uint32_t flowLabel,
                         uint8_t tc,
                         MrcFrame&& frame)
{
    // As MrcIpv6Fields(source, destination, ...), without an Ipv6Address per packet.
    MrcIpv6Fields h;
    std::memcpy(h.src, m_sources[plane].data(), sizeof(h.src));
    paths.GetBytes(path, h.dst);
    h.flowLabel = flowLabel;
    h.trafficClass = tc;
    h.payloadLength = static_cast<uint16_t>(frame.GetSize());
    m_ports[plane]->SendFrame(std::move(frame), h);
}

Time
MrcL4Protocol::GetTxStartTime(uint32_t plane) const
{
    return m_ports[plane]->GetTxStartTime();
}

void
MrcL4Protocol::ReceiveFrame(uint32_t port, Ptr<Packet> packet, MrcIpv6Fields& header)
{
    if (packet->GetSize() < MrcHeader::SIZE)
    {
        ++m_unknownQp;
        return;
    }
    // The header's bytes in one copy, parsed as Deserialize would: the packet itself is not
    // read again, so its header is not removed (RemoveHeader's metadata and buffer updates).
    uint8_t bytes[MrcHeader::SIZE];
    packet->CopyData(bytes, MrcHeader::SIZE);
    MrcHeader h;
    h.Parse(bytes);
    Deliver(port, h, header);
}

void
MrcL4Protocol::ReceiveOwnedFrame(uint32_t port, MrcFrame&& frame, MrcIpv6Fields& header)
{
    if (!frame.IsCompact())
    {
        ReceiveFrame(port, frame.Release(), header);
        return;
    }
    const uint8_t* bytes = frame.PeekHeaderBytes();
    if (bytes == nullptr)
    {
        ++m_unknownQp; // trimmed shorter than the header
        return;
    }
    MrcHeader h;
    h.Parse(bytes);
    frame.Reset(); // the payload is not read
    Deliver(port, h, header);
}

void
MrcL4Protocol::Deliver(uint32_t port, const MrcHeader& h, const MrcIpv6Fields& header)
{
    if (h.GetDstQpn() >= m_qps.size())
    {
        ++m_unknownQp;
        return;
    }
    m_qps[h.GetDstQpn()]->Receive(h, header.GetTrafficClass(), port);
}

void
MrcL4Protocol::PrefetchTables() const
{
    // A few queue pairs' pointers are one or two cache lines; a host with many has its
    // packets spread over them, and loading the first few would not help.
    if (m_qps.size() <= QPS_PREFETCHED)
    {
        MrcEventPrefetch::Lines(m_qps.data(), m_qps.data() + m_qps.size());
    }
    // What sending a packet (an acknowledgement, or data the acknowledgement lets out) reads:
    // the port of each plane and the host's address in it.
    MrcEventPrefetch::Lines(m_ports.data(), m_ports.data() + m_ports.size());
    MrcEventPrefetch::Lines(m_sources.data(), m_sources.data() + m_sources.size());
}

const MrcQueuePair*
MrcL4Protocol::PeekQueuePair(const MrcFrame& frame, const uint8_t*& header) const
{
    header = frame.PeekHeaderBytes();
    if (header == nullptr)
    {
        return nullptr;
    }
    const uint32_t qpn = MrcHeader::PeekDstQpn(header);
    return qpn < m_qps.size() ? PeekPointer(m_qps[qpn]) : nullptr;
}

void
MrcL4Protocol::PrefetchReceive(const MrcFrame& frame) const
{
    const uint8_t* header = nullptr;
    if (const MrcQueuePair* qp = PeekQueuePair(frame, header); qp != nullptr)
    {
        qp->PrefetchState();
    }
}

void
MrcL4Protocol::PrefetchReceiveParts(const MrcFrame& frame) const
{
    const uint8_t* header = nullptr;
    if (const MrcQueuePair* qp = PeekQueuePair(frame, header); qp != nullptr)
    {
        qp->PrefetchParts(header);
    }
}

void
MrcL4Protocol::PrefetchTxDrained() const
{
    if (m_firstWaiter != nullptr && !m_waking)
    {
        m_firstWaiter->PrefetchState();
        // What TxDrained reads besides: the waiters' ring; the table of queue pairs, where it
        // finds the next one; the ports' room and what sending reads (PrefetchTables).
        m_portWaiters.Prefetch(0);
        m_portWaiters.Prefetch(1);
        PrefetchTables();
    }
}

void
MrcL4Protocol::WaitForPort(uint32_t qpn)
{
    if (m_portWaiters.empty())
    {
        m_firstWaiter = PeekPointer(m_qps[qpn]);
    }
    m_portWaiters.push_back(qpn);
}

void
MrcL4Protocol::TxDrained(uint32_t /* port */)
{
    if (m_portWaiters.empty() || m_waking)
    {
        return;
    }
    // Serve the waiting queue pairs in turn while a port has room; one that fills the ports
    // again asks anew, at the back.
    m_waking = true;
    for (auto n = m_portWaiters.size(); n > 0 && GetPortsWithRoom() != 0; --n)
    {
        const uint32_t qpn = m_portWaiters.front();
        m_portWaiters.pop_front();
        m_firstWaiter = m_portWaiters.empty() ? nullptr : PeekPointer(m_qps[m_portWaiters.front()]);
        m_qps[qpn]->NotifyPortRoom();
    }
    m_waking = false;
}

uint64_t
MrcL4Protocol::GetUnknownQpDrops() const
{
    return m_unknownQp;
}

int64_t
MrcL4Protocol::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3
