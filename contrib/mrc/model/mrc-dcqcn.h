/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_H
#define MRC_DCQCN_H

#include "mrc-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015), the rate control of the RoCE baseline.
 *
 * The sender is paced at the current rate Rc (the line rate at start; alpha starts at 1).
 * - **CNP** (OnCnp; the receiver's notification point sends at most one per QP per 50 us):
 *   Rt = Rc; Rc = max(Rc (1 - alpha / 2), MinRate); alpha = (1 - g) alpha + g; the rate timer
 *   restarts and both increase counters (T, BC) and the byte count return to 0.
 * - **Alpha timer** (every AlphaTimer, K): if no CNP came during the period,
 *   alpha = (1 - g) alpha.
 * - **Rate increase events**: the rate timer (every RateTimer) increments T, every ByteCounter
 *   bytes sent increments BC; after either:
 *   - fast recovery while max(T, BC) <= F (FastRecoverySteps; F events): Rc = (Rt + Rc) / 2;
 *   - hyper increase once min(T, BC) > F: Rt += (min(T, BC) - F) HaiRate, Rc = (Rt + Rc) / 2;
 *   - additive increase otherwise: Rt += AiRate, Rc = (Rt + Rc) / 2;
 *   Rt and Rc never exceed the line rate.
 * Timers run only while the rate is below the line rate or alpha is above 0.001, so an
 * uncongested sender costs no events. Without a notification point (an ACK echoing ECN instead
 * of a CNP), an echo counts as a CNP at most once per CnpInterval. There is no congestion
 * window by default (a RoCE NIC keeps sending at its rate whatever is unacknowledged; the queue
 * pair's PSN window bounds it); WindowBdps > 0 caps the bytes in flight.
 */
class MrcDcqcn : public MrcCongestionOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcDcqcn();
    ~MrcDcqcn() override;

    void Init(uint32_t bdp, Time baseRtt, uint32_t mss) override;
    uint32_t GetCwnd() const override;
    void OnAck(uint32_t bytes, Time rtt, bool ecn) override;
    void OnNack(uint32_t bytes, bool lastHop) override;
    void OnTimeout() override;
    void OnCnp() override;
    void OnSent(uint32_t bytes) override;
    std::string GetName() const override;
    uint64_t GetPacingRate() const override;

    /** @return the current rate Rc in bit/s */
    uint64_t GetRate() const;
    /** @return the target rate Rt in bit/s */
    uint64_t GetTargetRate() const;
    /** @return alpha */
    double GetAlpha() const;
    /** @return rate increase events from the timer since the last cut (T) */
    uint32_t GetTimerCount() const;
    /** @return rate increase events from the byte counter since the last cut (BC) */
    uint32_t GetByteCount() const;
    /** @return rate cuts so far */
    uint64_t GetCuts() const;

private:
    void DoDispose() override;
    /** Cut the rate for a CNP. */
    void Cut();
    /** Alpha timer: decay alpha if no CNP came during the period. */
    void OnAlphaTimer();
    /** Rate timer: one increase event. */
    void OnRateTimer();
    /** One rate increase event (fast recovery, additive or hyper increase). */
    void Increase();
    /** Start the timers that are needed and not running. */
    void ArmTimers();

    double m_g;                        //!< AlphaG attribute
    Time m_alphaPeriod;                //!< AlphaTimer attribute (K)
    Time m_ratePeriod;                 //!< RateTimer attribute (T)
    uint64_t m_byteCounter;            //!< ByteCounter attribute (B)
    Time m_cnpInterval;                //!< CnpInterval attribute (ECN echoes only)
    DataRate m_ai;                     //!< AiRate attribute
    DataRate m_hai;                    //!< HaiRate attribute
    DataRate m_min;                    //!< MinRate attribute
    uint32_t m_f;                      //!< FastRecoverySteps attribute (F)
    double m_windowBdps;               //!< WindowBdps attribute
    double m_lineRate;                 //!< the port rate, bit/s
    double m_rc;                       //!< current rate
    double m_rt;                       //!< target rate
    double m_alpha;                    //!< congestion estimate
    uint32_t m_t;                      //!< timer increase events since the last cut
    uint32_t m_bc;                     //!< byte-counter increase events since the last cut
    uint64_t m_bytes;                  //!< bytes sent toward the next byte-counter event
    bool m_cnpThisPeriod;              //!< a CNP came during this alpha period
    Time m_lastCut;                    //!< last reaction to a CNP
    uint64_t m_cuts;                   //!< reactions to CNPs
    uint32_t m_window;                 //!< in-flight cap
    EventId m_alphaTimer;              //!< the alpha timer
    EventId m_rateTimer;               //!< the rate increase timer
    TracedValue<uint64_t> m_rateTrace; //!< Rc in bit/s, traced on every change
};

} // namespace ns3

#endif /* MRC_DCQCN_H */
