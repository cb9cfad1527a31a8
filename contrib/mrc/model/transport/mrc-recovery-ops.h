/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECOVERY_OPS_H
#define MRC_RECOVERY_OPS_H

#include "ns3/mrc-header.h"

#include "ns3/object.h"

#include <string>

namespace ns3
{

class MrcQueuePair;

/**
 * @ingroup mrc
 * @brief Loss recovery of a queue pair, pluggable the way ns-3's TcpRecoveryOps is: the queue
 * pair keeps the send window and the timers (the state every algorithm shares) and asks its
 * recovery what a loss signal means.
 *
 * A recovery also fixes what the responder does (the two ends of a connection use the same
 * one): whether it accepts packets out of order and whether it understands trimming.
 * ``MrcSelectiveRecovery`` is MRC's, ``MrcGoBackNRecovery`` RoCE's; the queue pair's
 * ``LossRecovery`` attribute names one.
 */
class MrcRecoveryOps : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcRecoveryOps();
    ~MrcRecoveryOps() override;

    /** @return a short name ("selective", "go-back-n") */
    virtual std::string GetName() const = 0;
    /** @return true if the responder accepts only the expected PSN and NAKs every gap */
    virtual bool IsInOrder() const = 0;
    /** @return true if the responder answers a trimmed header with a NACK */
    virtual bool UnderstandsTrim() const = 0;

    /**
     * An ACK was processed (its PSNs acknowledged, the RTT sampled).
     * @param qp the queue pair
     */
    virtual void OnAckProcessed(MrcQueuePair& qp) = 0;
    /**
     * A sequence-error NACK arrived: the responder expects this PSN.
     * @param qp the queue pair
     * @param h the NACK
     */
    virtual void OnSequenceNack(MrcQueuePair& qp, const MrcHeader& h) = 0;
    /**
     * The oldest transmission in flight timed out (its retry budget is not spent yet).
     * @param qp the queue pair
     * @param psn its PSN
     * @return true if the timer scan stops here (nothing older is left to examine)
     */
    virtual bool OnTimeout(MrcQueuePair& qp, uint32_t psn) = 0;
};

} // namespace ns3

#endif /* MRC_RECOVERY_OPS_H */
