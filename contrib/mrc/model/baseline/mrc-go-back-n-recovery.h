/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_GO_BACK_N_RECOVERY_H
#define MRC_GO_BACK_N_RECOVERY_H

#include "ns3/mrc-recovery-ops.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief RoCE's go-back-N loss recovery.
 *
 * The responder accepts only the PSN it expects and answers the first packet of each gap with
 * a sequence-error NACK naming it; the sender then acknowledges everything below and rewinds:
 * every unacknowledged packet from that PSN on is resent (a NACK for a gap whose resend is
 * recent and still in flight is ignored). A timeout rewinds from the timed-out packet. Trimmed
 * headers are dropped by the responder (a RoCE NIC does not understand trimming), so other
 * NACKs do not occur; one would resend exactly the packet it names.
 */
class MrcGoBackNRecovery : public MrcRecoveryOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcGoBackNRecovery();
    ~MrcGoBackNRecovery() override;

    /**
     * @copydoc MrcRecoveryOps::Fork
     */
    Ptr<MrcRecoveryOps> Fork() const override;

    std::string GetName() const override;
    bool IsInOrder() const override;
    bool UnderstandsTrim() const override;
    void OnAckProcessed(const MrcHeader& h) override;
    void OnNack(const MrcHeader& h) override;
    bool OnTimeout(uint32_t psn) override;
};

} // namespace ns3

#endif /* MRC_GO_BACK_N_RECOVERY_H */
