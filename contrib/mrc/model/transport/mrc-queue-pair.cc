/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-queue-pair.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-dscp.h"
#include "ns3/mrc-go-back-n-recovery.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-selective-recovery.h"

#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQueuePair");
NS_OBJECT_ENSURE_REGISTERED(MrcQueuePair);

TypeId
MrcQueuePair::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcQueuePair")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcQueuePair>()
              .AddAttribute("PayloadSize",
                            "Payload bytes per data packet (the same at both ends)",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&MrcQueuePair::m_payloadSize),
                            MakeUintegerChecker<uint32_t>(64, 8192))
              .AddAttribute("AckEveryBytes",
                            "Coalesce ACKs: at most one per this many received bytes, unless an "
                            "ECN mark, a hole or a message's end asks for one at once",
                            UintegerValue(16384),
                            MakeUintegerAccessor(&MrcQueuePair::m_ackEveryBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("AckDelay",
                            "Longest an ACK waits for more bytes",
                            TimeValue(MicroSeconds(2)),
                            MakeTimeAccessor(&MrcQueuePair::m_ackDelay),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("Port",
                            "The NIC port (plane) a single-path QP is bound to, as a verbs QP "
                            "to its port; -1: the connection hash picks it",
                            IntegerValue(-1),
                            MakeIntegerAccessor(&MrcQueuePair::m_port),
                            MakeIntegerChecker<int32_t>(-1, 63))
              .AddAttribute("CnpInterval",
                            "0: ECN marks are echoed in ACKs (MRC); otherwise the receiver is a "
                            "RoCEv2 notification point and sends a CNP for a marked packet, at "
                            "most one per interval (DCQCN: 50 us)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcQueuePair::m_cnpInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("AckTimeoutUnit",
                            "Unit of the retransmission timeout, AckTimeoutUnit x "
                            "2^AckTimeoutExponent (InfiniBand's local ACK timeout: 4.096 us)",
                            TimeValue(NanoSeconds(1024)),
                            MakeTimeAccessor(&MrcQueuePair::m_rtoUnit),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("AckTimeoutExponent",
                            "t in the retransmission timeout AckTimeoutUnit x 2^t (8: 262 us, "
                            "the OCP MRC API's example)",
                            UintegerValue(8),
                            MakeUintegerAccessor(&MrcQueuePair::m_rtoExponent),
                            MakeUintegerChecker<uint32_t>(0, 31))
              .AddAttribute("RetryLimit",
                            "Retry budget of each packet (as UEC's per-packet retry limit): "
                            "retransmissions after a timeout it may use; its next timeout fails "
                            "the QP. Only timeouts spend it: trims, NACKs and out-of-order losses "
                            "never do. 0: never fail (the OCP MRC API's 25)",
                            UintegerValue(7),
                            MakeUintegerAccessor(&MrcQueuePair::m_retryLimit),
                            MakeUintegerChecker<uint32_t>(0, 65535))
              .AddAttribute("LinearRetries",
                            "Retransmission timer backoff, as the OCP MRC API specifies: a "
                            "packet's first transmission and its first LinearRetries "
                            "retransmissions after a timeout each wait one timeout; every later "
                            "one waits twice as long as the one before (up to 2^16 timeouts). "
                            "With RetryLimit at most this, the timer never backs off",
                            UintegerValue(7),
                            MakeUintegerAccessor(&MrcQueuePair::m_linearRetries),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ReorderThreshold",
                            "Out-of-order loss detection: a transmission is lost once a packet "
                            "sent this many transmissions after it is acknowledged. 0: adaptive, "
                            "the bandwidth-delay product in packets (at least 16), raised after "
                            "a spurious retransmission to the distance the late original was "
                            "overtaken by plus an eighth, up to four times that",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcQueuePair::m_reorderThreshold),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ReorderWindow",
                            "Out-of-order loss detection, time rule: a transmission is presumed "
                            "lost once something sent after it is acknowledged and it is older "
                            "than the largest recent RTT (at least the newest) plus this. 0: "
                            "adaptive, the queueing the paths recently showed, between a "
                            "sixteenth and a quarter of the base RTT (the quarter doubled, up to "
                            "the base RTT, after a spurious retransmission)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcQueuePair::m_reorderWindowAttr),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("IncastLossGuard",
                            "A loss found by out-of-order detection during an incast (from a "
                            "last-hop trim NACK until an RTT sample is back under 1.5 base RTTs) "
                            "is retransmitted but does not retire its EV: the planes' last-hop "
                            "queues then differ by up to a queue's worth of delay, and packets "
                            "behind a fuller one only look lost. Losses found by timeout, or "
                            "outside an incast, still retire their EV",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcQueuePair::m_incastGuard),
                            MakeBooleanChecker())
              .AddAttribute("PeerPortStatus",
                            "Use the peer's port-status bitmap (carried in its ACKs, NACKs and "
                            "probe answers) to stop spraying onto planes whose NIC port is down "
                            "at the peer, and to probe them again promptly when it returns; "
                            "false only for the no-port-bitmap mutant (MrcMutant)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcQueuePair::m_peerPortStatus),
                            MakeBooleanChecker())
              .AddAttribute("ProbeInterval",
                            "Interval between probes of retired EVs",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&MrcQueuePair::m_probeInterval),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ProbeMaxInterval",
                            "The probe interval doubles after each round in which probes went "
                            "unanswered and none succeeded, up to this",
                            TimeValue(MicroSeconds(1600)),
                            MakeTimeAccessor(&MrcQueuePair::m_probeMaxInterval),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("RecvWindow",
                            "Packets beyond the cumulative PSN the receiver accepts",
                            UintegerValue(65536),
                            MakeUintegerAccessor(&MrcQueuePair::m_recvWindow),
                            MakeUintegerChecker<uint32_t>(64))
              .AddAttribute("PathFlush",
                            "What else is resent when a loss implicates a packet's EV: held "
                            "(everything in flight on it, once it is retired or held as "
                            "suspect), retired (only once it is retired: by the count rule, a "
                            "timeout or a confirmed suspicion), none (only the lost packet, as "
                            "the OCP API's selective retransmission; the path's other losses "
                            "are found one by one)",
                            StringValue("held"),
                            MakeStringAccessor(&MrcQueuePair::m_pathFlushName),
                            MakeMrcChoiceChecker({"held", "retired", "none"}))
              .AddAttribute("LossRecovery",
                            "selective (MRC: SACK/NACK, selective retransmission) or go-back-n "
                            "(RoCE: the receiver takes only in-order packets and NAKs a gap, the "
                            "sender rewinds)",
                            StringValue("selective"),
                            MakeStringAccessor(&MrcQueuePair::m_recovery),
                            MakeMrcChoiceChecker({"selective", "go-back-n"}))
              .AddTraceSource("Tx",
                              "A data packet or probe was sent (packet, psn, ev, TxCause)",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_txTrace),
                              "ns3::MrcQueuePair::TxTracedCallback")
              .AddTraceSource("SendComplete",
                              "A posted message completed",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_sendCompleteTrace),
                              "ns3::MrcQueuePair::CompletionTracedCallback")
              .AddTraceSource("RecvComplete",
                              "A message from the peer was fully placed",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_recvCompleteTrace),
                              "ns3::MrcQueuePair::CompletionTracedCallback")
              .AddTraceSource("QpError",
                              "The QP failed (qpn, psn that exhausted its retries)",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_errorTrace),
                              "ns3::MrcQueuePair::ErrorTracedCallback")
              .AddTraceSource("Place",
                              "Responder side: a payload was placed in memory for the first time "
                              "(msn, remote offset, bytes)",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_placeTrace),
                              "ns3::MrcQueuePair::PlaceTracedCallback")
              .AddTraceSource("Cwnd",
                              "Congestion window, bytes",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_cwnd),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

