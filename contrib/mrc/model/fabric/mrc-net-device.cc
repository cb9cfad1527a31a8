/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-net-device.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-ipv6-header.h"
#include "ns3/mrc-lazy-trace-source-accessor.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-simulator-impl.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNetDevice");
NS_OBJECT_ENSURE_REGISTERED(MrcNetDevice);

namespace
{
constexpr uint16_t IPV6_ETHERTYPE = 0x86DD; //!< protocol number for IPv6
} // namespace

TypeId
MrcNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcNetDevice>()
              .AddAttribute(
                  "DataRate",
                  "Line rate",
                  DataRateValue(DataRate("100Gbps")),
                  MakeDataRateAccessor(&MrcNetDevice::SetDataRate, &MrcNetDevice::GetDataRate),
                  MakeDataRateChecker())
              .AddAttribute("Mtu",
                            "Largest IPv6 packet, bytes",
                            UintegerValue(9000),
                            MakeUintegerAccessor(&MrcNetDevice::SetMtu, &MrcNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(1280))
              .AddAttribute("PfcWatchdog",
                            "PFC watchdog: a data class paused this long without a break is "
                            "declared in a pause storm; its queue is dropped and pauses are "
                            "ignored for PfcWatchdogRestore (0: no watchdog)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcNetDevice::m_watchdog),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("PfcWatchdogRestore",
                            "PFC watchdog: how long pauses are ignored after it fires",
                            TimeValue(MilliSeconds(200)),
                            MakeTimeAccessor(&MrcNetDevice::m_watchdogRestore),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("TxLatency",
                            "Added to every frame this port sends, after its serialization: a "
                            "NIC's send pipeline (0 on switch ports, whose latency is the "
                            "switch's Latency)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcNetDevice::m_txLatency),
                            MakeTimeChecker(Time(0)))
              .AddAttribute(
                  "RxLatency",
                  "Added to every frame this port receives: a NIC's receive "
                  "pipeline; on a switch port the switch sets it to its Latency",
                  TimeValue(Time(0)),
                  MakeTimeAccessor(&MrcNetDevice::SetRxLatency, &MrcNetDevice::GetRxLatency),
                  MakeTimeChecker(Time(0)))
              .AddAttribute(
                  "RxLossRate",
                  "Probability that an arriving frame (data or control) is dropped at "
                  "this port before anything above it sees it: the NIC-side random "
                  "loss of the MRC paper's Figs 16-17 (MrcFaultInjector's nic_rx_loss "
                  "sets it on host ports); counted as RX_LOSS",
                  DoubleValue(0.0),
                  MakeDoubleAccessor(&MrcNetDevice::SetRxLossRate, &MrcNetDevice::GetRxLossRate),
                  MakeDoubleChecker<double>(0.0, 1.0))
              .AddTraceSource("Drop",
                              "A received frame was dropped (packet, DropReason)",
                              MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_dropTrace),
                              "ns3::MrcTrimmingQueue::DropTracedCallback")
              .AddTraceSource(
                  "PfcPauseSent",
                  "A PFC PAUSE frame was sent (quanta; 0 = resume)",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::pauseTx),
                  "ns3::TracedValueCallback::Uint16")
              .AddTraceSource(
                  "PfcPauseReceived",
                  "A PFC PAUSE frame was received (quanta; 0 = resume)",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::pauseRx),
                  "ns3::TracedValueCallback::Uint16")
              .AddTraceSource(
                  "PfcPaused",
                  "The data class was paused (true) or resumed (false)",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::paused),
                  "ns3::TracedValueCallback::Bool")
              .AddTraceSource(
                  "Sniffer",
                  "Every frame sent or received, IPv6 header included (for pcap)",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::sniffer),
                  "ns3::Packet::TracedCallback")
              .AddTraceSource(
                  "MacTx",
                  "A frame (IPv6 payload) was put on the wire",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::macTx),
                  "ns3::Packet::TracedCallback")
              .AddTraceSource(
                  "MacRx",
                  "A frame (IPv6 payload) was received",
                  MrcMakeLazyTraceSourceAccessor(&MrcNetDevice::m_traces, &Traces::macRx),
                  "ns3::Packet::TracedCallback");
    return tid;
}

