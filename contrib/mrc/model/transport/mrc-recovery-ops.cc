/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-recovery-ops.h"

#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-queue-pair.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcRecoveryOps);

TypeId
MrcRecoveryOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRecoveryOps").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcRecoveryOps::MrcRecoveryOps() = default;
MrcRecoveryOps::~MrcRecoveryOps() = default;

void
MrcRecoveryOps::Init(MrcQueuePair* qp, Ptr<MrcSendState> state, uint32_t bdp, uint32_t payloadSize)
{
    m_qp = qp;
    m_state = state;
    m_selector = qp->GetPathSelector();
    m_cc = qp->GetCongestionOps();
    DoInit(bdp, payloadSize);
}

void
MrcRecoveryOps::DoInit(uint32_t /* bdp */, uint32_t /* payloadSize */)
{
}

void
MrcRecoveryOps::DoDispose()
{
    m_qp = nullptr;
    m_state = nullptr;
    m_selector = nullptr;
    m_cc = nullptr;
    Object::DoDispose();
}

bool
MrcRecoveryOps::EvIsCurrent(const MrcSendState::TxPkt& p) const
{
    return m_selector->IsCurrent(p.ev, p.evGen);
}

void
MrcRecoveryOps::DeclareNackedLost(const MrcHeader& h, bool lastHop)
{
    if (!m_state->InWindow(h.GetPsn()))
    {
        return;
    }
    const MrcSendState::TxPkt& p = m_state->Pkt(h.GetPsn());
    // Only the transmission the NACK is about: a later retransmission is still in flight.
    if (p.acked || p.lost || p.ev != h.GetEv())
    {
        return;
    }
    if ((h.GetNackReason() == MrcHeader::NACK_TRIMMED || lastHop) && EvIsCurrent(p))
    {
        m_selector->OnNack(h.GetEv(), lastHop);
    }
    if (h.GetNackReason() != MrcHeader::NACK_OUT_OF_WINDOW)
    {
        m_cc->OnNack(p.len, lastHop);
    }
    m_state->DeclareLost(h.GetPsn(), MrcQueuePair::TX_RETX_NACK);
}

void
MrcRecoveryOps::OnPacketAcked(uint32_t /* psn */,
                              MrcSendState::TxPkt& /* p */,
                              bool /* latest */,
                              uint64_t /* echoedTimestamp */,
                              bool /* duplicate */)
{
}

void
MrcRecoveryOps::OnPacketAckedAgain(uint32_t /* psn */, MrcSendState::TxPkt& /* p */)
{
}

void
MrcRecoveryOps::OnPacketReleased(uint32_t /* psn */, const MrcSendState::TxPkt& /* p */)
{
}

void
MrcRecoveryOps::OnReleasedDuplicate(uint32_t /* psn */)
{
}

void
MrcRecoveryOps::OnRttSample(Time /* rtt */)
{
}

void
MrcRecoveryOps::OnQpError()
{
}

uint64_t
MrcRecoveryOps::GetSackLosses() const
{
    return 0;
}

uint64_t
MrcRecoveryOps::GetIncastLosses() const
{
    return 0;
}

uint64_t
MrcRecoveryOps::GetSpuriousRetransmissions() const
{
    return 0;
}

Ptr<MrcRecoveryOps>
MrcRecoveryOps::Fork() const
{
    return nullptr;
}

} // namespace ns3
