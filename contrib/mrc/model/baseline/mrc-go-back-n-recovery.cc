/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-go-back-n-recovery.h"

#include "ns3/mrc-queue-pair.h"

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
MrcGoBackNRecovery::OnAckProcessed(MrcQueuePair& /* qp */)
{
    // No out-of-order detection: the responder takes only in-order packets and NAKs gaps.
}

void
MrcGoBackNRecovery::OnSequenceNack(MrcQueuePair& qp, const MrcHeader& h)
{
    const uint32_t expected = h.GetPsn();
    if (qp.m_txMsgs.empty() || expected < qp.m_psnBase || expected >= qp.m_nextPsn)
    {
        return;
    }
    // Cumulative: everything below the expected PSN arrived.
    for (uint32_t q = qp.m_psnBase; q < expected; ++q)
    {
        qp.AckPsn(q, 0, false);
    }
    const MrcQueuePair::TxPkt& p = qp.m_txPkts[expected - qp.m_psnBase];
    // Ignore a NAK for a gap already being repaired (its resend is recent and in flight).
    if (!p.lost && p.tries > 1 && Simulator::Now() - p.sentAt < 2 * qp.m_baseRtt)
    {
        qp.CompleteSends();
        return;
    }
    qp.m_cc->OnNack(p.len, false);
    qp.Rewind(expected, MrcQueuePair::TX_RETX_NACK);
    qp.CompleteSends();
    qp.m_cwnd = qp.m_cc->GetCwnd();
    qp.TrySend();
}

bool
MrcGoBackNRecovery::OnTimeout(MrcQueuePair& qp, uint32_t psn)
{
    const MrcQueuePair::TxPkt& p = qp.m_txPkts[psn - qp.m_psnBase];
    if (qp.EvIsCurrent(p))
    {
        qp.m_selector->OnLoss(p.ev, MrcPathSelector::CAUSE_TIMEOUT);
    }
    qp.Rewind(psn, MrcQueuePair::TX_RETX_TIMEOUT);
    qp.m_sentOrder.clear(); // everything is being resent: nothing older to time out
    return true;
}

} // namespace ns3