MrcQueuePair::MrcQueuePair()
    : m_payloadSize(4096)
    , m_ackEveryBytes(16384)
    , m_rtoUnit(NanoSeconds(1024))
    , m_port(-1)
    , m_cnpInterval(0)
    , m_cnpsReceived(0)
    , m_rtoExponent(6)
    , m_retryLimit(7)
    , m_linearRetries(7)
    , m_reorderThreshold(0)
    , m_reorderPkts(16)
    , m_reorderPktsMin(16)
    , m_recvWindow(65536)
    , m_recovery("selective")
    , m_pathFlushName("held")
    , m_pathFlush(FLUSH_HELD)
    , m_l4(nullptr)
    , m_qpn(0)
    , m_remoteHost(0)
    , m_remoteQpn(0)
    , m_error(false)
    , m_waitingForPort(false)
    , m_peerPlaneMask(~uint64_t(0))
    , m_txCursor(0)
    , m_nextMsn(0)
    , m_nextWrId(1)
    , m_psnBase(0)
    , m_nextPsn(0)
    , m_inflight(0)
    , m_highestAcked(0)
    , m_txSeq(0)
    , m_ackedTxSeq(0)
    , m_probeSeq(0)
    , m_sackLosses(0)
    , m_spurious(0)
    , m_dataSent(0)
    , m_retx(0)
    , m_timeouts(0)
    , m_nacks(0)
    , m_bytesAcked(0)
    , m_cwnd(0)
{
    m_incastGuard = true;
    m_inIncast = false;
    m_incastLosses = 0;
}

MrcQueuePair::~MrcQueuePair() = default;

void
MrcQueuePair::DoDispose()
{
    m_rtoEvent.Cancel();
    m_probeEvent.Cancel();
    m_reorderEvent.Cancel();
    m_verdictEvent.Cancel();
    m_rx.Stop();
    m_paceEvent.Cancel();
    m_selector = nullptr;
    m_recoveryOps = nullptr;
    m_cc = nullptr;
    m_l4 = nullptr;
    m_sendCb = MakeNullCallback<void, const MrcCompletion&>();
    m_recvCb = MakeNullCallback<void, const MrcCompletion&>();
    Object::DoDispose();
}

void
MrcQueuePair::Setup(MrcL4Protocol* l4,
                    uint32_t qpn,
                    uint32_t remoteHost,
                    uint32_t remoteQpn,
                    std::vector<MrcPathSet> paths,
                    Ptr<MrcPathSelector> selector,
                    Ptr<MrcCongestionOps> cc,
                    uint32_t bdp,
                    Time baseRtt,
                    Ptr<UniformRandomVariable> rng,
                    uint32_t hash)
{
    m_l4 = l4;
    m_qpn = qpn;
    m_remoteHost = remoteHost;
    m_remoteQpn = remoteQpn;
    m_paths = std::move(paths);
    m_selector = selector;
    m_cc = cc;
    m_baseRtt = baseRtt;
    m_rto = m_rtoUnit * (int64_t(1) << m_rtoExponent);
    NS_ABORT_MSG_UNLESS(m_recovery == "selective" || m_recovery == "go-back-n",
                        "MrcQueuePair: LossRecovery must be selective or go-back-n (got '"
                            << m_recovery << "')");
    m_pathFlush = m_pathFlushName == "none"    ? FLUSH_NONE
                : m_pathFlushName == "retired" ? FLUSH_RETIRED
                                               : FLUSH_HELD;
    if (m_recovery == "go-back-n")
    {
        m_recoveryOps = CreateObject<MrcGoBackNRecovery>();
    }
    else
    {
        m_recoveryOps = CreateObject<MrcSelectiveRecovery>();
    }
    std::vector<uint32_t> perPlane;
    for (const auto& p : m_paths)
    {
        perPlane.push_back(p.count);
    }
    m_selector->Init(perPlane, rng, hash);
    m_cc->Init(bdp, baseRtt, m_payloadSize);
    m_cc->SetRateIncreaseCallback(MakeCallback(&MrcQueuePair::OnPacingRateIncrease, this));
    m_reorderPkts
        = m_reorderThreshold > 0 ? m_reorderThreshold : std::max<uint32_t>(16, bdp / m_payloadSize);
    m_reorderPktsMin = m_reorderPkts;
    m_probeWait = m_probeInterval;
    // Adaptive by default. The ceiling is RACK's reordering window: a quarter of the base RTT,
    // doubled (up to one base RTT) whenever a retransmission turns out spurious, halved again
    // after 16 base RTTs without one; DetectLosses narrows it to the paths' recent queueing.
    m_reorderWindow = m_reorderWindowAttr.IsStrictlyPositive() ? m_reorderWindowAttr : baseRtt / 4;
    m_lastSpurious = Simulator::Now();
    m_rackRtt = baseRtt;
    m_rttMaxStart = Simulator::Now();
    m_cwnd = m_cc->GetCwnd();
    m_planeTx.assign(m_paths.size(), 0);
    MrcQpReceiver::Config rc{m_payloadSize,
                             m_ackEveryBytes,
                             m_ackDelay,
                             m_recvWindow,
                             m_cnpInterval,
                             m_recoveryOps->IsInOrder(),
                             m_recoveryOps->UnderstandsTrim()};
    m_rx.Setup(this, rc, static_cast<uint32_t>(m_paths.size()));
}

uint32_t
MrcQueuePair::PacketsFor(uint64_t length) const
{
    return static_cast<uint32_t>((length + m_payloadSize - 1) / m_payloadSize);
}

uint64_t
MrcQueuePair::PostWrite(uint64_t length, uint64_t remoteOffset)
{
    return Post(length, remoteOffset, false, 0);
}

uint64_t
MrcQueuePair::PostWriteImm(uint64_t length, uint64_t remoteOffset, uint32_t imm)
{
    return Post(length, remoteOffset, true, imm);
}

