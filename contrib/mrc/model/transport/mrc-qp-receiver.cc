/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-qp-receiver.h"

#include "ns3/mrc-dscp.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

MrcQpReceiver::MrcQpReceiver()
    : m_qp(nullptr)
    , m_payloadSize(4096)
    , m_ackEveryBytes(16384)
    , m_recvWindow(65536)
    , m_inOrderOnly(false)
    , m_understandsTrim(true)
    , m_rxCum(0)
    , m_rxHighest(0)
    , m_rxHighestLast(false)
    , m_rxMsnBase(0)
    , m_rxBytes(0)
    , m_unackedBytes(0)
    , m_lastRxCe(false)
    , m_nakSent(false)
    , m_lastCnp(0)
    , m_cnpsSent(0)
    , m_bytesPlaced(0)
    , m_malformed(0)
    , m_dups(0)
    , m_acksSent(0)
{
}

void
MrcQpReceiver::Setup(MrcQueuePair* qp, const Config& config, uint32_t planes)
{
    m_qp = qp;
    m_payloadSize = config.payloadSize;
    m_ackEveryBytes = config.ackEveryBytes;
    m_ackDelay = config.ackDelay;
    m_recvWindow = config.recvWindow;
    m_cnpInterval = config.cnpInterval;
    m_inOrderOnly = config.inOrderOnly;
    m_understandsTrim = config.understandsTrim;
    m_planeRx.Reset(planes);
}

void
MrcQpReceiver::Stop()
{
    m_ackTimer.Cancel();
}

void
MrcQpReceiver::Receive(const MrcHeader& h, uint8_t tc, uint32_t plane)
{
    const uint8_t dscp = MrcDscp::Dscp(tc);
    if (dscp == MrcDscp::TRIMMED || dscp == MrcDscp::TRIMMED_LAST_HOP)
    {
        if (m_understandsTrim)
        {
            SendNack(h,
                     h.GetPsn(),
                     dscp == MrcDscp::TRIMMED ? MrcHeader::NACK_TRIMMED
                                              : MrcHeader::NACK_TRIMMED_LAST_HOP);
        }
        // else: a RoCE NIC does not understand trimming: the packet is simply lost
        return;
    }
    m_planeRx.Increment(plane);
    HandleData(h, tc);
}

void
MrcQpReceiver::SendNack(const MrcHeader& data, uint32_t psn, uint8_t reason)
{
    MrcHeader n;
    n.SetOpcode(MrcHeader::NACK);
    n.SetEv(data.GetEv());
    n.SetPsn(psn);
    n.SetTimestamp(data.GetTimestamp());
    n.SetNackReason(reason);
    m_qp->SendControl(n, data.GetPlane(), data.GetPath());
}