MrcNetDevice::MrcNetDevice()
    : m_receiver(nullptr)
    , m_activity(nullptr)
    , m_busyUntil(0)
    , m_psPerByte(80)
    , m_psRounding(Time::GetResolution() < Time::PS ? 500 : 0)
    , m_rxLatency(0)
    , m_txLatency(0)
    , m_cutThroughBytes(0)
    , m_nodeId(0)
    , m_port(0)
    , m_cableEpoch(0)
    , m_txEventPending(false)
    , m_linkUp(false)
    , m_paused(false)
    , m_txNotify(false)
    , m_rxReadsPacket(false)
    , m_txPackets(0)
    , m_txBytes(0)
    , m_rxPackets(0)
    , m_rxLossRate(0)
    , m_ifIndex(0)
    , m_address(Mac48Address::Allocate())
    , m_mtu(9000)
    , m_dataRate(DataRate("100Gbps"))
    , m_watchdog(0)
    , m_watchdogRestore(MilliSeconds(200))
{
}

MrcNetDevice::MrcNetDevice(const MrcNetDevice& o) = default;

MrcNetDevice::~MrcNetDevice() = default;

void
MrcNetDevice::DoDispose()
{
    if (Pfc* pfc = m_pfc.Peek())
    {
        pfc->resumeEvent.Cancel();
        pfc->watchdogEvent.Cancel();
    }
    m_node = nullptr;
    m_channel = nullptr;
    if (m_queue)
    {
        m_queue->Dispose();
    }
    m_queue = nullptr;
    m_receiver = nullptr;
    m_rxLoss = nullptr;
    m_rxCallback
        = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    NetDevice::DoDispose();
}

void
MrcNetDevice::Attach(Ptr<MrcChannel> channel)
{
    m_channel = channel;
    channel->Attach(this);
    m_linkUp = channel->IsUp();
    m_cableEpoch = channel->GetEpoch();
}

void
MrcNetDevice::SetQueue(Ptr<MrcTrimmingQueue> queue)
{
    m_queue = queue;
}

Ptr<MrcTrimmingQueue>
MrcNetDevice::GetQueue() const
{
    return m_queue;
}

Ptr<MrcChannel>
MrcNetDevice::GetMrcChannel() const
{
    return m_channel;
}

void
MrcNetDevice::SetFrameReceiver(MrcFrameReceiver* receiver, uint32_t port)
{
    m_receiver = receiver;
    m_rxReadsPacket = receiver != nullptr && receiver->ReadsPackets();
    m_port = port;
    m_txNotify = m_txNotify && receiver != nullptr;
    if (receiver != nullptr)
    {
        // Receive never calls the node's callback while a receiver takes the frames, and the
        // one Node::AddDevice left costs about 230 bytes of heap: on the paper's fabric (4
        // million ports) almost 1 GB.
        m_rxCallback
            = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    }
}

const bool MrcNetDevice::s_prefetchRegistered
    = (MrcEventPrefetch::Register(typeid(TransmitCompleteEvent),
                                  &MrcNetDevice::PrefetchTransmitComplete,
                                  &MrcNetDevice::PrefetchTransmitCompleteBeyond,
                                  &MrcNetDevice::PrefetchTransmitCompleteDeep,
                                  &MrcNetDevice::PrefetchTransmitCompleteDeeper),
       true);

void
MrcNetDevice::PrefetchTransmitComplete(const EventImpl* event)
{
    static_cast<const TransmitCompleteEvent*>(event)->GetObject()->Prefetch();
}

void
MrcNetDevice::PrefetchTransmitCompleteBeyond(const EventImpl* event)
{
    static_cast<const TransmitCompleteEvent*>(event)->GetObject()->PrefetchNext(false);
}

void
MrcNetDevice::PrefetchTransmitCompleteDeep(const EventImpl* event)
{
    const MrcNetDevice* port = static_cast<const TransmitCompleteEvent*>(event)->GetObject();
    if (port->m_queue)
    {
        port->m_queue->PrefetchFront();
    }
    if (port->m_channel)
    {
        port->m_channel->Prefetch();
    }
    if (port->m_txNotify)
    {
        // The frame leaving makes room: the protocol behind the port is told (TxDrained).
        const auto* r = reinterpret_cast<const char*>(port->m_receiver);
        MrcEventPrefetch::Lines(r, r + 128);
    }
}

void
MrcNetDevice::PrefetchTransmitCompleteDeeper(const EventImpl* event)
{
    static_cast<const TransmitCompleteEvent*>(event)->GetObject()->PrefetchDrainedState();
}

void
MrcNetDevice::SetRxLatency(Time latency)
{
    m_rxLatency = latency;
    if (m_channel)
    {
        m_channel->RefreshEnd(this);
    }
}

void
MrcNetDevice::SetCutThroughBytes(uint32_t bytes)
{
    m_cutThroughBytes = bytes;
    if (m_channel)
    {
        m_channel->RefreshEnd(this);
    }
}

