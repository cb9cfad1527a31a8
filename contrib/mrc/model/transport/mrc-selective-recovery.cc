/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-selective-recovery.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-fork.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSelectiveRecovery);

TypeId
MrcSelectiveRecovery::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcSelectiveRecovery")
              .SetParent<MrcRecoveryOps>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcSelectiveRecovery>()
              .AddAttribute("ReorderThreshold",
                            "Out-of-order loss detection: a transmission is lost once a packet "
                            "sent this many transmissions after it is acknowledged. 0: adaptive, "
                            "the bandwidth-delay product in packets (at least 16), raised after "
                            "a spurious retransmission to the distance the late original was "
                            "overtaken by plus an eighth, up to four times that",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcSelectiveRecovery::m_reorderThreshold),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ReorderWindow",
                            "Out-of-order loss detection, time rule: a transmission is presumed "
                            "lost once something sent after it is acknowledged and it is older "
                            "than the largest recent RTT (at least the newest) plus this. 0: "
                            "adaptive, the queueing the paths recently showed, between a "
                            "sixteenth and a quarter of the base RTT; a spurious retransmission "
                            "doubles both bounds (up to the base RTT), 16 losses none of which "
                            "proves spurious restore them (RACK, RFC 8985)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcSelectiveRecovery::m_reorderWindowAttr),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("IncastLossGuard",
                            "A loss found by out-of-order detection during an incast (from a "
                            "last-hop trim NACK until an RTT sample is back under 1.5 base RTTs) "
                            "is retransmitted but does not retire its EV: the planes' last-hop "
                            "queues then differ by up to a queue's worth of delay, and packets "
                            "behind a fuller one only look lost. Losses found by timeout, or "
                            "outside an incast, still retire their EV",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcSelectiveRecovery::m_incastGuard),
                            MakeBooleanChecker())
              .AddAttribute("PathFlush",
                            "What else is resent when a loss implicates a packet's EV: held "
                            "(everything in flight on it, once it is retired or held as "
                            "suspect), retired (only once it is retired: by the count rule, a "
                            "timeout or a confirmed suspicion), none (only the lost packet, as "
                            "the OCP API's selective retransmission; the path's other losses "
                            "are found one by one)",
                            StringValue("held"),
                            MakeStringAccessor(&MrcSelectiveRecovery::m_pathFlushName),
                            MakeMrcChoiceChecker({"held", "retired", "none"}))
              .AddAttribute("AckDelaySlack",
                            "The time rule takes the peer's delayed-ACK timer (its AckDelay) "
                            "into account: past its deadline a transmission is presumed lost "
                            "on an acknowledgement that does not report it, but on silence "
                            "only once the AckDelay has passed too, since the responder may "
                            "hold the report of a packet that fills a gap that long (RTT "
                            "samples come from packets answered at once). false: silence "
                            "past the deadline is a loss at once",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcSelectiveRecovery::m_ackDelaySlack),
                            MakeBooleanChecker());
    return tid;
}

MrcSelectiveRecovery::MrcSelectiveRecovery() = default;
MrcSelectiveRecovery::~MrcSelectiveRecovery() = default;

void
MrcSelectiveRecovery::DoDispose()
{
    m_reorderEvent.Cancel();
    m_verdictEvent.Cancel();
    MrcRecoveryOps::DoDispose();
}

void
MrcSelectiveRecovery::DoInit(uint32_t bdp, uint32_t payloadSize)
{
    m_pathFlush = m_pathFlushName == "none"    ? FLUSH_NONE
                : m_pathFlushName == "retired" ? FLUSH_RETIRED
                                               : FLUSH_HELD;
    m_reorderPkts
        = m_reorderThreshold > 0 ? m_reorderThreshold : std::max<uint32_t>(16, bdp / payloadSize);
    m_reorderPktsMin = m_reorderPkts;
    // Adaptive by default. The ceiling is RACK's reordering window: a quarter of the base RTT,
    // doubled (up to one base RTT) whenever a retransmission turns out spurious, back to a
    // quarter after 16 out-of-order losses without one (RFC 8985 §6.2's reo_wnd_persist);
    // ReorderWindow narrows it to the paths' recent queueing.
    const Time baseRtt = m_state->m_baseRtt;
    m_reorderWindow = m_reorderWindowAttr.IsStrictlyPositive() ? m_reorderWindowAttr : baseRtt / 4;
    m_reorderPersist = REORDER_PERSIST;
}