uint64_t
MrcQueuePair::Post(uint64_t length, uint64_t remoteOffset, bool imm, uint32_t immData)
{
    NS_ABORT_MSG_IF(length == 0, "MrcQueuePair: a Write needs at least one byte");
    NS_ABORT_MSG_IF(length > uint64_t(0xffffffff), "MrcQueuePair: messages are limited to 4 GiB");
    NS_ABORT_MSG_IF(m_l4 == nullptr, "MrcQueuePair: post on a QP that is not connected");
    const uint64_t wrId = m_nextWrId++;
    if (m_error)
    {
        MrcCompletion c{
            m_qpn, wrId, length, RETRY_EXCEEDED, imm, immData, Simulator::Now(), Simulator::Now()};
        DeliverSendCompletion(c);
        return wrId;
    }
    m_txMsgs.push_back({wrId,
                        m_nextMsn++,
                        length,
                        remoteOffset,
                        0,
                        PacketsFor(length),
                        0,
                        imm,
                        immData,
                        Simulator::Now()});
    TrySend();
    MaybeStartProbing(); // probing pauses while the QP has nothing to send
    return wrId;
}

void
MrcQueuePair::SetSendCompletionCallback(CompletionCallback cb)
{
    m_sendCb = cb;
}

void
MrcQueuePair::SetRecvCompletionCallback(CompletionCallback cb)
{
    m_recvCb = cb;
}

void
MrcQueuePair::SetEvDenied(uint16_t ev, bool denied)
{
    m_selector->SetDenied(ev, denied);
}

uint64_t
MrcQueuePair::UsablePlanes() const
{
    return m_l4->GetLocalPlaneMask() & m_peerPlaneMask;
}

void
MrcQueuePair::NotifyPlanesChanged()
{
    ResetProbePace();
    TrySend();
}

void
MrcQueuePair::NotifyPortRoom()
{
    m_waitingForPort = false;
    TrySend();
}

void
MrcQueuePair::OnPacingRateIncrease()
{
    // A NIC's rate limiter takes a higher rate at once: the next departure follows the new
    // rate from the last one, instead of waiting out a gap computed at the old, lower rate.
    const uint64_t rate = m_cc->GetPacingRate();
    if (rate == 0 || m_pacedBytes == 0)
    {
        return;
    }
    const Time next
        = m_pacedAt + NanoSeconds(static_cast<int64_t>(double(m_pacedBytes) * 8e9 / double(rate)));
    if (next >= m_nextSendTime)
    {
        return;
    }
    m_nextSendTime = next;
    if (!m_paceEvent.IsExpired())
    {
        m_paceEvent.Cancel();
        if (next <= Simulator::Now())
        {
            m_paceEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::TrySend>(Time(0), this);
        }
        else
        {
            m_paceEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::TrySend>(
                next - Simulator::Now(), this);
        }
    }
}

void
MrcQueuePair::TrySend()
{
    if (m_error || m_l4 == nullptr)
    {
        return;
    }
    const uint32_t cwnd = m_cc->GetCwnd();
    const uint64_t rate = m_cc->GetPacingRate();
    while (true)
    {
        if (rate > 0 && Simulator::Now() < m_nextSendTime)
        {
            if (m_paceEvent.IsExpired())
            {
                m_paceEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::TrySend>(
                    m_nextSendTime - Simulator::Now(), this);
            }
            return;
        }
        // Retransmissions first.
        while (!m_retxQueue.empty())
        {
            const uint32_t psn = m_retxQueue.front();
            if (psn >= m_psnBase && psn < m_nextPsn)
            {
                const TxPkt& p = m_txPkts[psn - m_psnBase];
                if (p.lost && !p.acked)
                {
                    break;
                }
            }
            m_retxQueue.pop_front();
        }
        if (!m_retxQueue.empty())
        {
            const uint32_t psn = m_retxQueue.front();
            TxPkt& p = m_txPkts[psn - m_psnBase];
            if (m_inflight > 0 && m_inflight + p.len > cwnd)
            {
                return;
            }
            if (!Transmit(psn, p.cause))
            {
                return;
            }
            m_retxQueue.pop_front();
            continue;
        }
        // New data.
        while (m_txCursor < m_txMsgs.size()
               && m_txMsgs[m_txCursor].nextOffset >= m_txMsgs[m_txCursor].length)
        {
            ++m_txCursor;
        }
        if (m_txCursor >= m_txMsgs.size())
        {
            return;
        }
        TxMsg& m = m_txMsgs[m_txCursor];
        const auto len
            = static_cast<uint32_t>(std::min<uint64_t>(m_payloadSize, m.length - m.nextOffset));
        if (m_inflight > 0 && m_inflight + len > cwnd)
        {
            return;
        }
        if (m_txPkts.size() >= m_recvWindow)
        {
            return; // never run further ahead of the oldest unacknowledged packet than the peer
        }
        const uint32_t psn = m_nextPsn;
        m_txPkts.push_back({m.msn,
                            len,
                            m.nextOffset,
                            Time(0),
                            0,
                            0,
                            0,
                            0,
                            0,
                            0,
                            TX_NEW,
                            false,
                            false,
                            m.nextOffset + len >= m.length,
                            false});
        ++m_nextPsn;
        if (!Transmit(psn, TX_NEW))
        {
            m_txPkts.pop_back();
            --m_nextPsn;
            return;
        }
        m.nextOffset += len;
    }
}

