/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-trimming-queue.h"

#include "ns3/mrc-dscp.h"
#include "ns3/mrc-lazy-trace-source-accessor.h"
#include "ns3/mrc-slot-pool.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <new>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTrimmingQueue");
NS_OBJECT_ENSURE_REGISTERED(MrcTrimmingQueue);

const char*
MrcTrimmingQueue::DropReasonName(uint32_t reason)
{
    switch (reason)
    {
        case DATA_OVERFLOW:
            return "DataOverflow";
        case CONTROL_OVERFLOW:
            return "ControlOverflow";
        case TRIMMED_OVERFLOW:
            return "TrimmedOverflow";
        case LINK_DOWN:
            return "LinkDown";
        case PFC_WATCHDOG:
            return "PfcWatchdog";
        default:
            return "Unknown";
    }
}

TypeId
MrcTrimmingQueue::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcTrimmingQueue")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcTrimmingQueue>()
              .AddAttribute("DataLimit",
                            "Data class limit in bytes (IPv6 header included)",
                            UintegerValue(512000),
                            MakeUintegerAccessor(&MrcTrimmingQueue::m_dataLimit),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ControlLimit",
                            "Control class limit in bytes (IPv6 header included)",
                            UintegerValue(200000),
                            MakeUintegerAccessor(&MrcTrimmingQueue::m_controlLimit),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("TrimEnabled",
                            "Trim data packets that do not fit (false: drop them)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcTrimmingQueue::m_trimEnabled),
                            MakeBooleanChecker())
              .AddAttribute("TrimSize",
                            "IPv6 payload bytes a trimmed packet keeps (76: UDP + MrcHeader)",
                            UintegerValue(76),
                            MakeUintegerAccessor(&MrcTrimmingQueue::m_trimSize),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("EcnEnabled",
                            "Mark ECN-capable data packets (MRC turns this off on last-hop ports)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcTrimmingQueue::m_ecnEnabled),
                            MakeBooleanChecker())
              .AddAttribute("EcnMinBytes",
                            "Data backlog at which marking starts",
                            UintegerValue(100000),
                            MakeUintegerAccessor(&MrcTrimmingQueue::m_ecnMin),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("EcnMaxBytes",
                            "Data backlog from which every packet is marked",
                            UintegerValue(400000),
                            MakeUintegerAccessor(&MrcTrimmingQueue::m_ecnMax),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("EcnMaxProbability",
                            "Marking probability just below EcnMaxBytes",
                            DoubleValue(0.2),
                            MakeDoubleAccessor(&MrcTrimmingQueue::m_ecnMaxP),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("LastHop",
                            "This queue feeds a host-facing port: trims are last-hop trims",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcTrimmingQueue::m_lastHop),
                            MakeBooleanChecker())
              .AddTraceSource(
                  "Enqueue",
                  "A packet was queued intact",
                  MrcMakeLazyTraceSourceAccessor(&MrcTrimmingQueue::m_traces, &Traces::enqueue),
                  "ns3::Packet::TracedCallback")
              .AddTraceSource(
                  "Trim",
                  "A data packet was trimmed (packet, lastHop)",
                  MrcMakeLazyTraceSourceAccessor(&MrcTrimmingQueue::m_traces, &Traces::trim),
                  "ns3::MrcTrimmingQueue::TrimTracedCallback")
              .AddTraceSource(
                  "Mark",
                  "A data packet was ECN-marked",
                  MrcMakeLazyTraceSourceAccessor(&MrcTrimmingQueue::m_traces, &Traces::mark),
                  "ns3::Packet::TracedCallback")
              .AddTraceSource("Drop",
                              "A packet was dropped (packet, DropReason)",
                              MrcMakeLazyTraceSourceAccessor(&MrcTrimmingQueue::m_dropTrace),
                              "ns3::MrcTrimmingQueue::DropTracedCallback")
              .AddTraceSource(
                  "Dequeue",
                  "A packet left the queue for the wire",
                  MrcMakeLazyTraceSourceAccessor(&MrcTrimmingQueue::m_traces, &Traces::dequeue),
                  "ns3::Packet::TracedCallback");
    return tid;
}

MrcTrimmingQueue::MrcTrimmingQueue()
    : m_dataBytes(0)
    , m_controlBytes(0)
    , m_ingressOwner(nullptr)
    , m_maxDataBytes(0)
    , m_arrivals(0)
    , m_enqueued(0)
    , m_dequeued(0)
    , m_stream(-1)
    , m_trimmed(0)
    , m_marked(0)
{
}

MrcTrimmingQueue::MrcTrimmingQueue(const MrcTrimmingQueue& o) = default;

MrcTrimmingQueue::~MrcTrimmingQueue() = default;

void
MrcTrimmingQueue::DoDispose()
{
    m_data.Clear();
    m_control.Clear();
    m_uniform = nullptr;
    Object::DoDispose();
}

MrcTrimmingQueue::Outcome
MrcTrimmingQueue::Enqueue(Ptr<Packet> packet, MrcIpv6Fields& header, uint16_t ingress)
{
    header.SetPayloadLength(static_cast<uint16_t>(packet->GetSize()));
    return Enqueue(MrcFrame(packet), header, ingress);
}

MrcTrimmingQueue::Outcome
MrcTrimmingQueue::Enqueue(MrcFrame&& frame, MrcIpv6Fields& header, uint16_t ingress)
{
    ++m_arrivals;
    NS_ASSERT_MSG(frame.GetSize() == header.GetPayloadLength(),
                  "MrcTrimmingQueue: payloadLength differs from the packet's size");
    const uint32_t bytes = header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES;
    const uint8_t tc = header.GetTrafficClass();
    if (MrcDscp::Dscp(tc) != MrcDscp::DATA)
    {
        if (m_controlBytes + bytes > m_controlLimit)
        {
            Drop(std::move(frame), CONTROL_OVERFLOW);
            return DROPPED;
        }
        m_controlBytes += bytes;
        Traces* t = m_traces.Peek();
        const Packet* queued = (t != nullptr && !t->enqueue.IsEmpty())
                                 ? frame.GetPacket() // the ring keeps it alive
                                 : nullptr;
        m_control.Push(std::move(frame), header, NO_INGRESS);
        ++m_enqueued;
        if (queued != nullptr)
        {
            t->enqueue(Ptr<const Packet>(queued));
        }
        return ENQUEUED;
    }

    if (m_dataBytes + bytes <= m_dataLimit)
    {
        const uint8_t ecn = MrcDscp::Ecn(tc);
        if (m_ecnEnabled && ecn != MrcDscp::ECN_NOT_ECT && ecn != MrcDscp::ECN_CE
            && m_dataBytes >= m_ecnMin)
        {
            bool mark = m_dataBytes >= m_ecnMax;
            if (!mark)
            {
                const double p
                    = m_ecnMaxP * double(m_dataBytes - m_ecnMin) / double(m_ecnMax - m_ecnMin);
                if (!m_uniform)
                {
                    // Made at the first draw: most ports (hosts, last hops) never mark, and
                    // a 131,072-GPU fabric has four million of them.
                    m_uniform = CreateObject<UniformRandomVariable>();
                    if (m_stream >= 0)
                    {
                        m_uniform->SetStream(m_stream);
                    }
                }
                mark = m_uniform->GetValue() < p;
            }
            if (mark)
            {
                header.SetTrafficClass(MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_CE));
                ++m_marked;
                if (Traces* t = m_traces.Peek(); t != nullptr && !t->mark.IsEmpty())
                {
                    t->mark(Ptr<const Packet>(frame.GetPacket()));
                }
            }
        }
        m_dataBytes += bytes;
        if (m_dataBytes > m_maxDataBytes)
        {
            m_maxDataBytes = m_dataBytes;
        }
        if (m_ingressOwner != nullptr && ingress != NO_INGRESS)
        {
            m_ingressOwner->IngressCharge(ingress, bytes);
        }
        else
        {
            ingress = NO_INGRESS;
        }
        Traces* t = m_traces.Peek();
        const Packet* queued = (t != nullptr && !t->enqueue.IsEmpty())
                                 ? frame.GetPacket() // the ring keeps it alive
                                 : nullptr;
        m_data.Push(std::move(frame), header, ingress);
        ++m_enqueued;
        if (queued != nullptr)
        {
            t->enqueue(Ptr<const Packet>(queued));
        }
        return ENQUEUED;
    }

    if (!m_trimEnabled)
    {
        Drop(std::move(frame), DATA_OVERFLOW);
        return DROPPED;
    }
    // Trim: keep the transport headers, move to the control class with a "trimmed" DSCP.
    frame.TrimTo(m_trimSize);
    const uint32_t trimmedSize = frame.GetSize();
    const uint32_t trimmedBytes = trimmedSize + MrcIpv6Fields::HEADER_BYTES;
    if (m_controlBytes + trimmedBytes > m_controlLimit)
    {
        Drop(std::move(frame), TRIMMED_OVERFLOW);
        return DROPPED;
    }
    header.SetTrafficClass(MrcDscp::TrafficClass(
        m_lastHop ? MrcDscp::TRIMMED_LAST_HOP : MrcDscp::TRIMMED, MrcDscp::Ecn(tc)));
    header.SetPayloadLength(static_cast<uint16_t>(trimmedSize));
    m_controlBytes += trimmedBytes;
    Traces* t = m_traces.Peek();
    const Packet* trimmed = (t != nullptr && !t->trim.IsEmpty())
                              ? frame.GetPacket() // the ring keeps it alive
                              : nullptr;
    m_control.Push(std::move(frame), header, NO_INGRESS);
    ++m_trimmed;
    if (trimmed != nullptr)
    {
        t->trim(Ptr<const Packet>(trimmed), m_lastHop);
    }
    return TRIMMED;
}

bool
MrcTrimmingQueue::Dequeue(Ptr<Packet>& packet, MrcIpv6Fields& header, bool dataAllowed)
{
    MrcFrame frame;
    if (!Dequeue(frame, header, dataAllowed))
    {
        return false;
    }
    packet = frame.Release();
    return true;
}

bool
MrcTrimmingQueue::Dequeue(MrcFrame& frame, MrcIpv6Fields& header, bool dataAllowed)
{
    Ring* q;
    if (!m_control.Empty())
    {
        q = &m_control;
    }
    else if (dataAllowed && !m_data.Empty())
    {
        q = &m_data;
    }
    else
    {
        return false;
    }
    Item& item = q->Front();
    frame = std::move(item.frame);
    header = item.header;
    const uint16_t ingress = item.ingress;
    q->Pop();
    const uint32_t bytes = header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES;
    if (q == &m_control)
    {
        m_controlBytes -= bytes;
    }
    else
    {
        m_dataBytes -= bytes;
        if (ingress != NO_INGRESS)
        {
            m_ingressOwner->IngressRelease(ingress, bytes);
        }
    }
    ++m_dequeued;
    if (Traces* t = m_traces.Peek(); t != nullptr && !t->dequeue.IsEmpty())
    {
        t->dequeue(Ptr<const Packet>(frame.GetPacket()));
    }
    return true;
}

void
MrcTrimmingQueue::SetIngressOwner(MrcFrameReceiver* owner)
{
    m_ingressOwner = owner;
}

void
MrcTrimmingQueue::Flush()
{
    m_control.ForEach(
        [this](Item& item)
        {
            Drop(std::move(item.frame), LINK_DOWN);
        });
    m_control.Clear();
    m_controlBytes = 0;
    FlushData(LINK_DOWN);
}

void
MrcTrimmingQueue::FlushData(DropReason reason)
{
    m_data.ForEach(
        [this, reason](Item& item)
        {
            if (item.ingress != NO_INGRESS)
            {
                m_ingressOwner->IngressRelease(
                    item.ingress, item.header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES);
            }
            Drop(std::move(item.frame), reason);
        });
    m_data.Clear();
    m_dataBytes = 0;
}

MrcTrimmingQueue::Ring::~Ring()
{
    for (uint32_t i = 0; i < m_capacity; ++i)
    {
        m_items[i].~Item();
    }
    MrcSlotPool::Give(m_items, std::size_t(m_capacity) * sizeof(Item));
}

void
MrcTrimmingQueue::Ring::Grow()
{
    const uint32_t capacity = m_capacity == 0 ? 1 : m_capacity * 2;
    auto bigger = static_cast<Item*>(MrcSlotPool::Take(std::size_t(capacity) * sizeof(Item)));
    for (uint32_t i = 0; i < capacity; ++i)
    {
        new (&bigger[i]) Item();
    }
    for (uint32_t i = 0; i < m_size; ++i)
    {
        bigger[i] = std::move(m_items[(m_head + i) & (m_capacity - 1)]);
    }
    for (uint32_t i = 0; i < m_capacity; ++i)
    {
        m_items[i].~Item();
    }
    MrcSlotPool::Give(m_items, std::size_t(m_capacity) * sizeof(Item));
    m_items = bigger;
    m_capacity = capacity;
    m_head = 0;
}

void
MrcTrimmingQueue::Ring::Push(MrcFrame&& frame, const MrcIpv6Fields& header, uint16_t ingress)
{
    if (m_size == m_capacity)
    {
        Grow();
    }
    // Slots outside [m_head, m_head + m_size) hold empty frames (Pop and Clear empty them), so
    // the slot is written without being read first.
    Item& slot = m_items[(m_head + m_size) & (m_capacity - 1)];
    slot.frame.FillEmpty(std::move(frame));
    slot.header = header;
    slot.ingress = ingress;
    ++m_size;
}

void
MrcTrimmingQueue::Ring::Pop()
{
    m_items[m_head].frame.Reset();
    // An emptied ring starts again at slot 0, so that a queue that holds a packet or two at a
    // time keeps reusing one warm cache line instead of walking through all its slots.
    m_head = (--m_size == 0) ? 0 : (m_head + 1) & (m_capacity - 1);
}

void
MrcTrimmingQueue::Ring::Clear()
{
    for (uint32_t i = 0; i < m_capacity; ++i)
    {
        m_items[i].frame.Reset();
    }
    m_head = 0;
    m_size = 0;
}

void
MrcTrimmingQueue::CountExternalDrop(MrcFrame&& frame, DropReason reason)
{
    ++m_arrivals;
    Drop(std::move(frame), reason);
}

uint64_t
MrcTrimmingQueue::GetArrivals() const
{
    return m_arrivals;
}

uint64_t
MrcTrimmingQueue::GetEnqueued() const
{
    return m_enqueued;
}

uint64_t
MrcTrimmingQueue::GetTrimmed() const
{
    return m_trimmed;
}

uint64_t
MrcTrimmingQueue::GetMarked() const
{
    return m_marked;
}

uint64_t
MrcTrimmingQueue::GetDequeued() const
{
    return m_dequeued;
}

uint32_t
MrcTrimmingQueue::GetNPackets() const
{
    return static_cast<uint32_t>(m_data.Size() + m_control.Size());
}

uint32_t
MrcTrimmingQueue::GetMaxDataBytes() const
{
    return m_maxDataBytes;
}

int64_t
MrcTrimmingQueue::AssignStreams(int64_t stream)
{
    m_stream = stream;
    if (m_uniform)
    {
        m_uniform->SetStream(stream);
    }
    return 1;
}

} // namespace ns3
