/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ADAPTIVE_SPRAY_H
#define MRC_ADAPTIVE_SPRAY_H

#include "ns3/mrc-path-selector.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief MRC's adaptive packet spray.
 *
 * - ACK echoing ECN on an EV: GOOD -> SKIP (mid-fabric congestion; back after a rotation).
 * - NACK for a packet trimmed mid-fabric: GOOD -> SKIP. Trimmed on the last hop: no penalty.
 * - Unexplained loss (timeout or SACK hole): -> ASSUMED_BAD at once, replaced by a new EV on
 *   another path of the same plane; probes in the background; ProbeSuccesses answered probes
 *   in a row -> GOOD, and the replacement is released.
 * - Nothing is skipped, nor retired without a replacement, if that would leave fewer
 *   than EvMinActive GOOD EVs.
 */
class MrcAdaptiveSpray : public MrcPathSelector
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcAdaptiveSpray();
    ~MrcAdaptiveSpray() override;

    /**
     * @copydoc MrcPathSelector::Fork
     */
    Ptr<MrcPathSelector> Fork() const override;

    void OnAck(uint16_t ev, bool ecn) override;
    void OnNack(uint16_t ev, bool lastHop) override;
    void OnLoss(uint16_t ev, Cause cause) override;
    void OnSuspectedLoss(uint16_t ev) override;
    void OnLossVerdict(uint16_t ev, bool lost) override;
    void OnProbeResult(uint16_t ev, bool success) override;

private:
    /**
     * Skip an EV unless that breaks the floor.
     * @param ev the EV
     * @param cause why
     */
    void Skip(uint16_t ev, Cause cause);

    bool m_ecnSkip; //!< EcnSkip attribute
};

} // namespace ns3

#endif /* MRC_ADAPTIVE_SPRAY_H */