bool
MrcQueuePair::Transmit(uint32_t psn, uint8_t cause)
{
    TxPkt& p = m_txPkts[psn - m_psnBase];
    const uint64_t usable = UsablePlanes();
    // The EV is chosen when a port can take the packet, as a NIC's transmit scheduler picks
    // the next packet when a port has room: a retransmission or a path just retired applies
    // to the next packet out, not after what already waits in the port queues.
    const uint64_t room = m_l4->GetPortsWithRoom();
    const uint64_t planes = usable & room;
    const int32_t ev = planes == 0       ? -1
                     : (cause == TX_NEW) ? m_selector->Select(planes)
                                         : m_selector->SelectFresh(planes, p.ev);
    if (ev < 0)
    {
        if ((usable & ~room) != 0 && !m_waitingForPort)
        {
            m_waitingForPort = true; // a port it could use is busy: wait for room there
            m_l4->WaitForPort(m_qpn);
        }
        return false;
    }
    const MrcPathSelector::Ev& e = m_selector->GetEv(static_cast<uint16_t>(ev));
    if (!((room >> e.plane) & 1))
    {
        // A selector bound to one path (MrcSinglePath) names its port whatever the mask.
        if (!m_waitingForPort)
        {
            m_waitingForPort = true;
            m_l4->WaitForPort(m_qpn);
        }
        return false;
    }
    const TxMsg& m = m_txMsgs[p.msn - m_txMsgs.front().msn];
    // Stamped at the wire: when the frame will start onto the NIC port, after what is queued
    // there, so the RTT, the timer and NSCC's delay never include the sender's own queue.
    const Time wire = m_l4->GetTxStartTime(e.plane);
    MrcHeader h;
    h.SetOpcode(m.imm ? MrcHeader::WRITE_IMM : MrcHeader::WRITE);
    h.SetFlags((p.last ? MrcHeader::FLAG_LAST : 0) | (cause != TX_NEW ? MrcHeader::FLAG_RETX : 0));
    h.SetEv(static_cast<uint16_t>(ev));
    h.SetDstQpn(m_remoteQpn);
    h.SetSrcQpn(m_qpn);
    h.SetPsn(psn);
    h.SetImmediate(m.immData);
    h.SetPacketIndex(static_cast<uint32_t>(p.offset / m_payloadSize));
    h.SetOffset(m.remoteOffset + p.offset);
    h.SetMsn(p.msn);
    h.SetMsgLen(static_cast<uint32_t>(m.length));
    h.SetTimestamp(static_cast<uint64_t>(wire.GetNanoSeconds()));
    h.SetPlane(static_cast<uint8_t>(e.plane));
    h.SetPath(e.path);
    h.SetPayloadLen(static_cast<uint16_t>(p.len));
    Ptr<Packet> packet = Create<Packet>(p.len);
    packet->AddHeader(h);
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(packet, psn, h.GetEv(), cause);
    }
    const uint64_t rate = m_cc->GetPacingRate();
    if (rate > 0)
    {
        m_pacedAt = std::max(m_nextSendTime, Simulator::Now());
        m_pacedBytes = p.len + MrcHeader::SIZE + MrcIpv6Fields::HEADER_BYTES;
        const Time gap
            = NanoSeconds(static_cast<int64_t>(double(m_pacedBytes) * 8e9 / double(rate)));
        m_nextSendTime = m_pacedAt + gap;
    }
    m_cc->OnSent(p.len);
    p.ev = h.GetEv();
    p.evGen = e.generation;
    p.sentAt = wire;
    p.prevSeq = p.txSeq;
    p.txSeq = m_txSeq++;
    p.lost = false;
    ++p.tries;
    m_inflight += p.len;
    ++m_dataSent;
    ++m_planeTx[e.plane];
    if (cause != TX_NEW)
    {
        ++m_retx;
    }
    m_sentOrder.push_back({psn, p.txSeq, wire});
    if (m_rtoEvent.IsExpired())
    {
        m_rtoEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnRto>(
            wire + TimeoutOf(p) - Simulator::Now(), this);
    }
    m_l4->SendPacket(e.plane,
                     m_paths[e.plane].Get(e.path),
                     FlowLabel(h.GetEv()),
                     MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_ECT0),
                     packet);
    return true;
}

void
MrcQueuePair::Receive(Ptr<Packet> /* packet */, const MrcHeader& h, uint8_t tc, uint32_t plane)
{
    if (m_l4 == nullptr || m_error)
    {
        return; // not connected yet, or failed
    }
    switch (h.GetOpcode())
    {
        case MrcHeader::WRITE:
        case MrcHeader::WRITE_IMM:
            m_rx.Receive(h, tc, plane);
            return;
        case MrcHeader::ACK:
            HandleAck(h);
            return;
        case MrcHeader::NACK:
            HandleNack(h);
            return;
        case MrcHeader::CNP:
            ++m_cnpsReceived;
            m_cc->OnCnp();
            if (m_cc->GetCwnd() != m_cwnd)
            {
                m_cwnd = m_cc->GetCwnd();
            }
            return;
        case MrcHeader::PROBE:
        {
            MrcHeader a;
            a.SetOpcode(MrcHeader::PROBE_ACK);
            a.SetEv(h.GetEv());
            a.SetPsn(h.GetPsn());
            a.SetTimestamp(h.GetTimestamp());
            SendControl(a, h.GetPlane(), h.GetPath());
            return;
        }
        case MrcHeader::PROBE_ACK:
            UpdatePeerPlanes(h);
            if (m_selector->OnProbeAnswer(h.GetEv(), h.GetPsn()))
            {
                ResetProbePace(); // a path answered: probe at the normal pace again
            }
            return;
        default:
            return;
    }
}

void
MrcQueuePair::SendControl(MrcHeader& h, uint32_t plane, uint32_t path)
{
    if (m_l4 == nullptr)
    {
        return;
    }
    h.SetDstQpn(m_remoteQpn);
    h.SetSrcQpn(m_qpn);
    h.SetPortStatus(m_l4->GetLocalPlaneMask());
    const uint64_t local = m_l4->GetLocalPlaneMask();
    const auto planes = static_cast<uint32_t>(m_paths.size());
    if (plane >= planes || !(local & (uint64_t(1) << plane)))
    {
        // The plane it came by is down here: answer on another one.
        uint32_t p = 0;
        while (p < planes && !(local & (uint64_t(1) << p)))
        {
            ++p;
        }
        if (p == planes)
        {
            return;
        }
        plane = p;
    }
    const MrcPathSet& paths = m_paths[plane];
    if (path >= paths.count)
    {
        path = 0;
    }
    h.SetPlane(static_cast<uint8_t>(plane));
    h.SetPath(static_cast<uint16_t>(path));
    h.SetPayloadLen(0);
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(h);
    m_l4->SendPacket(plane,
                     paths.Get(path),
                     FlowLabel(h.GetEv()),
                     MrcDscp::TrafficClass(MrcDscp::CONTROL, MrcDscp::ECN_NOT_ECT),
                     packet);
}

void
MrcQueuePair::Deliver(const TracedCallback<const MrcCompletion&>& trace,
                      const CompletionCallback& cb,
                      const MrcCompletion& c)
{
    trace(c);
    if (!cb.IsNull())
    {
        cb(c);
    }
}

void
MrcQueuePair::DeliverSendCompletion(const MrcCompletion& c)
{
    Deliver(m_sendCompleteTrace, m_sendCb, c);
}

void
MrcQueuePair::DeliverRecvCompletion(const MrcCompletion& c)
{
    Deliver(m_recvCompleteTrace, m_recvCb, c);
}

