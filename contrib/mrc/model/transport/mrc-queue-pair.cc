/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-queue-pair.h"

#include "ns3/mrc-dscp.h"
#include "ns3/mrc-fork.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/boolean.h"
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
                              "Congestion window, bytes (the send state's, MrcSendState)",
                              MakeTraceSourceAccessor(&MrcQueuePair::m_cwnd),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

MrcQueuePair::MrcQueuePair() = default;
MrcQueuePair::~MrcQueuePair() = default;

Ptr<MrcQueuePair>
MrcQueuePair::Fork() const
{
    NS_ABORT_MSG_IF(m_l4 != nullptr, "MrcQueuePair::Fork: only a queue pair not yet Setup");
    return MrcForkAs<MrcQueuePair>(this);
}

void
MrcQueuePair::DoDispose()
{
    m_rtoEvent.Cancel();
    m_probeEvent.Cancel();
    m_rx.Stop();
    m_paceEvent.Cancel();
    if (m_recovery)
    {
        m_recovery->Dispose();
    }
    m_selector = nullptr;
    m_recovery = nullptr;
    m_state = nullptr;
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
                    Ptr<MrcRecoveryOps> recovery,
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
    m_recovery = recovery;
    m_rto = m_rtoUnit * (int64_t(1) << m_rtoExponent);
    m_state = CreateObject<MrcSendState>();
    m_state->m_baseRtt = baseRtt;
    m_state->m_peerAckDelay = m_ackDelay;
    m_state->m_lastRtt = baseRtt;
    m_state->m_rttMaxStart = MrcNow();
    m_state->TraceConnectWithoutContext("Cwnd", MakeCallback(&MrcQueuePair::UpdateCwndTrace, this));
    std::vector<uint32_t> perPlane;
    for (const auto& p : m_paths)
    {
        perPlane.push_back(p.count);
    }
    m_selector->Init(perPlane, rng, hash);
    m_cc->Init(bdp, baseRtt, m_payloadSize);
    m_cc->SetRateIncreaseCallback(MakeCallback(&MrcQueuePair::OnPacingRateIncrease, this));
    m_recovery->Init(this, m_state, bdp, m_payloadSize);
    m_probeWait = m_probeInterval;
    SyncCwnd();
    m_planeTx.Reset(m_paths.size());
    MrcQpReceiver::Config rc{m_payloadSize,
                             m_ackEveryBytes,
                             m_ackDelay,
                             m_recvWindow,
                             m_cnpInterval,
                             m_recovery->IsInOrder(),
                             m_recovery->UnderstandsTrim()};
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
    const uint64_t wrId = m_state->m_nextWrId++;
    if (m_error)
    {
        MrcCompletion c{m_qpn, wrId, length, RETRY_EXCEEDED, imm, immData, MrcNow(), MrcNow()};
        DeliverSendCompletion(c);
        return wrId;
    }
    m_state->m_txMsgs.push_back({wrId,
                                 m_state->m_nextMsn++,
                                 length,
                                 remoteOffset,
                                 0,
                                 PacketsFor(length),
                                 0,
                                 imm,
                                 immData,
                                 MrcNow()});
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
    if (m_paceEvent.IsPending())
    {
        m_paceEvent.Cancel();
        if (next <= MrcNow())
        {
            m_paceEvent.Set(
                MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnPaceTimer>(Time(0), this));
        }
        else
        {
            m_paceEvent.Set(
                MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnPaceTimer>(next - MrcNow(), this));
        }
    }
}

void
MrcQueuePair::SyncCwnd()
{
    m_state->m_cwnd = m_cc->GetCwnd();
}

void
MrcQueuePair::UpdateCwndTrace(uint32_t /* oldValue */, uint32_t newValue)
{
    m_cwnd = newValue;
}

void
MrcQueuePair::OnPaceTimer()
{
    m_paceEvent.Expire();
    TrySend();
}