std::string
MrcSelectiveRecovery::GetName() const
{
    return "selective";
}

bool
MrcSelectiveRecovery::IsInOrder() const
{
    return false;
}

bool
MrcSelectiveRecovery::UnderstandsTrim() const
{
    return true;
}

void
MrcSelectiveRecovery::OnPacketAcked(
    uint32_t psn, MrcSendState::TxPkt& p, bool latest, uint64_t echoedTimestamp, bool duplicate)
{
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
    if (!latest && (echoedTimestamp != 0 || duplicate) && p.cause == MrcQueuePair::TX_RETX_SACK)
    {
        // An earlier transmission arrived after all: the out-of-order rule fired too soon.
        OnSpurious(p);
    }
}

void
MrcSelectiveRecovery::OnPacketAckedAgain(uint32_t psn, MrcSendState::TxPkt& p)
{
    // A second copy arrived: the original was not lost (whichever came second).
    if (p.cause == MrcQueuePair::TX_RETX_SACK && !p.spurious)
    {
        OnSpurious(p);
    }
    if (!m_suspicions.empty())
    {
        DecideSuspicions(psn, false);
    }
}

void
MrcSelectiveRecovery::OnPacketReleased(uint32_t psn, const MrcSendState::TxPkt& p)
{
    if (p.cause == MrcQueuePair::TX_RETX_SACK && !p.spurious)
    {
        // Its late original may still be reported (a duplicate) after it leaves the window.
        if (m_released.size() >= RELEASED_KEPT)
        {
            m_released.pop_front();
        }
        m_released.push_back(psn);
    }
}

void
MrcSelectiveRecovery::OnReleasedDuplicate(uint32_t psn)
{
    // The second copy of a packet acknowledged and released already: if it had been resent on
    // a presumed loss, the retransmission was unnecessary (counted, and the reorder window
    // widens); if it was suspected, it was not lost.
    std::size_t lo = 0; // the first released PSN not below psn (they are in PSN order)
    std::size_t hi = m_released.size();
    while (lo < hi)
    {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (m_released[mid] < psn)
        {
            lo = mid + 1;
        }
        else
        {
            hi = mid;
        }
    }
    const bool resent = lo < m_released.size() && m_released[lo] == psn;
    if (resent)
    {
        CountSpurious();
        m_released.erase_at(lo);
    }
    if (!m_suspicions.empty())
    {
        const bool suspected = std::any_of(m_suspicions.begin(),
                                           m_suspicions.end(),
                                           [psn](const Suspicion& v)
                                           {
                                               return v.psn == psn;
                                           });
        m_spurious += (suspected && !resent) ? 1 : 0;
        DecideSuspicions(psn, false);
    }
}

void
MrcSelectiveRecovery::OnRttSample(Time rtt)
{
    if (m_inIncast && rtt < m_state->m_baseRtt * 3 / 2)
    {
        m_inIncast = false; // the last-hop queues have drained
    }
}

void
MrcSelectiveRecovery::OnAckProcessed(const MrcHeader& h)
{
    DetectLosses(&h);
}

void
MrcSelectiveRecovery::OnNack(const MrcHeader& h)
{
    if (h.GetNackReason() == MrcHeader::NACK_SEQUENCE_ERROR)
    {
        return; // a go-back-N responder's: a selective one never sends it
    }
    const bool lastHop = h.GetNackReason() == MrcHeader::NACK_TRIMMED_LAST_HOP;
    if (lastHop)
    {
        m_inIncast = true;
    }
    DeclareNackedLost(h, lastHop);
    m_qp->TrySend();
}

bool
MrcSelectiveRecovery::OnTimeout(uint32_t psn)
{
    const MrcSendState::TxPkt& p = m_state->Pkt(psn);
    const uint16_t ev = p.ev;
    const uint16_t generation = p.evGen;
    const bool current = EvIsCurrent(p);
    m_state->DeclareLost(psn, MrcQueuePair::TX_RETX_TIMEOUT);
    if (current)
    {
        m_selector->OnLoss(ev, MrcPathSelector::CAUSE_TIMEOUT);
        if (m_selector->GetEv(ev).state == MrcPathSelector::ASSUMED_BAD)
        {
            FlushEv(ev, generation); // the path failed: resend what else was on it
        }
    }
    return false;
}