uint32_t
MrcQueuePair::AckPsn(uint32_t psn, uint64_t echoedTimestamp, bool duplicate)
{
    if (psn < m_psnBase || psn >= m_nextPsn)
    {
        return 0;
    }
    TxPkt& p = m_txPkts[psn - m_psnBase];
    if (p.acked)
    {
        if (duplicate && p.tries > 1)
        {
            // A second copy arrived: the original was not lost (whichever came second).
            if (p.cause == TX_RETX_SACK && !p.spurious)
            {
                OnSpurious(p);
            }
            if (!m_suspicions.empty())
            {
                DecideSuspicions(psn, false);
            }
        }
        return 0;
    }
    p.acked = true;
    if (!p.lost)
    {
        m_inflight -= p.len;
    }
    p.lost = false;
    m_bytesAcked += p.len;
    ++m_txMsgs[p.msn - m_txMsgs.front().msn].pktsAcked;
    if (psn + 1 > m_highestAcked)
    {
        m_highestAcked = psn + 1;
    }
    // Karn's rule for the loss detector: an acknowledgement moves the send-order mark only if
    // it is known which transmission arrived (the only one, or the one whose timestamp the ACK
    // echoes, unless the receiver reports it a duplicate); the original of a retransmitted
    // packet arriving late says nothing about the packets sent just before the retransmission.
    const bool latest
        = !duplicate
       && (p.tries == 1 || echoedTimestamp == static_cast<uint64_t>(p.sentAt.GetNanoSeconds()));
    if (latest && p.txSeq + 1 > m_ackedTxSeq)
    {
        m_ackedTxSeq = p.txSeq + 1;
    }
    if (!m_suspicions.empty())
    {
        if (p.tries > 1 && latest)
        {
            // The retransmission arrived first: the original is lost unless the receiver
            // reports it (a duplicate) within one more out-of-order deadline (a queue can
            // delay it that much).
            StartVerdict(psn);
        }
        else
        {
            // The original arrived, or may have (it was acknowledged before its
            // retransmission even left, or by an ACK that does not say which copy arrived).
            DecideSuspicions(psn, false);
        }
    }
    if (!latest && (echoedTimestamp != 0 || duplicate) && p.cause == TX_RETX_SACK)
    {
        // An earlier transmission arrived after all: the out-of-order rule fired too soon.
        OnSpurious(p);
    }
    return p.len;
}

void
MrcQueuePair::CountSpurious()
{
    ++m_spurious;
    if (m_reorderWindowAttr.IsZero())
    {
        m_reorderWindow = std::min(m_reorderWindow * 2, m_baseRtt);
        m_lastSpurious = Simulator::Now();
    }
}

void
MrcQueuePair::OnSpurious(TxPkt& p)
{
    p.spurious = true;
    CountSpurious();
    if (m_reorderThreshold == 0 && p.tries == 2 && m_ackedTxSeq > p.prevSeq)
    {
        // The count rule adapts as TCP's reordering degree does (Linux's
        // tcp_check_sack_reordering): the threshold grows to the distance the late
        // original was overtaken by, plus an eighth, up to four times its start; beyond
        // that the time rule finds losses sooner than a count could.
        const uint64_t seen = m_ackedTxSeq - p.prevSeq;
        const uint64_t want = std::min<uint64_t>(seen + seen / 8, 4ULL * m_reorderPktsMin);
        m_reorderPkts = std::max<uint32_t>(m_reorderPkts, static_cast<uint32_t>(want));
    }
}

void
MrcQueuePair::UpdatePeerPlanes(const MrcHeader& h)
{
    // Control packets carry the sender's port-status bitmap in the offset field (0: not set).
    if (m_peerPortStatus && h.GetPortStatus() != 0 && h.GetPortStatus() != m_peerPlaneMask)
    {
        m_peerPlaneMask = h.GetPortStatus();
        NS_LOG_INFO("qp " << m_qpn << ": peer planes now " << std::hex << m_peerPlaneMask);
        ResetProbePace(); // planes changed: probe the returning ones promptly
    }
}

bool
MrcQueuePair::EvIsCurrent(const TxPkt& p) const
{
    return m_selector->IsCurrent(p.ev, p.evGen);
}

void
MrcQueuePair::FlushEv(uint16_t ev, uint16_t generation)
{
    // What was sent on that EV, and on the current EVs retired with it because they name the
    // same path (MrcPathSelector::Retire), is resent.
    if (m_pathFlush == FLUSH_NONE)
    {
        return;
    }
    const MrcPathSelector::Ev& dead = m_selector->GetEv(ev);
    const bool current = m_selector->IsCurrent(ev, generation);
    const bool held = m_pathFlush == FLUSH_HELD;
    for (uint32_t psn = m_psnBase; psn < m_nextPsn; ++psn)
    {
        const TxPkt& p = m_txPkts[psn - m_psnBase];
        if (p.acked || p.lost)
        {
            continue;
        }
        bool onPath = p.ev == ev && p.evGen == generation;
        if (!onPath && current && EvIsCurrent(p))
        {
            const MrcPathSelector::Ev& e = m_selector->GetEv(p.ev);
            onPath = e.plane == dead.plane && e.path == dead.path
                  && (e.state == MrcPathSelector::ASSUMED_BAD || (held && e.IsHeld()));
        }
        if (onPath)
        {
            DeclareLost(psn, TX_RETX_SACK);
        }
    }
}

Time
MrcQueuePair::ReorderWindow() const
{
    // The reorder window in effect. Adaptive mode, once a full RTT bucket of history exists:
    // the largest queueing delay the paths recently showed (the recent largest RTT less the
    // smaller of the base RTT and the smallest RTT seen), at least a sixteenth of the base RTT
    // and at most the RACK-style window. A packet is then late only if it took longer than the
    // slowest recent path plus that much queueing again. On a calm fabric a failed path is
    // found about 2 us sooner than with a quarter base RTT; under congestion the window grows
    // with the queues (a wrong guess costs one retransmission: the EV is only held).
    Time window = m_reorderWindow;
    if (m_reorderWindowAttr.IsZero() && m_rttMax[1].IsStrictlyPositive())
    {
        const Time floor = std::min(m_rttMin, m_baseRtt);
        window = std::min(window, std::max(m_rttMax[0] - floor, m_baseRtt / 16));
    }
    return window;
}