void
MrcQueuePair::TrySend()
{
    if (m_error || m_l4 == nullptr)
    {
        return;
    }
    SyncCwnd();
    MrcSendState& s = *m_state;
    const uint32_t cwnd = s.m_cwnd;
    const uint64_t rate = m_cc->GetPacingRate();
    while (true)
    {
        if (rate > 0 && MrcNow() < m_nextSendTime)
        {
            if (!m_paceEvent.IsPending())
            {
                m_paceEvent.Set(MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnPaceTimer>(
                    m_nextSendTime - MrcNow(), this));
            }
            return;
        }
        // Retransmissions first.
        while (!s.m_retxQueue.empty())
        {
            const uint32_t psn = s.m_retxQueue.front();
            if (s.InWindow(psn))
            {
                const TxPkt& p = s.Pkt(psn);
                if (p.lost && !p.acked)
                {
                    break;
                }
            }
            s.m_retxQueue.pop_front();
        }
        if (!s.m_retxQueue.empty())
        {
            const uint32_t psn = s.m_retxQueue.front();
            TxPkt& p = s.Pkt(psn);
            if (s.m_inflight > 0 && s.m_inflight + p.len > cwnd)
            {
                return;
            }
            if (!Transmit(psn, p.cause))
            {
                return;
            }
            s.m_retxQueue.pop_front();
            continue;
        }
        // New data.
        while (s.m_txCursor < s.m_txMsgs.size()
               && s.m_txMsgs[s.m_txCursor].nextOffset >= s.m_txMsgs[s.m_txCursor].length)
        {
            ++s.m_txCursor;
        }
        if (s.m_txCursor >= s.m_txMsgs.size())
        {
            return;
        }
        TxMsg& m = s.m_txMsgs[s.m_txCursor];
        const auto len
            = static_cast<uint32_t>(std::min<uint64_t>(m_payloadSize, m.length - m.nextOffset));
        if (s.m_inflight > 0 && s.m_inflight + len > cwnd)
        {
            return;
        }
        if (s.m_txPkts.size() >= m_recvWindow)
        {
            return; // never run further ahead of the oldest unacknowledged packet than the peer
        }
        // Without a usable port with room Transmit refuses a new packet before looking at it:
        // refuse it before making it (a port takes one frame at a time, so about every other
        // attempt ends here).
        const uint64_t usable = UsablePlanes();
        const uint64_t room = m_l4->GetPortsWithRoom();
        if ((usable & room) == 0)
        {
            WaitForBusyPort(usable, room);
            return;
        }
        const uint32_t psn = s.m_nextPsn;
        s.m_txPkts.push_back({m.msn,
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
        ++s.m_nextPsn;
        if (!Transmit(psn, TX_NEW, usable, room))
        {
            s.m_txPkts.pop_back();
            --s.m_nextPsn;
            return;
        }
        m.nextOffset += len;
    }
}

bool
MrcQueuePair::Transmit(uint32_t psn, uint8_t cause)
{
    return Transmit(psn, cause, UsablePlanes(), m_l4->GetPortsWithRoom());
}

void
MrcQueuePair::WaitForBusyPort(uint64_t usable, uint64_t room)
{
    if ((usable & ~room) != 0 && !m_waitingForPort)
    {
        m_waitingForPort = true; // a port it could use is busy: wait for room there
        m_l4->WaitForPort(m_qpn);
    }
}

bool
MrcQueuePair::Transmit(uint32_t psn, uint8_t cause, uint64_t usable, uint64_t room)
{
    MrcSendState& s = *m_state;
    TxPkt& p = s.Pkt(psn);
    // The EV is chosen when a port can take the packet, as a NIC's transmit scheduler picks
    // the next packet when a port has room: a retransmission or a path just retired applies
    // to the next packet out, not after what already waits in the port queues.
    const uint64_t planes = usable & room;
    const int32_t ev = planes == 0       ? -1
                     : (cause == TX_NEW) ? m_selector->Select(planes)
                                         : m_selector->SelectFresh(planes, p.ev);
    if (ev < 0)
    {
        WaitForBusyPort(usable, room);
        if (planes != 0 && !m_rtoEvent.IsPending())
        {
            // A port has room but no EV may use it, and nothing in flight has a timer (every
            // packet out was declared lost: no timer until it is resent). If the recovery
            // retired the last EVs from one of its timers (not from an ACK, which starts
            // probing after it), nothing else would ever wake the QP: probing brings them back.
            MaybeStartProbing();
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
    const TxMsg& m = s.MsgOf(p);
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
    // A compact frame: the payload is never read, and a Packet is made only if a trace asks.
    MrcFrame frame = MrcFrame::FromHeader(h, p.len);
    if (!m_txTrace.IsEmpty())
    {
        m_txTrace(Ptr<const Packet>(frame.GetPacket()), psn, h.GetEv(), cause);
    }
    const uint64_t rate = m_cc->GetPacingRate();
    if (rate > 0)
    {
        m_pacedAt = std::max(m_nextSendTime, MrcNow());
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
    p.txSeq = s.m_txSeq++;
    p.lost = false;
    ++p.tries;
    s.m_inflight += p.len;
    ++m_dataSent;
    m_planeTx.Increment(e.plane);
    if (cause != TX_NEW)
    {
        ++m_retx;
    }
    s.m_sentOrder.push_back({psn, p.txSeq, wire});
    if (!m_rtoEvent.IsPending())
    {
        m_rtoEvent.Set(MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnRto>(
            wire + TimeoutOf(p) - MrcNow(), this));
    }
    m_l4->SendFrame(e.plane,
                    m_paths[e.plane],
                    e.path,
                    FlowLabel(h.GetEv()),
                    MrcDscp::TrafficClass(MrcDscp::DATA, MrcDscp::ECN_ECT0),
                    std::move(frame));
    return true;
}

void
MrcQueuePair::Receive(const MrcHeader& h, uint8_t tc, uint32_t plane)
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
            SyncCwnd();
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
    m_l4->SendFrame(plane,
                    paths,
                    path,
                    FlowLabel(h.GetEv()),
                    MrcDscp::TrafficClass(MrcDscp::CONTROL, MrcDscp::ECN_NOT_ECT),
                    MrcFrame::FromHeader(h, 0));
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
    MrcSendState& s = *m_state;
    if (!s.InWindow(psn))
    {
        return 0;
    }
    TxPkt& p = s.Pkt(psn);
    if (p.acked)
    {
        if (duplicate && p.tries > 1)
        {
            m_recovery->OnPacketAckedAgain(psn, p);
        }
        return 0;
    }
    p.acked = true;
    if (!p.lost)
    {
        s.m_inflight -= p.len;
    }
    p.lost = false;
    s.m_bytesAcked += p.len;
    ++s.MsgOf(p).pktsAcked;
    // Karn's rule for the loss detector: an acknowledgement moves the send-order mark only if
    // it is known which transmission arrived (the only one, or the one whose timestamp the ACK
    // echoes, unless the receiver reports it a duplicate); the original of a retransmitted
    // packet arriving late says nothing about the packets sent just before the retransmission.
    const bool latest
        = !duplicate
       && (p.tries == 1 || echoedTimestamp == static_cast<uint64_t>(p.sentAt.GetNanoSeconds()));
    if (latest && p.txSeq + 1 > s.m_ackedTxSeq)
    {
        s.m_ackedTxSeq = p.txSeq + 1;
    }
    m_recovery->OnPacketAcked(psn, p, latest, echoedTimestamp, duplicate);
    return p.len;
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

void
MrcQueuePair::PrefetchParts(const uint8_t* header) const
{
    // Either kind sends (an acknowledgement, or the data it lets out): the paths' addresses.
    MrcEventPrefetch::Lines(m_paths.data(), m_paths.data() + m_paths.size());
    switch (MrcHeader::PeekOpcode(header))
    {
        case MrcHeader::WRITE:
        case MrcHeader::WRITE_IMM:
            m_rx.PrefetchWindow(MrcHeader::PeekPsn(header), MrcHeader::PeekMsn(header));
            return;
        case MrcHeader::ACK:
        case MrcHeader::NACK:
        {
            if (!m_state || !m_recovery || !m_cc || !m_selector)
            {
                return; // not set up, or disposed: no sending side
            }
            const MrcSendState* s = PeekPointer(m_state);
            MrcEventPrefetch::Lines(s, s + 1);
            const MrcRecoveryOps* r = PeekPointer(m_recovery);
            MrcEventPrefetch::Lines(r, reinterpret_cast<const char*>(r) + PARTS_BYTES);
            const MrcCongestionOps* c = PeekPointer(m_cc);
            MrcEventPrefetch::Lines(c, reinterpret_cast<const char*>(c) + PARTS_BYTES);
            const MrcPathSelector* p = PeekPointer(m_selector);
            MrcEventPrefetch::Lines(p, reinterpret_cast<const char*>(p) + PARTS_BYTES);
            return;
        }
        default:
            return;
    }
}

void
MrcQueuePair::HandleAck(const MrcHeader& h)
{
    UpdatePeerPlanes(h);
    MrcSendState& s = *m_state;
    // The receiver had the triggering PSN already (a D-SACK, RFC 2883).
    const bool dup = (h.GetFlags() & MrcHeader::FLAG_DUPLICATE) != 0;
    if (dup && h.GetPsn() < s.m_psnBase)
    {
        m_recovery->OnReleasedDuplicate(h.GetPsn());
    }
    if (s.m_txMsgs.empty())
    {
        return;
    }
    uint32_t newly = 0;
    const uint32_t cumEnd = std::min(h.GetCumAck(), s.m_nextPsn);
    for (uint32_t psn = s.m_psnBase; psn < cumEnd; ++psn)
    {
        newly += AckPsn(psn, psn == h.GetPsn() ? h.GetTimestamp() : 0, dup && psn == h.GetPsn());
    }
    for (uint32_t i = 0; i < MrcHeader::SACK_BITS; ++i)
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
    if (s.InWindow(h.GetPsn()))
    {
        const TxPkt& p = s.Pkt(h.GetPsn());
        if (p.ev == h.GetEv() && m_selector->IsCurrent(p.ev, p.evGen))
        {
            m_selector->OnAck(h.GetEv(), ecn);
        }
        karn = p.tries == 1 || h.GetTimestamp() == static_cast<uint64_t>(p.sentAt.GetNanoSeconds());
    }
    const Time now = MrcNow();
    // An echo from the future (or a negative one) is no sample.
    const Time rtt = h.GetTimestamp() <= static_cast<uint64_t>(now.GetNanoSeconds())
                       ? now - NanoSeconds(static_cast<int64_t>(h.GetTimestamp()))
                       : Time(0);
    m_cc->OnAck(newly, rtt, ecn);
    if (rtt.IsStrictlyPositive())
    {
        s.OnRttSample(now, rtt, karn);
        m_recovery->OnRttSample(rtt);
    }
    m_recovery->OnAckProcessed(h);
    CompleteSends();
    MaybeStartProbing();
    TrySend();
}

void
MrcQueuePair::HandleNack(const MrcHeader& h)
{
    ++m_nacks;
    UpdatePeerPlanes(h);
    m_recovery->OnNack(h);
}

void
MrcQueuePair::CompleteSends()
{
    MrcSendState& s = *m_state;
    while (!s.m_txPkts.empty() && s.m_txPkts.front().acked)
    {
        const TxPkt& p = s.m_txPkts.front();
        if (p.tries > 1)
        {
            m_recovery->OnPacketReleased(s.m_psnBase, p);
        }
        s.m_txPkts.pop_front();
        ++s.m_psnBase;
    }
    while (!s.m_txMsgs.empty())
    {
        const TxMsg& m = s.m_txMsgs.front();
        if (m.nextOffset < m.length || m.pktsAcked < m.pkts)
        {
            break;
        }
        MrcCompletion c{m_qpn, m.wrId, m.length, SUCCESS, m.imm, m.immData, m.posted, MrcNow()};
        s.m_txMsgs.pop_front();
        if (s.m_txCursor > 0)
        {
            --s.m_txCursor;
        }
        DeliverSendCompletion(c);
    }
}

void
MrcQueuePair::OnRto()
{
    m_rtoEvent.Expire();
    if (m_error)
    {
        return;
    }
    MrcSendState& s = *m_state;
    const Time now = MrcNow();
    bool fired = false;
    while (!s.m_sentOrder.empty())
    {
        const MrcSendState::Sent sent = s.m_sentOrder.front();
        if (!s.InWindow(sent.psn))
        {
            s.m_sentOrder.pop_front();
            continue;
        }
        TxPkt& p = s.Pkt(sent.psn);
        if (p.acked || p.lost || p.txSeq != sent.txSeq)
        {
            s.m_sentOrder.pop_front();
            continue;
        }
        if (sent.at + TimeoutOf(p) > now)
        {
            break;
        }
        s.m_sentOrder.pop_front();
        ++m_timeouts;
        fired = true;
        // Only timeouts spend the retry budget (trims and out-of-order losses never do).
        p.timeouts += p.timeouts < UINT16_MAX ? 1 : 0;
        if (m_retryLimit > 0 && p.timeouts > m_retryLimit)
        {
            EnterError(sent.psn);
            return;
        }
        if (m_recovery->OnTimeout(sent.psn))
        {
            break;
        }
    }
    if (fired)
    {
        m_cc->OnTimeout();
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
    if (m_rtoEvent.IsPending() || m_error)
    {
        return;
    }
    MrcSendState& s = *m_state;
    while (!s.m_sentOrder.empty())
    {
        const MrcSendState::Sent& sent = s.m_sentOrder.front();
        if (s.InWindow(sent.psn))
        {
            const TxPkt& p = s.Pkt(sent.psn);
            if (!p.acked && !p.lost && p.txSeq == sent.txSeq)
            {
                const Time left = sent.at + TimeoutOf(p) - MrcNow();
                m_rtoEvent.Set(MrcScheduleMember<MrcQueuePair, &MrcQueuePair::OnRto>(
                    left.IsStrictlyPositive() ? left : Time(0), this));
                return;
            }
        }
        s.m_sentOrder.pop_front();
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
        && !m_state->m_txMsgs.empty())
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
    if (m_state->m_txMsgs.empty())
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
        h.SetTimestamp(static_cast<uint64_t>(MrcNow().GetNanoSeconds()));
        h.SetPlane(static_cast<uint8_t>(e.plane));
        h.SetPath(e.path);
        MrcFrame frame = MrcFrame::FromHeader(h, 0);
        m_selector->SetProbePending(ev, h.GetPsn());
        if (!m_txTrace.IsEmpty())
        {
            m_txTrace(Ptr<const Packet>(frame.GetPacket()), h.GetPsn(), ev, TX_PROBE);
        }
        m_l4->SendFrame(e.plane,
                        m_paths[e.plane],
                        e.path,
                        FlowLabel(ev),
                        MrcDscp::TrafficClass(MrcDscp::CONTROL, MrcDscp::ECN_NOT_ECT),
                        std::move(frame));
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
    MrcSendState& s = *m_state;
    MrcRingDeque<TxMsg> pending;
    pending.swap(s.m_txMsgs);
    s.m_txPkts.clear();
    s.m_retxQueue.clear();
    s.m_sentOrder.clear();
    m_recovery->OnQpError();
    s.m_inflight = 0;
    for (std::size_t k = 0; k < pending.size(); ++k)
    {
        const TxMsg& m = pending[k];
        MrcCompletion c{
            m_qpn, m.wrId, m.length, RETRY_EXCEEDED, m.imm, m.immData, m.posted, MrcNow()};
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
    return m_state ? static_cast<uint32_t>(m_state->m_txMsgs.size()) : 0;
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
    return m_recovery ? m_recovery->GetSackLosses() : 0;
}

uint64_t
MrcQueuePair::GetIncastLosses() const
{
    return m_recovery ? m_recovery->GetIncastLosses() : 0;
}

uint64_t
MrcQueuePair::GetSpuriousRetransmissions() const
{
    return m_recovery ? m_recovery->GetSpuriousRetransmissions() : 0;
}

Ptr<MrcRecoveryOps>
MrcQueuePair::GetRecovery() const
{
    return m_recovery;
}

Ptr<MrcSendState>
MrcQueuePair::GetSendState() const
{
    return m_state;
}

uint64_t
MrcQueuePair::GetNacksReceived() const
{
    return m_nacks;
}

uint64_t
MrcQueuePair::GetBytesAcked() const
{
    return m_state ? m_state->m_bytesAcked : 0;
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
    return m_planeTx.Get(plane);
}

uint64_t
MrcQueuePair::GetPlaneRxPackets(uint32_t plane) const
{
    return m_rx.GetPlaneRxPackets(plane);
}

} // namespace ns3