void
MrcNetDevice::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "MrcNetDevice: DataRate must be positive");
    m_dataRate = rate;
    // 8e12 ps per bit-second: exact for the usual 25/50/100/200/400/800 Gbps rates.
    m_psPerByte = static_cast<uint64_t>(8e12 / double(rate.GetBitRate()) + 0.5);
}

DataRate
MrcNetDevice::GetDataRate() const
{
    return m_dataRate;
}

bool
MrcNetDevice::SendFrame(Ptr<Packet> packet, MrcIpv6Fields& header, uint16_t ingress)
{
    header.SetPayloadLength(static_cast<uint16_t>(packet->GetSize()));
    return SendFrame(MrcFrame(packet), header, ingress);
}

bool
MrcNetDevice::SendFrame(MrcFrame&& frame, MrcIpv6Fields& header, uint16_t ingress)
{
    if (m_activity != nullptr)
    {
        ++*m_activity;
    }
    if (!m_linkUp)
    {
        m_queue->CountExternalDrop(std::move(frame), MrcTrimmingQueue::LINK_DOWN);
        return false;
    }
    if (!m_txEventPending && MrcNow() >= m_busyUntil && m_queue->IsEmpty() && !m_paused)
    {
        // Idle serializer: the frame still passes the queue's accounting, then leaves at once.
        if (m_queue->Enqueue(std::move(frame), header, ingress) == MrcTrimmingQueue::DROPPED)
        {
            return false;
        }
        MrcFrame f;
        MrcIpv6Fields h;
        m_queue->Dequeue(f, h);
        StartTransmission(std::move(f), h);
        return true;
    }
    if (m_queue->Enqueue(std::move(frame), header, ingress) == MrcTrimmingQueue::DROPPED)
    {
        return false;
    }
    if (!m_txEventPending && (!m_paused || m_queue->HasControl()))
    {
        // While paused the serializer may be idle (busyUntil in the past): send at once.
        const Time now = MrcNow();
        m_txEventPending = true;
        ScheduleTransmitComplete(m_busyUntil > now ? m_busyUntil - now : Time(0));
    }
    return true;
}

void
MrcNetDevice::StartTransmission(MrcFrame&& frame, const MrcIpv6Fields& header)
{
    const uint32_t bytes = header.GetPayloadLength() + MrcIpv6Fields::HEADER_BYTES;
    // Round to the nearest nanosecond when that is the Time resolution (the default).
    const Time txTime = PicoSeconds(m_psPerByte * bytes + m_psRounding);
    m_busyUntil = MrcNow() + txTime;
    if (m_activity != nullptr)
    {
        ++*m_activity;
    }
    ++m_txPackets;
    m_txBytes += bytes;
    if (Traces* t = m_traces.Peek(); t != nullptr && !t->macTx.IsEmpty())
    {
        t->macTx(Ptr<const Packet>(frame.GetPacket()));
    }
    Sniff(frame, header);
    m_channel->Transmit(std::move(frame), header, this, txTime);
}

void
MrcNetDevice::FireSniffer(MrcFrame& frame, const MrcIpv6Fields& header)
{
    Ptr<Packet> full = frame.GetPacket()->Copy();
    full->AddHeader(MrcIpv6Header(header));
    m_traces.Get().sniffer(full);
}

void
MrcNetDevice::ScheduleTransmitComplete(Time delay)
{
    // The same scheduling as Simulator::Schedule(delay, &TransmitComplete, this), so the same
    // event order; the event's memory comes from the pool (the port outlives its events:
    // Dispose comes after the run), and no id is made (m_txEventPending stands for it).
    MrcScheduleDetached(delay, TransmitCompleteEvent::Make(this));
}

void
MrcNetDevice::TransmitComplete()
{
    m_txEventPending = false;
    MrcFrame f;
    MrcIpv6Fields h;
    if (!m_linkUp || !m_queue->Dequeue(f, h, !m_paused))
    {
        return;
    }
    StartTransmission(std::move(f), h);
    if (m_paused ? m_queue->HasControl() : !m_queue->IsEmpty())
    {
        m_txEventPending = true;
        ScheduleTransmitComplete(m_busyUntil - MrcNow());
    }
    if (m_txNotify)
    {
        m_receiver->TxDrained(m_port);
    }
}

const char*
MrcNetDevice::DropReasonName(uint32_t reason)
{
    return reason == RX_LOSS ? "RxLoss" : "Unknown";
}

