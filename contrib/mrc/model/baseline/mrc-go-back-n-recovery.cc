/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-go-back-n-recovery.h"

#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-fork.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcGoBackNRecovery);

TypeId
MrcGoBackNRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcGoBackNRecovery")
                            .SetParent<MrcRecoveryOps>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcGoBackNRecovery>();
    return tid;
}

MrcGoBackNRecovery::MrcGoBackNRecovery() = default;
MrcGoBackNRecovery::~MrcGoBackNRecovery() = default;

std::string
MrcGoBackNRecovery::GetName() const
{
    return "go-back-n";
}

bool
MrcGoBackNRecovery::IsInOrder() const
{
    return true;
}

bool
MrcGoBackNRecovery::UnderstandsTrim() const
{
    return false;
}

void
MrcGoBackNRecovery::OnAckProcessed(const MrcHeader& /* h */)
{
    // No out-of-order detection: the responder takes only in-order packets and NAKs gaps.
}

void
MrcGoBackNRecovery::OnNack(const MrcHeader& h)
{
    if (h.GetNackReason() != MrcHeader::NACK_SEQUENCE_ERROR)
    {
        DeclareNackedLost(h, h.GetNackReason() == MrcHeader::NACK_TRIMMED_LAST_HOP);
        m_qp->TrySend();
        return;
    }
    MrcSendState& s = *m_state;
    const uint32_t expected = h.GetPsn();
    if (s.m_txMsgs.empty() || !s.InWindow(expected))
    {
        return;
    }
    // Cumulative: everything below the expected PSN arrived.
    for (uint32_t q = s.m_psnBase; q < expected; ++q)
    {
        m_qp->AckPsn(q, 0, false);
    }
    const MrcSendState::TxPkt& p = s.Pkt(expected);
    // Ignore a NAK for a gap already being repaired (its resend is recent and in flight).
    if (!p.lost && p.tries > 1 && MrcNow() - p.sentAt < 2 * s.m_baseRtt)
    {
        m_qp->CompleteSends();
        return;
    }
    m_cc->OnNack(p.len, false);
    s.Rewind(expected, MrcQueuePair::TX_RETX_NACK);
    m_qp->CompleteSends();
    m_qp->TrySend();
}

bool
MrcGoBackNRecovery::OnTimeout(uint32_t psn)
{
    const MrcSendState::TxPkt& p = m_state->Pkt(psn);
    if (EvIsCurrent(p))
    {
        m_selector->OnLoss(p.ev, MrcPathSelector::CAUSE_TIMEOUT);
    }
    m_state->Rewind(psn, MrcQueuePair::TX_RETX_TIMEOUT);
    m_state->m_sentOrder.clear(); // everything is being resent: nothing older to time out
    return true;
}

Ptr<MrcRecoveryOps>
MrcGoBackNRecovery::Fork() const
{
    return MrcForkAs<MrcRecoveryOps>(this);
}

} // namespace ns3
