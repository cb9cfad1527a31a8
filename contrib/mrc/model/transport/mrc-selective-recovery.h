/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SELECTIVE_RECOVERY_H
#define MRC_SELECTIVE_RECOVERY_H

#include "ns3/mrc-recovery-ops.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief MRC's selective loss recovery: only lost packets are resent.
 *
 * Every ACK runs the out-of-order loss detector (the count and time rules, see
 * MrcQueuePair); a timeout declares exactly the timed-out transmission lost and retires its EV
 * (resending what else was in flight on it). The responder places packets out of order and
 * NACKs trimmed headers. Sequence-error NACKs (a go-back-N responder's) are ignored.
 */
class MrcSelectiveRecovery : public MrcRecoveryOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSelectiveRecovery();
    ~MrcSelectiveRecovery() override;

    std::string GetName() const override;
    bool IsInOrder() const override;
    bool UnderstandsTrim() const override;
    void OnAckProcessed(MrcQueuePair& qp) override;
    void OnSequenceNack(MrcQueuePair& qp, const MrcHeader& h) override;
    bool OnTimeout(MrcQueuePair& qp, uint32_t psn) override;
};

} // namespace ns3

#endif /* MRC_SELECTIVE_RECOVERY_H */