void
MrcQpReceiver::HandleData(const MrcHeader& h, uint8_t tc)
{
    bool ce = MrcDscp::Ecn(tc) == MrcDscp::ECN_CE;
    if (ce && !m_cnpInterval.IsZero())
    {
        // RoCEv2 notification point: a CNP instead of an ECN echo, at most one per interval.
        ce = false;
        const Time now = MrcNow();
        if (m_cnpsSent == 0 || now - m_lastCnp >= m_cnpInterval)
        {
            m_lastCnp = now;
            ++m_cnpsSent;
            MrcHeader c;
            c.SetOpcode(MrcHeader::CNP);
            c.SetEv(h.GetEv());
            c.SetPsn(h.GetPsn());
            c.SetTimestamp(h.GetTimestamp());
            m_qp->SendControl(c, h.GetPlane(), h.GetPath());
        }
    }
    const uint32_t psn = h.GetPsn();
    const bool duplicate
        = psn < m_rxCum || (psn - m_rxCum < m_rxWin.size() && m_rxWin[psn - m_rxCum] != 0);
    m_lastRx = h;
    m_lastRxCe = ce;
    if (duplicate)
    {
        // Answered at once, and reported as a duplicate (D-SACK, RFC 2883): the sender learns
        // that an earlier transmission arrived, so its retransmission was not needed, even when
        // that transmission's own acknowledgement did not say which copy it was.
        ++m_dups;
        m_lastRxDuplicate = true;
        SendAck();
        m_lastRxDuplicate = false;
        return;
    }
    if (m_inOrderOnly && psn != m_rxCum)
    {
        // Go-back-N: only the expected PSN is accepted; one NAK per gap.
        if (!m_nakSent)
        {
            m_nakSent = true;
            SendNack(h, m_rxCum, MrcHeader::NACK_SEQUENCE_ERROR);
        }
        return;
    }
    m_nakSent = false;
    if (psn - m_rxCum >= m_recvWindow)
    {
        SendNack(h, psn, MrcHeader::NACK_OUT_OF_WINDOW);
        return;
    }
    if (!IsPlausible(h))
    {
        // Fields no sender could have written (a NIC would fail the packet's ICRC): drop it
        // before it touches any state, and answer nothing.
        ++m_malformed;
        return;
    }
    // A new gap opens when a packet lands beyond the highest PSN seen so far + 1: answer at
    // once so the sender learns of the hole. Packets filling gaps wait for the coalescing rule,
    // which more packets soon satisfy, except behind the end of what was sent: once the highest
    // PSN received is a message's last packet, nothing may follow for a while, so each straggler
    // is answered at once (RFC 5681 §4.2's "fills in a gap" rule, kept to the tail). Otherwise
    // the sender would see them late by the delayed-ACK timer and take them for lost.
    const bool newGap = psn > m_rxHighest;
    const bool tailStraggler = psn + 1 < m_rxHighest && m_rxHighestLast;
    if (psn + 1 > m_rxHighest)
    {
        m_rxHighest = psn + 1;
        m_rxHighestLast = (h.GetFlags() & MrcHeader::FLAG_LAST) != 0;
    }
    if (m_rxWin.size() <= psn - m_rxCum)
    {
        m_rxWin.resize(psn - m_rxCum + 1, 0);
    }
    m_rxWin[psn - m_rxCum] = 1;
    while (!m_rxWin.empty() && m_rxWin.front() != 0)
    {
        m_rxWin.pop_front();
        ++m_rxCum;
    }

    // Direct placement.
    if (h.GetMsn() >= m_rxMsnBase)
    {
        const uint32_t idx = h.GetMsn() - m_rxMsnBase;
        if (m_rxMsgs.size() <= idx)
        {
            m_rxMsgs.resize(idx + 1, RxMsg{0, 0, 0, {}, false, 0, false, Time(0)});
        }
        RxMsg& m = m_rxMsgs[idx];
        if (m.pkts == 0)
        {
            m.length = h.GetMsgLen();
            m.pkts = static_cast<uint32_t>((h.GetMsgLen() + m_payloadSize - 1) / m_payloadSize);
            m.bits.assign(m.pkts, false);
            m.imm = h.GetOpcode() == MrcHeader::WRITE_IMM;
            m.immData = h.GetImmediate();
            m.first = MrcNow();
        }
        const uint32_t index = h.GetPacketIndex();
        if (index < m.pkts && !m.bits[index])
        {
            m.bits[index] = true;
            ++m.got;
            m_bytesPlaced += h.GetPayloadLen();
            m_qp->NotifyPlaced(h.GetMsn(), h.GetOffset(), h.GetPayloadLen());
            if (m.got == m.pkts)
            {
                m.complete = true;
                // Receive completions in posting order.
                while (!m_rxMsgs.empty() && m_rxMsgs.front().complete)
                {
                    const RxMsg& done = m_rxMsgs.front();
                    MrcCompletion c{m_qp->GetQpn(),
                                    m_rxMsnBase,
                                    done.length,
                                    MrcQueuePair::SUCCESS,
                                    done.imm,
                                    done.immData,
                                    done.first,
                                    MrcNow()};
                    m_rxMsgs.pop_front();
                    ++m_rxMsnBase;
                    m_qp->DeliverRecvCompletion(c);
                }
            }
        }
    }
    m_rxBytes += h.GetPayloadLen();
    m_unackedBytes += h.GetPayloadLen();
    const bool last = (h.GetFlags() & MrcHeader::FLAG_LAST) != 0;
    // A retransmission (selective repeat) is answered at once, echoing its own timestamp: the
    // sender learns which transmission arrived, and so whether the one before it was lost or only
    // late.
    const bool retx = !m_inOrderOnly && (h.GetFlags() & MrcHeader::FLAG_RETX) != 0;
    if (ce || newGap || last || retx || tailStraggler || m_unackedBytes >= m_ackEveryBytes)
    {
        SendAck();
    }
    else if (!m_ackTimer.IsPending())
    {
        m_ackTimer.Set(
            MrcScheduleMember<MrcQpReceiver, &MrcQpReceiver::OnAckTimer>(m_ackDelay, this));
    }
}

