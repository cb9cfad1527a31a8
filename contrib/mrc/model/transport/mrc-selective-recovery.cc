/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-selective-recovery.h"

#include "ns3/mrc-queue-pair.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcSelectiveRecovery);

TypeId
MrcSelectiveRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSelectiveRecovery")
                            .SetParent<MrcRecoveryOps>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSelectiveRecovery>();
    return tid;
}

MrcSelectiveRecovery::MrcSelectiveRecovery() = default;
MrcSelectiveRecovery::~MrcSelectiveRecovery() = default;

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
MrcSelectiveRecovery::OnAckProcessed(MrcQueuePair& qp)
{
    qp.DetectLosses();
}

void
MrcSelectiveRecovery::OnSequenceNack(MrcQueuePair& /* qp */, const MrcHeader& /* h */)
{
    // A selective responder never sends one.
}

bool
MrcSelectiveRecovery::OnTimeout(MrcQueuePair& qp, uint32_t psn)
{
    const MrcQueuePair::TxPkt& p = qp.m_txPkts[psn - qp.m_psnBase];
    const uint16_t ev = p.ev;
    const uint16_t generation = p.evGen;
    const bool current = qp.EvIsCurrent(p);
    qp.DeclareLost(psn, MrcQueuePair::TX_RETX_TIMEOUT);
    if (current)
    {
        qp.m_selector->OnLoss(ev, MrcPathSelector::CAUSE_TIMEOUT);
        if (qp.m_selector->GetEv(ev).state == MrcPathSelector::ASSUMED_BAD)
        {
            qp.FlushEv(ev, generation); // the path failed: resend what else was on it
        }
    }
    return false;
}

} // namespace ns3