void
MrcQueuePair::DetectLosses()
{
    const Time now = Simulator::Now();
    if (m_reorderWindowAttr.IsZero() && m_reorderWindow > m_baseRtt / 4
        && now - m_lastSpurious > 16 * m_baseRtt)
    {
        m_reorderWindow = std::max(m_reorderWindow / 2, m_baseRtt / 4);
        m_lastSpurious = now;
    }
    const Time window = ReorderWindow();
    while (!m_sentOrder.empty())
    {
        const Sent s = m_sentOrder.front();
        if (s.psn < m_psnBase || s.psn >= m_nextPsn)
        {
            m_sentOrder.pop_front();
            continue;
        }
        const TxPkt& p = m_txPkts[s.psn - m_psnBase];
        if (p.acked || p.lost || p.txSeq != s.txSeq)
        {
            m_sentOrder.pop_front(); // answered, or superseded by a retransmission
            continue;
        }
        if (s.txSeq >= m_ackedTxSeq)
        {
            return; // nothing sent after it has been acknowledged yet
        }
        // Something sent after it was acknowledged. It is lost once enough was (count rule),
        // or once it is older than the RTT the paths currently show plus the reorder window
        // (time rule, which also finds losses near the end of a message, where too few
        // packets follow). "The RTT the paths currently show" is the largest RTT measured
        // over the last few base RTTs, not only the newest: sprayed paths differ by their
        // queueing delay, and a packet on the slowest healthy path is not lost. (Whatever is
        // slower than that and the timeout together is the timeout's.)
        const Time deadline = s.at + std::max(m_rackRtt, m_rttMax[0]) + window;
        if (s.txSeq + m_reorderPkts >= m_ackedTxSeq && now < deadline)
        {
            m_reorderEvent.Cancel();
            m_reorderEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnReorderTimer>(
                deadline - now, this);
            return;
        }
        m_sentOrder.pop_front();
        ++m_sackLosses;
        const uint16_t ev = p.ev;
        const uint16_t generation = p.evGen;
        // During an incast (from a last-hop trim until the queues drain) the loss may be
        // queueing skew between planes: retransmit, but do not retire the EV on this alone.
        const bool incast = m_incastGuard && m_inIncast;
        const bool current = EvIsCurrent(p) && !incast;
        m_incastLosses += incast ? 1 : 0;
        DeclareLost(s.psn, TX_RETX_SACK);
        if (!current)
        {
            continue;
        }
        if (s.txSeq + m_reorderPkts < m_ackedTxSeq)
        {
            // Enough sent after it was acknowledged: lost, and the EV is retired at once.
            m_selector->OnLoss(ev, MrcPathSelector::CAUSE_SACK_LOSS);
        }
        else
        {
            // Only late: a failed path, or a longer queue on it than on the others. The EV
            // (and its path twins) is held in SKIP (at the EvMinActive floor it stays GOOD);
            // the verdict decides (DecideSuspicions): nothing is retired for a queue.
            m_selector->OnSuspectedLoss(ev);
            if (m_selector->GetEv(ev).state != MrcPathSelector::ASSUMED_BAD)
            {
                m_suspicions.push_back({s.psn, ev, generation, Time(0)});
            }
        }
        const MrcPathSelector::Ev& e = m_selector->GetEv(ev);
        if (e.state == MrcPathSelector::ASSUMED_BAD || (m_pathFlush == FLUSH_HELD && e.IsHeld()))
        {
            FlushEv(ev, generation);
        }
    }
}

void
MrcQueuePair::DecideSuspicions(uint32_t psn, bool lost)
{
    for (size_t i = 0; i < m_suspicions.size();)
    {
        const Suspicion v = m_suspicions[i];
        if (v.psn != psn)
        {
            ++i;
            continue;
        }
        m_suspicions[i] = m_suspicions.back();
        m_suspicions.pop_back();
        if (m_selector->IsCurrent(v.ev, v.generation))
        {
            m_selector->OnLossVerdict(v.ev, lost);
            if (lost)
            {
                FlushEv(v.ev, v.generation);
            }
        }
    }
}

void
MrcQueuePair::StartVerdict(uint32_t psn)
{
    const Time at = Simulator::Now() + std::max(m_rackRtt, m_rttMax[0]) + ReorderWindow();
    for (auto& v : m_suspicions)
    {
        if (v.psn == psn && v.decideAt.IsZero())
        {
            v.decideAt = at;
        }
    }
    if (!m_verdictEvent.IsRunning())
    {
        m_verdictEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnVerdictTimer>(
            at - Simulator::Now(), this);
    }
}

void
MrcQueuePair::OnVerdictTimer()
{
    if (m_error)
    {
        return;
    }
    const Time now = Simulator::Now();
    std::vector<uint32_t> due;
    Time next = Time::Max();
    for (const auto& v : m_suspicions)
    {
        if (v.decideAt.IsZero())
        {
            continue;
        }
        if (v.decideAt <= now)
        {
            due.push_back(v.psn);
        }
        else
        {
            next = std::min(next, v.decideAt);
        }
    }
    for (uint32_t psn : due)
    {
        DecideSuspicions(psn, true);
    }
    if (next != Time::Max())
    {
        m_verdictEvent
            = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnVerdictTimer>(next - now, this);
    }
    if (!due.empty())
    {
        TrySend();
    }
}

void
MrcQueuePair::OnReorderTimer()
{
    if (m_error)
    {
        return;
    }
    DetectLosses();
    TrySend();
}

void
MrcQueuePair::HandleAck(const MrcHeader& h)
{
    UpdatePeerPlanes(h);
    // The receiver had the triggering PSN already (a D-SACK, RFC 2883).
    const bool dup = (h.GetFlags() & MrcHeader::FLAG_DUPLICATE) != 0;
    if (dup && h.GetPsn() < m_psnBase)
    {
        // The second copy of a packet acknowledged and released already: if it had been
        // resent on a presumed loss, the retransmission was unnecessary (counted, and the
        // reorder window widens); if it was suspected, it was not lost.
        const auto it = std::lower_bound(m_released.begin(), m_released.end(), h.GetPsn());
        const bool resent = it != m_released.end() && *it == h.GetPsn();
        if (resent)
        {
            CountSpurious();
            m_released.erase(it);
        }
        if (!m_suspicions.empty())
        {
            const bool suspected = std::any_of(m_suspicions.begin(),
                                               m_suspicions.end(),
                                               [&h](const Suspicion& v)
                                               {
                                                   return v.psn == h.GetPsn();
                                               });
            m_spurious += (suspected && !resent) ? 1 : 0;
            DecideSuspicions(h.GetPsn(), false);
        }
    }
    if (m_txMsgs.empty())
    {
        return;
    }
    uint32_t newly = 0;
    const uint32_t cumEnd = std::min(h.GetCumAck(), m_nextPsn);
    for (uint32_t psn = m_psnBase; psn < cumEnd; ++psn)
    {
        newly += AckPsn(psn, psn == h.GetPsn() ? h.GetTimestamp() : 0, dup && psn == h.GetPsn());
    }
    for (uint32_t i = 0; i < 64; ++i)
    {
        if (h.GetSackBitmap() & (uint64_t(1) << i))
        {
            const uint32_t psn = h.GetSackBase() + i;
            newly
                += AckPsn(psn, psn == h.GetPsn() ? h.GetTimestamp() : 0, dup && psn == h.GetPsn());
        }
    }
    const bool ecn = (h.GetFlags() & MrcHeader::FLAG_ECN_ECHO) != 0;
    // The reflected EV speaks for the path of the packet that triggered the ACK, if its slot
    // still names that path.
    bool karn = false; // the RTT sample is of a known transmission (Karn's rule)
    if (h.GetPsn() >= m_psnBase && h.GetPsn() < m_nextPsn)
    {
        const TxPkt& p = m_txPkts[h.GetPsn() - m_psnBase];
        if (p.ev == h.GetEv() && EvIsCurrent(p))
        {
            m_selector->OnAck(h.GetEv(), ecn);
        }
        karn = p.tries == 1 || h.GetTimestamp() == static_cast<uint64_t>(p.sentAt.GetNanoSeconds());
    }
    const Time now = Simulator::Now();
    // An echo from the future (or a negative one) is no sample.
    const Time rtt = h.GetTimestamp() <= static_cast<uint64_t>(now.GetNanoSeconds())
                       ? now - NanoSeconds(static_cast<int64_t>(h.GetTimestamp()))
                       : Time(0);
    m_cc->OnAck(newly, rtt, ecn);
    if (rtt.IsStrictlyPositive())
    {
        m_rackRtt = rtt; // the RTT of the newest acknowledged transmission
        if (m_inIncast && rtt < m_baseRtt * 3 / 2)
        {
            m_inIncast = false; // the last-hop queues have drained
        }
        m_srtt = m_srtt.IsZero() ? rtt : (m_srtt * 7 + rtt) / 8;
        if (karn)
        {
            // Windowed maximum over two buckets of RTT_MAX_BUCKET base RTTs each.
            if (now - m_rttMaxStart >= m_baseRtt * RTT_MAX_BUCKET)
            {
                m_rttMax[1] = now - m_rttMaxStart >= m_baseRtt * (2 * RTT_MAX_BUCKET)
                                ? Time(0)
                                : m_rttMaxBucket;
                m_rttMaxBucket = Time(0);
                m_rttMaxStart = now;
            }
            m_rttMaxBucket = std::max(m_rttMaxBucket, rtt);
            m_rttMin = m_rttMin.IsZero() ? rtt : std::min(m_rttMin, rtt);
            m_rttMax[0] = std::max(m_rttMaxBucket, m_rttMax[1]);
        }
    }
    m_recoveryOps->OnAckProcessed(*this);
    CompleteSends();
    if (m_cc->GetCwnd() != m_cwnd)
    {
        m_cwnd = m_cc->GetCwnd();
    }
    MaybeStartProbing();
    TrySend();
}