void
MrcSelectiveRecovery::OnQpError()
{
    m_suspicions.clear();
    m_verdictEvent.Cancel();
}

uint64_t
MrcSelectiveRecovery::GetSackLosses() const
{
    return m_sackLosses;
}

uint64_t
MrcSelectiveRecovery::GetIncastLosses() const
{
    return m_incastLosses;
}

uint64_t
MrcSelectiveRecovery::GetSpuriousRetransmissions() const
{
    return m_spurious;
}

Time
MrcSelectiveRecovery::GetReorderWindow() const
{
    return m_reorderWindow;
}

uint32_t
MrcSelectiveRecovery::GetReorderThreshold() const
{
    return m_reorderPkts;
}

void
MrcSelectiveRecovery::CountSpurious()
{
    ++m_spurious;
    if (m_reorderWindowAttr.IsZero())
    {
        m_reorderWindow = std::min(m_reorderWindow * 2, m_state->m_baseRtt);
        m_reorderPersist = REORDER_PERSIST;
    }
}

void
MrcSelectiveRecovery::OnSpurious(MrcSendState::TxPkt& p)
{
    p.spurious = true;
    CountSpurious();
    const uint64_t acked = m_state->m_ackedTxSeq;
    if (m_reorderThreshold == 0 && p.tries == 2 && acked > p.prevSeq)
    {
        // The count rule adapts as TCP's reordering degree does (Linux's
        // tcp_check_sack_reordering): the threshold grows to the distance the late
        // original was overtaken by, plus an eighth, up to four times its start; beyond
        // that the time rule finds losses sooner than a count could.
        const uint64_t seen = acked - p.prevSeq;
        const uint64_t want = std::min<uint64_t>(seen + seen / 8, 4ULL * m_reorderPktsMin);
        m_reorderPkts = std::max<uint32_t>(m_reorderPkts, static_cast<uint32_t>(want));
    }
}

void
MrcSelectiveRecovery::FlushEv(uint16_t ev, uint16_t generation)
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
    MrcSendState& s = *m_state;
    for (uint32_t psn = s.m_psnBase; psn < s.m_nextPsn; ++psn)
    {
        const MrcSendState::TxPkt& p = s.Pkt(psn);
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
            s.DeclareLost(psn, MrcQueuePair::TX_RETX_SACK);
        }
    }
}

Time
MrcSelectiveRecovery::AckDelaySlack() const
{
    return m_ackDelaySlack ? m_state->m_peerAckDelay : Time(0);
}

Time
MrcSelectiveRecovery::ReorderWindow() const
{
    // The reorder window in effect. Adaptive mode, once a full RTT bucket of history exists:
    // the largest queueing delay the paths recently showed (the recent largest RTT less the
    // smaller of the base RTT and the smallest RTT seen), at least a sixteenth of the base RTT
    // and at most the RACK-style window. A packet is then late only if it took longer than the
    // slowest recent path plus that much queueing again. On a calm fabric a failed path is
    // found about 2 us sooner than with a quarter base RTT; under congestion the window grows
    // with the queues (a wrong guess costs one retransmission: the EV is only held). A
    // spurious retransmission widens both bounds by the same factor (RACK's reo_wnd_mult, RFC
    // 8985 §6.2): the RACK-style window doubles (CountSpurious), and so does the queueing
    // allowance, which would otherwise keep the window where it proved too short.
    const MrcSendState& s = *m_state;
    Time window = m_reorderWindow;
    if (m_reorderWindowAttr.IsZero() && s.m_rttMax[1].IsStrictlyPositive())
    {
        const Time floor = std::min(s.m_rttMin, s.m_baseRtt);
        const int64_t quarter = std::max<int64_t>(1, (s.m_baseRtt / 4).GetTimeStep());
        const int64_t mult = std::max<int64_t>(1, m_reorderWindow.GetTimeStep() / quarter);
        window = std::min(window, std::max(s.m_rttMax[0] - floor, s.m_baseRtt / 16) * mult);
    }
    return window;
}