void
MrcNetDevice::SetRxLossRate(double rate)
{
    m_rxLossRate = rate;
    if (rate > 0 && !m_rxLoss)
    {
        m_rxLoss = CreateObject<UniformRandomVariable>();
    }
}

double
MrcNetDevice::GetRxLossRate() const
{
    return m_rxLossRate;
}

int64_t
MrcNetDevice::AssignStreams(int64_t stream)
{
    if (!m_rxLoss)
    {
        m_rxLoss = CreateObject<UniformRandomVariable>();
    }
    m_rxLoss->SetStream(stream);
    return 1;
}

void
MrcNetDevice::ReceiveFromCable(MrcFrame&& frame, MrcIpv6Fields& header, uint32_t epoch)
{
    if (epoch != m_cableEpoch || !m_linkUp)
    {
        m_channel->LoseInFlight(frame);
        return;
    }
    Receive(std::move(frame), header);
}

void
MrcNetDevice::Receive(MrcFrame&& frame, MrcIpv6Fields& header)
{
    if (m_rxLossRate > 0 && m_rxLoss->GetValue() < m_rxLossRate)
    {
        Drop(std::move(frame), RX_LOSS);
        return;
    }
    ++m_rxPackets;
    if (Traces* t = m_traces.Peek(); t != nullptr && !t->macRx.IsEmpty())
    {
        t->macRx(Ptr<const Packet>(frame.GetPacket()));
    }
    Sniff(frame, header);
    if (m_receiver != nullptr)
    {
        m_receiver->ReceiveOwnedFrame(m_port, std::move(frame), header);
        return;
    }
    if (!m_rxCallback.IsNull())
    {
        Ptr<Packet> packet = frame.Release();
        packet->AddHeader(MrcIpv6Header(header));
        m_rxCallback(this, packet, IPV6_ETHERTYPE, Mac48Address::GetBroadcast());
    }
}

void
MrcNetDevice::NotifyLinkChange(bool up, uint32_t epoch)
{
    m_linkUp = up;
    m_cableEpoch = epoch;
    if (!up && m_paused)
    {
        Resume(); // nobody can refresh or lift the pause any more
    }
    if (!up && m_queue)
    {
        m_queue->Flush();
        m_busyUntil = MrcNow();
    }
    if (Traces* t = m_traces.Peek())
    {
        t->linkChange();
    }
}

void
MrcNetDevice::SendPause(uint16_t quanta)
{
    if (!m_channel)
    {
        return;
    }
    ++m_pfc.Get().pausesSent;
    if (Traces* t = m_traces.Peek())
    {
        t->pauseTx(quanta);
    }
    // A 64-byte MAC control frame, sent at the next frame boundary ahead of the queue.
    const Time now = MrcNow();
    const Time wait = (m_busyUntil > now ? m_busyUntil - now : Time(0))
                    + PicoSeconds(64 * m_psPerByte + m_psRounding);
    m_channel->TransmitPause(this, quanta, wait);
}

void
MrcNetDevice::ReceivePause(uint16_t quanta)
{
    Pfc& pfc = m_pfc.Get();
    ++pfc.pausesReceived;
    if (Traces* t = m_traces.Peek())
    {
        t->pauseRx(quanta);
    }
    const Time now = MrcNow();
    if (now < pfc.ignorePauseUntil)
    {
        return; // the watchdog broke a storm on this port
    }
    if (quanta == 0)
    {
        if (m_paused)
        {
            Resume();
        }
        return;
    }
    // One quantum is 512 bit times (64 bytes) at this port's rate.
    const Time span = PicoSeconds(uint64_t(quanta) * 64 * m_psPerByte);
    pfc.resumeEvent.Cancel();
    pfc.resumeEvent = Simulator::Schedule(span, &MrcNetDevice::Resume, this);
    if (!m_paused)
    {
        m_paused = true;
        pfc.pauseStart = now;
        if (Traces* t = m_traces.Peek())
        {
            t->paused(true);
        }
        if (m_watchdog.IsStrictlyPositive())
        {
            pfc.watchdogEvent = Simulator::Schedule(m_watchdog, &MrcNetDevice::OnWatchdog, this);
        }
    }
}

void
MrcNetDevice::Resume()
{
    if (!m_paused)
    {
        return;
    }
    const Time now = MrcNow();
    m_paused = false;
    Pfc& pfc = m_pfc.Get(); // made by the PAUSE that set m_paused
    pfc.pausedTime += now - pfc.pauseStart;
    pfc.resumeEvent.Cancel();
    pfc.watchdogEvent.Cancel();
    if (Traces* t = m_traces.Peek())
    {
        t->paused(false);
    }
    if (m_linkUp && !m_txEventPending && m_queue && !m_queue->IsEmpty())
    {
        m_txEventPending = true;
        ScheduleTransmitComplete(m_busyUntil > now ? m_busyUntil - now : Time(0));
    }
}