bool
MrcQpReceiver::IsPlausible(const MrcHeader& h) const
{
    const uint64_t length = h.GetMsgLen();
    const uint64_t index = h.GetPacketIndex();
    if (length == 0 || index * m_payloadSize >= length)
    {
        return false;
    }
    if (h.GetPayloadLen() != std::min<uint64_t>(m_payloadSize, length - index * m_payloadSize))
    {
        return false;
    }
    if (h.GetMsn() < m_rxMsnBase)
    {
        return true; // a message already complete: nothing will be placed
    }
    // Every message between the first incomplete one and this one holds at least one PSN between
    // the cumulative PSN and this packet's, so a genuine MSN is never further ahead than that.
    const uint64_t idx = h.GetMsn() - m_rxMsnBase;
    if (idx > h.GetPsn() - m_rxCum)
    {
        return false;
    }
    return idx >= m_rxMsgs.size() || m_rxMsgs[idx].pkts == 0 || m_rxMsgs[idx].length == length;
}

void
MrcQpReceiver::OnAckTimer()
{
    m_ackTimer.Expire();
    SendAck();
}

void
MrcQpReceiver::SendAck()
{
    m_ackTimer.Cancel();
    m_unackedBytes = 0;
    // The bitmap starts at the cumulative PSN. When the triggering PSN lies beyond its reach, a
    // second SACK centred on the trigger follows, so that both the oldest holes and the newest
    // arrivals are reported by the same (possibly last) acknowledgement.
    if (m_lastRx.GetPsn() >= m_rxCum + MrcHeader::SACK_BITS)
    {
        SendSack(m_lastRx.GetPsn() - MrcHeader::SACK_BITS / 2);
    }
    SendSack(m_rxCum);
    m_lastRxCe = false;
}

void
MrcQpReceiver::SendSack(uint32_t base)
{
    ++m_acksSent;
    MrcHeader a;
    a.SetOpcode(MrcHeader::ACK);
    a.SetFlags((m_lastRxCe ? MrcHeader::FLAG_ECN_ECHO : 0)
               | (m_lastRxDuplicate ? MrcHeader::FLAG_DUPLICATE : 0));
    a.SetEv(m_lastRx.GetEv());
    a.SetPsn(m_lastRx.GetPsn());
    a.SetCumAck(m_rxCum);
    // Bit i: PSN base + i has arrived. Everything below the cumulative point has; from it on,
    // the window's flags (nothing beyond the window has).
    uint64_t bits = 0;
    uint32_t i = 0;
    if (base < m_rxCum)
    {
        i = std::min<uint32_t>(m_rxCum - base, MrcHeader::SACK_BITS);
        bits = i == MrcHeader::SACK_BITS ? ~uint64_t(0) : (uint64_t(1) << i) - 1;
    }
    for (; i < MrcHeader::SACK_BITS; ++i)
    {
        const uint32_t offset = base + i - m_rxCum;
        if (offset >= m_rxWin.size())
        {
            break;
        }
        if (m_rxWin[offset] != 0)
        {
            bits |= uint64_t(1) << i;
        }
    }
    a.SetSackBase(base);
    a.SetSackBitmap(bits);
    a.SetTimestamp(m_lastRx.GetTimestamp());
    a.SetRecvBytes(static_cast<uint32_t>(m_rxBytes));
    m_qp->SendControl(a, m_lastRx.GetPlane(), m_lastRx.GetPath());
}

uint64_t
MrcQpReceiver::GetPlaneRxPackets(uint32_t plane) const
{
    return m_planeRx.Get(plane);
}

} // namespace ns3
