/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NSCC_H
#define MRC_NSCC_H

#include "mrc-congestion-ops.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief UEC's Network Signal-based Congestion Control (NSCC), window based, driven by two
 * signals: ECN marks (from mid-fabric queues) and queuing delay (RTT - BaseRtt).
 *
 * On each ACK, with d the queuing delay and T the TargetQdelay:
 * - no ECN, d < T: proportional increase, cwnd += ProportionalGain x bytes x (T - d) / T
 *   (fast growth while the path is empty);
 * - no ECN, d >= T: fair increase, cwnd += FairIncrease x mss x bytes / cwnd (about
 *   FairIncrease packets per RTT: flows converge to fairness);
 * - ECN, d >= T: multiplicative decrease, at most once per BaseRtt,
 *   cwnd -= cwnd x min(MdFactor x (d - T) / d, MaxMd);
 * - ECN, d < T: no change (the mark says one path is congested; load balancing handles it).
 * Quick adapt: a NACK for a last-hop trim or a timeout means the window is far too large for
 * the receiver's share; if fewer bytes than cwnd / 2 were acknowledged in the last BaseRtt,
 * cwnd falls to what was acknowledged (never below MinCwnd). Window bounds: MinCwnd (bytes) to
 * MaxCwndBdps x BDP.
 *
 * This is a compact reading of the algorithm in the UEC 1.0 specification and the uet-htsim
 * simulator (no fulfil-adjustment batching, no pacing); see the module documentation.
 */
class MrcNscc : public MrcCongestionOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcNscc();
    ~MrcNscc() override;

    void Init(uint32_t bdp, Time baseRtt, uint32_t mss) override;
    uint32_t GetCwnd() const override;
    void OnAck(uint32_t bytes, Time rtt, bool ecn) override;
    void OnNack(uint32_t bytes, bool lastHop) override;
    void OnTimeout() override;
    std::string GetName() const override;

private:
    /** Keep the window inside its bounds. */
    void Clamp();
    /** Quick adapt: shrink to what was delivered in the last base RTT if that was little. */
    void QuickAdapt();

    Time m_targetQdelay;       //!< TargetQdelay attribute
    double m_propGain;         //!< ProportionalGain attribute
    double m_fairIncrease;     //!< FairIncrease attribute (packets per RTT)
    double m_mdFactor;         //!< MdFactor attribute
    double m_maxMd;            //!< MaxMd attribute
    double m_maxCwndBdps;      //!< MaxCwndBdps attribute
    double m_initCwndBdps;     //!< InitialCwndBdps attribute
    uint32_t m_minCwnd;        //!< MinCwnd attribute
    double m_cwnd;             //!< window, bytes
    uint32_t m_maxCwnd;        //!< upper bound, bytes
    uint32_t m_mss;            //!< payload per packet
    Time m_baseRtt;            //!< base RTT
    Time m_lastDecrease;       //!< last multiplicative decrease
    Time m_epochStart;         //!< start of the current quick-adapt epoch
    Time m_connStart;          //!< when Init ran
    uint64_t m_epochBytes;     //!< bytes acknowledged in it
    uint64_t m_lastEpochBytes; //!< bytes acknowledged in the previous epoch
};

} // namespace ns3

#endif /* MRC_NSCC_H */