void
MrcNetDevice::OnWatchdog()
{
    Pfc& pfc = m_pfc.Get();
    ++pfc.watchdogTriggers;
    pfc.ignorePauseUntil = MrcNow() + m_watchdogRestore;
    if (m_queue)
    {
        m_queue->FlushData(MrcTrimmingQueue::PFC_WATCHDOG);
    }
    Resume();
}

uint64_t
MrcNetDevice::GetPausesSent() const
{
    return m_pfc.Peek() != nullptr ? m_pfc.Peek()->pausesSent : 0;
}

uint64_t
MrcNetDevice::GetPausesReceived() const
{
    return m_pfc.Peek() != nullptr ? m_pfc.Peek()->pausesReceived : 0;
}

Time
MrcNetDevice::GetPausedTime() const
{
    const Pfc* pfc = m_pfc.Peek();
    if (pfc == nullptr)
    {
        return Time(0);
    }
    return pfc->pausedTime + (m_paused ? MrcNow() - pfc->pauseStart : Time(0));
}

uint64_t
MrcNetDevice::GetWatchdogTriggers() const
{
    return m_pfc.Peek() != nullptr ? m_pfc.Peek()->watchdogTriggers : 0;
}

Time
MrcNetDevice::GetTxStartTime() const
{
    const Time now = MrcNow();
    const Time start = m_busyUntil > now ? m_busyUntil : now;
    if (!m_queue)
    {
        return start;
    }
    const uint64_t queued = uint64_t(m_queue->GetDataBytes()) + m_queue->GetControlBytes();
    return start + PicoSeconds(queued * m_psPerByte);
}

void
MrcNetDevice::SetTxNotify(bool notify)
{
    m_txNotify = notify && m_receiver != nullptr;
}

uint64_t
MrcNetDevice::GetTxPackets() const
{
    return m_txPackets;
}

uint64_t
MrcNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

bool
MrcNetDevice::SetActivityCounter(uint64_t* counter)
{
    if (counter != nullptr && m_activity != nullptr && m_activity != counter)
    {
        return false;
    }
    m_activity = counter;
    return true;
}

void
MrcNetDevice::ReleaseActivityCounter(const uint64_t* counter)
{
    if (m_activity == counter)
    {
        m_activity = nullptr;
    }
}

uint64_t
MrcNetDevice::GetRxPackets() const
{
    return m_rxPackets;
}

void
MrcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
MrcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
MrcNetDevice::GetChannel() const
{
    return m_channel;
}

void
MrcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
MrcNetDevice::GetAddress() const
{
    return m_address;
}

bool
MrcNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
MrcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
MrcNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
MrcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_traces.Get().linkChange.ConnectWithoutContext(callback);
}

bool
MrcNetDevice::IsBroadcast() const
{
    return false;
}

Address
MrcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcNetDevice::IsMulticast() const
{
    return false;
}

Address
MrcNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetBroadcast();
}

Address
MrcNetDevice::GetMulticast(Ipv6Address /* addr */) const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
MrcNetDevice::IsBridge() const
{
    return false;
}

bool
MrcNetDevice::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t protocolNumber)
{
    if (protocolNumber != IPV6_ETHERTYPE)
    {
        return false;
    }
    // Read the bytes, whichever header class wrote them (ns3::Ipv6Header or MrcIpv6Header);
    // Deserialize reads nothing unless the version is 6.
    MrcIpv6Header ip;
    if (packet->GetSize() < MrcIpv6Header::SIZE || packet->PeekHeader(ip) != MrcIpv6Header::SIZE)
    {
        return false;
    }
    Ptr<Packet> p = packet->Copy();
    p->RemoveAtStart(MrcIpv6Header::SIZE);
    MrcIpv6Fields h = ip.GetFields();
    return SendFrame(p, h);
}

bool
MrcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& /* source */,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
MrcNetDevice::GetNode() const
{
    return m_node;
}

void
MrcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeId = node->GetId();
    if (m_channel)
    {
        m_channel->RefreshEnd(this);
    }
}

bool
MrcNetDevice::NeedsArp() const
{
    return false;
}

void
MrcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    if (m_receiver != nullptr)
    {
        return; // not called while a frame receiver is set (see SetFrameReceiver)
    }
    m_rxCallback = cb;
}

void
MrcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscRx = cb;
}

bool
MrcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