void
MrcQueuePair::Rewind(uint32_t psn, uint8_t cause)
{
    m_retxQueue.clear();
    for (uint32_t q = std::max(psn, m_psnBase); q < m_nextPsn; ++q)
    {
        TxPkt& p = m_txPkts[q - m_psnBase];
        if (p.acked)
        {
            continue;
        }
        if (!p.lost)
        {
            m_inflight -= p.len;
        }
        p.lost = true;
        p.cause = cause;
        m_retxQueue.push_back(q);
    }
}

void
MrcQueuePair::HandleNack(const MrcHeader& h)
{
    ++m_nacks;
    UpdatePeerPlanes(h);
    if (h.GetNackReason() == MrcHeader::NACK_SEQUENCE_ERROR)
    {
        m_recoveryOps->OnSequenceNack(*this, h);
        return;
    }
    const bool lastHop = h.GetNackReason() == MrcHeader::NACK_TRIMMED_LAST_HOP;
    if (lastHop)
    {
        m_inIncast = true;
    }
    if (h.GetPsn() >= m_psnBase && h.GetPsn() < m_nextPsn)
    {
        const TxPkt& p = m_txPkts[h.GetPsn() - m_psnBase];
        // Only the transmission the NACK is about: a later retransmission is still in flight.
        if (!p.acked && !p.lost && p.ev == h.GetEv())
        {
            if ((h.GetNackReason() == MrcHeader::NACK_TRIMMED || lastHop) && EvIsCurrent(p))
            {
                m_selector->OnNack(h.GetEv(), lastHop);
            }
            if (h.GetNackReason() != MrcHeader::NACK_OUT_OF_WINDOW)
            {
                m_cc->OnNack(p.len, lastHop);
            }
            DeclareLost(h.GetPsn(), TX_RETX_NACK);
        }
    }
    if (m_cc->GetCwnd() != m_cwnd)
    {
        m_cwnd = m_cc->GetCwnd();
    }
    TrySend();
}

void
MrcQueuePair::DeclareLost(uint32_t psn, uint8_t cause)
{
    TxPkt& p = m_txPkts[psn - m_psnBase];
    if (p.acked || p.lost)
    {
        return;
    }
    p.lost = true;
    p.cause = cause;
    m_inflight -= p.len;
    m_retxQueue.push_back(psn);
}

void
MrcQueuePair::CompleteSends()
{
    while (!m_txPkts.empty() && m_txPkts.front().acked)
    {
        const TxPkt& p = m_txPkts.front();
        if (p.tries > 1 && p.cause == TX_RETX_SACK && !p.spurious)
        {
            // Its late original may still be reported (a duplicate) after it leaves the window.
            if (m_released.size() >= RELEASED_KEPT)
            {
                m_released.pop_front();
            }
            m_released.push_back(m_psnBase);
        }
        m_txPkts.pop_front();
        ++m_psnBase;
    }
    while (!m_txMsgs.empty())
    {
        const TxMsg& m = m_txMsgs.front();
        if (m.nextOffset < m.length || m.pktsAcked < m.pkts)
        {
            break;
        }
        MrcCompletion c{
            m_qpn, m.wrId, m.length, SUCCESS, m.imm, m.immData, m.posted, Simulator::Now()};
        m_txMsgs.pop_front();
        if (m_txCursor > 0)
        {
            --m_txCursor;
        }
        DeliverSendCompletion(c);
    }
}

void
MrcQueuePair::OnRto()
{
    if (m_error)
    {
        return;
    }
    const Time now = Simulator::Now();
    bool fired = false;
    while (!m_sentOrder.empty())
    {
        const Sent s = m_sentOrder.front();
        if (s.psn < m_psnBase || s.psn >= m_nextPsn)
        {
            m_sentOrder.pop_front();
            continue;
        }
        TxPkt& p = m_txPkts[s.psn - m_psnBase];
        if (p.acked || p.lost || p.txSeq != s.txSeq)
        {
            m_sentOrder.pop_front();
            continue;
        }
        if (s.at + TimeoutOf(p) > now)
        {
            break;
        }
        m_sentOrder.pop_front();
        ++m_timeouts;
        fired = true;
        // Only timeouts spend the retry budget (trims and out-of-order losses never do).
        p.timeouts += p.timeouts < UINT16_MAX ? 1 : 0;
        if (m_retryLimit > 0 && p.timeouts > m_retryLimit)
        {
            EnterError(s.psn);
            return;
        }
        if (m_recoveryOps->OnTimeout(*this, s.psn))
        {
            break;
        }
    }
    if (fired)
    {
        m_cc->OnTimeout();
        m_cwnd = m_cc->GetCwnd();
        MaybeStartProbing();
    }
    ArmRto();
    TrySend();
}

Time
MrcQueuePair::TimeoutOf(const TxPkt& p) const
{
    if (p.timeouts <= m_linearRetries)
    {
        return m_rto; // the first transmission and the first LinearRetries retransmissions
    }
    return m_rto * (int64_t(1) << std::min<uint32_t>(p.timeouts - m_linearRetries, 16));
}

void
MrcQueuePair::ArmRto()
{
    if (!m_rtoEvent.IsExpired() || m_error)
    {
        return;
    }
    while (!m_sentOrder.empty())
    {
        const Sent& s = m_sentOrder.front();
        if (s.psn >= m_psnBase && s.psn < m_nextPsn)
        {
            const TxPkt& p = m_txPkts[s.psn - m_psnBase];
            if (!p.acked && !p.lost && p.txSeq == s.txSeq)
            {
                const Time left = s.at + TimeoutOf(p) - Simulator::Now();
                m_rtoEvent = MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnRto>(
                    left.IsStrictlyPositive() ? left : Time(0), this);
                return;
            }
        }
        m_sentOrder.pop_front();
    }
}

