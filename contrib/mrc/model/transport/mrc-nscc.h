/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include "ns3/mrc-congestion-ops.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief UEC's Network Signal-based Congestion Control (NSCC): a window driven by ECN marks
 * (mid-fabric congestion) and queuing delay, following the UEC 1.0 specification's sender-based
 * congestion control and its reference implementation in uet-htsim.
 *
 * Scaling (computed at Init from the connection's BDP and base RTT): a = BDP / (100 Gb/s x
 * 12 us), T = TargetQdelay (0: 0.75 x base RTT, the specification's choice with trimming),
 * b = T / 12 us. Then alpha = PropIncrease x mss x a x b / T, fi = FairIncrease x mss x a,
 * eta = Eta x mss x a, fast-increase scale = FastIncrease x a.
 *
 * On each ACK acknowledging `bytes`, with d = RTT - base RTT and avgDelay an EWMA of d (gain
 * DelayEwma), after quick adapt (below) has had its say, one of four quadrants applies:
 * - no ECN, d < T: proportional increase, inc += alpha x bytes x (T - d); if d stayed under
 *   FastIncreaseDelay for a whole window, fast increase instead: cwnd += bytes x fast scale;
 * - no ECN, d >= T: fair increase, inc += fi x bytes;
 * - ECN, d >= T: multiplicative decrease on the *average* delay, at most once per base RTT:
 *   if avgDelay > T, cwnd *= max(1 - Gamma x (avgDelay - T) / avgDelay, 1 - MaxMd);
 * - ECN, d < T: no change (the mark says one path is congested: load balancing moves off it).
 * Fulfil adjustment: once more than 8 mss were acknowledged since the last one, or a base RTT
 * passed, cwnd += inc / cwnd (and + eta once per base RTT), inc = 0.
 *
 * NACK (a trimmed packet): the average delay is fed a base-RTT sample, quick adapt is
 * triggered, and unless it fired, cwnd -= the trimmed bytes. Timeout: quick adapt triggered.
 *
 * Quick adapt: epochs last base RTT + T. At the first ACK/NACK/timeout after an epoch ends,
 * if a NACK or loss triggered it (or d > 4 T) and fewer than MaxCwnd >> QaGate bytes were
 * acknowledged in the epoch, cwnd = max(acknowledged bytes, MinCwnd). An outage with no ACKs
 * rolls the epochs on: a whole epoch with no ACK counts as zero bytes acknowledged.
 *
 * Window bounds: MinCwnd to MaxCwndBdps x BDP; the initial window is InitialCwndBdps x BDP.
 */
class MrcNscc : public MrcCongestionOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcNscc();
    ~MrcNscc() override;

    /**
     * @copydoc MrcCongestionOps::Fork
     */
    Ptr<MrcCongestionOps> Fork() const override;

    void Init(uint32_t bdp, Time baseRtt, uint32_t mss) override;
    uint32_t GetCwnd() const override;
    void OnAck(uint32_t bytes, Time rtt, bool ecn) override;
    void OnNack(uint32_t bytes, bool lastHop) override;
    void OnTimeout() override;
    std::string GetName() const override;

    /** @return the average queuing delay (EWMA) */
    Time GetAvgDelay() const;
    /** @return the target queuing delay in force */
    Time GetTarget() const;
    /** @return alpha, bytes of increase per acknowledged byte per second under the target */
    double GetAlpha() const;
    /** @return fi, the fair-increase constant (bytes) */
    double GetFairIncrease() const;
    /** @return eta, the per-RTT additive increase (bytes) */
    double GetEta() const;
    /** @return the upper bound of the window, bytes */
    uint32_t GetMaxCwnd() const;

private:
    /** Keep the window inside its bounds. */
    void Clamp();
    /**
     * Update the average delay.
     * @param d a queuing-delay sample, seconds
     * @param ecn the sample came with an ECN echo
     */
    void UpdateAvgDelay(double d, bool ecn);
    /**
     * Quick adapt, evaluated at the end of each epoch.
     * @param loss called for a NACK or a timeout
     * @param d the latest queuing-delay sample, seconds
     * @return true if it shrank the window (the caller then skips its own adjustment)
     */
    bool QuickAdapt(bool loss, double d);
    /** Apply the accumulated increase (fulfil adjustment). */
    void Fulfil();

    // attributes
    Time m_targetAttr;        //!< TargetQdelay attribute (0: automatic)
    double m_gamma;           //!< Gamma attribute
    double m_maxMd;           //!< MaxMd attribute
    double m_propIncrease;    //!< PropIncrease attribute (mss units)
    double m_fairIncrease;    //!< FairIncrease attribute (mss units)
    double m_etaMss;          //!< Eta attribute (mss units)
    double m_fastIncrease;    //!< FastIncrease attribute
    Time m_fastIncreaseDelay; //!< FastIncreaseDelay attribute
    double m_delayEwma;       //!< DelayEwma attribute
    uint32_t m_qaGate;        //!< QaGate attribute
    double m_maxCwndBdps;     //!< MaxCwndBdps attribute
    double m_initCwndBdps;    //!< InitialCwndBdps attribute
    uint32_t m_minCwnd;       //!< MinCwnd attribute

    // derived at Init
    double m_target;  //!< T, seconds
    double m_baseRtt; //!< base RTT, seconds
    double m_alpha;   //!< proportional gain, bytes / (byte x second)
    double m_fi;      //!< fair increase, bytes
    double m_eta;     //!< additive increase per RTT, bytes
    double m_fiScale; //!< fast increase per acknowledged byte
    uint32_t m_mss;   //!< payload per packet
    double m_maxCwnd; //!< upper bound, bytes

    // state
    double m_cwnd;         //!< window, bytes
    double m_avgDelay;     //!< average queuing delay, seconds
    double m_inc;          //!< accumulated increase (bytes^2), applied as inc / cwnd
    uint64_t m_received;   //!< bytes acknowledged since the last fulfil adjustment
    uint64_t m_fastCount;  //!< bytes acknowledged while the delay stayed near zero
    bool m_fastIncreasing; //!< in fast increase
    Time m_lastAdjust;     //!< last fulfil adjustment
    Time m_lastEta;        //!< last eta increase
    Time m_lastDecrease;   //!< last multiplicative decrease
    Time m_qaEnd;          //!< end of the current quick-adapt epoch
    uint64_t m_achieved;   //!< bytes acknowledged in the current epoch
    bool m_qaTrigger;      //!< a NACK asked for quick adapt
};

} // namespace ns3

#endif /* MRC_NSCC_H */