void
MrcSelectiveRecovery::DetectLosses(const MrcHeader* ack)
{
    MrcSendState& s = *m_state;
    const Time now = MrcNow();
    const Time window = ReorderWindow();
    while (!s.m_sentOrder.empty())
    {
        const MrcSendState::Sent sent = s.m_sentOrder.front();
        if (!s.InWindow(sent.psn))
        {
            s.m_sentOrder.pop_front();
            continue;
        }
        const MrcSendState::TxPkt& p = s.Pkt(sent.psn);
        if (p.acked || p.lost || p.txSeq != sent.txSeq)
        {
            s.m_sentOrder.pop_front(); // answered, or superseded by a retransmission
            continue;
        }
        if (sent.txSeq >= s.m_ackedTxSeq)
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
        //
        // An acknowledgement that arrives after the deadline with the packet's PSN inside its
        // SACK bitmap, and its bit clear, was sent by the responder after the packet would
        // have arrived on any recent path: the packet is lost. Anything else is weaker
        // evidence: the responder may hold the report of a packet that fills a gap for up to
        // its AckDelay, so without such an acknowledgement the packet is presumed lost only
        // once that has passed too (AckDelaySlack).
        const Time deadline = sent.at + s.GetRecentMaxRtt() + window;
        const Time silence = deadline + AckDelaySlack();
        const bool seenMissing
            = ack != nullptr && sent.psn - ack->GetSackBase() < MrcHeader::SACK_BITS;
        if (sent.txSeq + m_reorderPkts >= s.m_ackedTxSeq
            && now < (seenMissing ? deadline : silence))
        {
            m_reorderEvent.Cancel();
            m_reorderEvent
                = MrcScheduleMember<MrcSelectiveRecovery, &MrcSelectiveRecovery::OnReorderTimer>(
                    silence - now, this);
            return;
        }
        s.m_sentOrder.pop_front();
        ++m_sackLosses;
        if (m_reorderWindowAttr.IsZero() && --m_reorderPersist == 0)
        {
            // RACK: a widened window returns to its start after 16 losses none of which
            // proved spurious (the window was not too short for them).
            m_reorderWindow = m_state->m_baseRtt / 4;
            m_reorderPersist = REORDER_PERSIST;
        }
        const uint16_t ev = p.ev;
        const uint16_t generation = p.evGen;
        // During an incast (from a last-hop trim until the queues drain) the loss may be
        // queueing skew between planes: retransmit, but do not retire the EV on this alone.
        const bool incast = m_incastGuard && m_inIncast;
        const bool current = EvIsCurrent(p) && !incast;
        m_incastLosses += incast ? 1 : 0;
        s.DeclareLost(sent.psn, MrcQueuePair::TX_RETX_SACK);
        if (!current)
        {
            continue;
        }
        if (sent.txSeq + m_reorderPkts < s.m_ackedTxSeq)
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
                m_suspicions.push_back({sent.psn, ev, generation, Time(0)});
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
MrcSelectiveRecovery::DecideSuspicions(uint32_t psn, bool lost)
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
MrcSelectiveRecovery::StartVerdict(uint32_t psn)
{
    // A duplicate is answered at once (MrcQpReceiver), so no delayed-ACK allowance here.
    const Time at = MrcNow() + m_state->GetRecentMaxRtt() + ReorderWindow();
    for (auto& v : m_suspicions)
    {
        if (v.psn == psn && v.decideAt.IsZero())
        {
            v.decideAt = at;
        }
    }
    if (m_verdictEvent.IsExpired())
    {
        m_verdictEvent
            = MrcScheduleMember<MrcSelectiveRecovery, &MrcSelectiveRecovery::OnVerdictTimer>(
                at - MrcNow(), this);
    }
}

void
MrcSelectiveRecovery::OnVerdictTimer()
{
    if (m_qp->IsInError())
    {
        return;
    }
    const Time now = MrcNow();
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
            = MrcScheduleMember<MrcSelectiveRecovery, &MrcSelectiveRecovery::OnVerdictTimer>(
                next - now, this);
    }
    if (!due.empty())
    {
        m_qp->TrySend();
    }
}

void
MrcSelectiveRecovery::OnReorderTimer()
{
    if (m_qp->IsInError())
    {
        return;
    }
    DetectLosses(nullptr);
    m_qp->TrySend();
}

Ptr<MrcRecoveryOps>
MrcSelectiveRecovery::Fork() const
{
    return MrcForkAs<MrcRecoveryOps>(this);
}

} // namespace ns3