void
MrcQueuePair::ResetProbePace()
{
    m_probeWait = m_probeInterval;
    if (!m_probeEvent.IsExpired() && Simulator::GetDelayLeft(m_probeEvent) > m_probeInterval)
    {
        m_probeEvent.Cancel(); // a backed-off round is due too late: bring it forward
    }
    MaybeStartProbing();
}

void
MrcQueuePair::MaybeStartProbing()
{
    // Retired EVs are probed while the QP has work; an idle QP probes again when work is
    // posted, so a path that stays dead cannot keep a finished simulation running.
    if (m_probeEvent.IsExpired() && !m_error && m_selector->GetNAssumedBad() > 0
        && !m_txMsgs.empty())
    {
        m_probeEvent = Simulator::Schedule(m_probeWait, &MrcQueuePair::OnProbeTimer, this);
    }
}

void
MrcQueuePair::OnProbeTimer()
{
    if (m_error)
    {
        return;
    }
    // Probes still unanswered from the last round count as failures; their late answers will
    // no longer match (OnProbeAnswer).
    uint32_t failed = 0;
    for (uint32_t i = 0; i < m_selector->GetNEvs(); ++i)
    {
        if (m_selector->GetEv(i).probePending)
        {
            m_selector->OnProbeResult(i, false);
            ++failed;
        }
    }
    if (failed > 0)
    {
        // Nothing answered in a whole round (an answer resets the pace): back off.
        m_probeWait = std::min(m_probeWait * 2, m_probeMaxInterval);
    }
    if (m_txMsgs.empty())
    {
        return; // idle: Post() resumes probing
    }
    const uint64_t planes = UsablePlanes();
    for (uint16_t ev : m_selector->GetProbeCandidates())
    {
        const MrcPathSelector::Ev& e = m_selector->GetEv(ev);
        if (!(planes & (uint64_t(1) << e.plane)))
        {
            continue; // the port-status bitmap says the plane is down: nothing to learn
        }
        MrcHeader h;
        h.SetOpcode(MrcHeader::PROBE);
        h.SetEv(ev);
        h.SetDstQpn(m_remoteQpn);
        h.SetSrcQpn(m_qpn);
        h.SetPsn(m_probeSeq++);
        h.SetTimestamp(static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
        h.SetPlane(static_cast<uint8_t>(e.plane));
        h.SetPath(e.path);
        Ptr<Packet> packet = Create<Packet>();
        packet->AddHeader(h);
        m_selector->SetProbePending(ev, h.GetPsn());
        if (!m_txTrace.IsEmpty())
        {
            m_txTrace(packet, h.GetPsn(), ev, TX_PROBE);
        }
        m_l4->SendPacket(e.plane,
                         m_paths[e.plane].Get(e.path),
                         FlowLabel(ev),
                         MrcDscp::TrafficClass(MrcDscp::CONTROL, MrcDscp::ECN_NOT_ECT),
                         packet);
    }
    MaybeStartProbing();
    TrySend();
}

void
MrcQueuePair::EnterError(uint32_t psn)
{
    NS_LOG_WARN("qp " << m_qpn << " failed: psn " << psn << " exhausted " << m_retryLimit
                      << " transmissions");
    m_error = true;
    m_rtoEvent.Cancel();
    m_probeEvent.Cancel();
    m_errorTrace(m_qpn, psn);
    std::deque<TxMsg> pending;
    pending.swap(m_txMsgs);
    m_txPkts.clear();
    m_retxQueue.clear();
    m_sentOrder.clear();
    m_suspicions.clear();
    m_verdictEvent.Cancel();
    m_inflight = 0;
    for (const auto& m : pending)
    {
        MrcCompletion c{
            m_qpn, m.wrId, m.length, RETRY_EXCEEDED, m.imm, m.immData, m.posted, Simulator::Now()};
        DeliverSendCompletion(c);
    }
}

void
MrcQueuePair::SetExplicitEvs(const std::string& evs, const std::string& backups)
{
    NS_ABORT_MSG_IF(!m_selector, "MrcQueuePair::SetExplicitEvs: the queue pair is not connected");
    NS_ABORT_MSG_IF(m_dataSent > 0,
                    "MrcQueuePair::SetExplicitEvs: the queue pair has already sent data");
    m_selector->SetAttribute("ExplicitEvs", StringValue(evs));
    m_selector->SetAttribute("BackupEvs", StringValue(backups));
    m_selector->Reinit();
}

Ptr<MrcPathSelector>
MrcQueuePair::GetPathSelector() const
{
    return m_selector;
}

Ptr<MrcCongestionOps>
MrcQueuePair::GetCongestionOps() const
{
    return m_cc;
}

uint32_t
MrcQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
MrcQueuePair::GetRemoteHost() const
{
    return m_remoteHost;
}

uint32_t
MrcQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

bool
MrcQueuePair::IsInError() const
{
    return m_error;
}

uint32_t
MrcQueuePair::GetPendingMessages() const
{
    return static_cast<uint32_t>(m_txMsgs.size());
}

uint64_t
MrcQueuePair::GetDataPacketsSent() const
{
    return m_dataSent;
}

uint64_t
MrcQueuePair::GetRetransmissions() const
{
    return m_retx;
}

uint64_t
MrcQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
MrcQueuePair::GetSackLosses() const
{
    return m_sackLosses;
}

uint64_t
MrcQueuePair::GetIncastLosses() const
{
    return m_incastLosses;
}

uint64_t
MrcQueuePair::GetSpuriousRetransmissions() const
{
    return m_spurious;
}

Time
MrcQueuePair::GetReorderWindow() const
{
    return m_reorderWindow;
}

uint32_t
MrcQueuePair::GetReorderThreshold() const
{
    return m_reorderPkts;
}

uint64_t
MrcQueuePair::GetNacksReceived() const
{
    return m_nacks;
}

uint64_t
MrcQueuePair::GetBytesAcked() const
{
    return m_bytesAcked;
}

uint64_t
MrcQueuePair::GetBytesPlaced() const
{
    return m_rx.GetBytesPlaced();
}

uint64_t
MrcQueuePair::GetAcksSent() const
{
    return m_rx.GetAcksSent();
}

uint64_t
MrcQueuePair::GetDuplicatePackets() const
{
    return m_rx.GetDuplicatePackets();
}

uint64_t
MrcQueuePair::GetMalformedPackets() const
{
    return m_rx.GetMalformedPackets();
}

uint64_t
MrcQueuePair::GetPlaneDataPackets(uint32_t plane) const
{
    return plane < m_planeTx.size() ? m_planeTx[plane] : 0;
}

uint64_t
MrcQueuePair::GetPlaneRxPackets(uint32_t plane) const
{
    return m_rx.GetPlaneRxPackets(plane);
}

} // namespace ns3
