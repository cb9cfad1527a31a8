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
 * @brief A DCQCN-like rate controller for the RoCE baseline (Zhu et al., SIGCOMM 2015).
 *
 * The sender is paced at rate Rc. An ACK echoing ECN acts as a CNP (at most one reaction per
 * CnpInterval): Rt = Rc, Rc = Rc (1 - alpha / 2), alpha = (1 - g) alpha + g. Every TimerPeriod
 * without a CNP alpha decays, alpha = (1 - g) alpha, and the rate recovers: FastRecoverySteps
 * rounds of Rc = (Rt + Rc) / 2, then additive increase (Rt += AiRate), then hyper increase
 * (Rt += HaiRate), each followed by Rc = (Rt + Rc) / 2. The window only caps the bytes in flight
 * (WindowBdps bandwidth-delay products), as a NIC's outstanding-request limit.
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
    std::string GetName() const override;
    uint64_t GetPacingRate() const override;

    /** @return the current rate Rc in bit/s */
    uint64_t GetRate() const;

private:
    void DoDispose() override;
    /** Periodic alpha decay and rate increase. */
    void OnTimer();
    /** Cut the rate for a CNP. */
    void Cut();

    double m_g;                        //!< AlphaG attribute
    Time m_period;                     //!< TimerPeriod attribute
    Time m_cnpInterval;                //!< CnpInterval attribute
    DataRate m_ai;                     //!< AiRate attribute
    DataRate m_hai;                    //!< HaiRate attribute
    DataRate m_min;                    //!< MinRate attribute
    uint32_t m_fastSteps;              //!< FastRecoverySteps attribute
    double m_windowBdps;               //!< WindowBdps attribute
    double m_lineRate;                 //!< the NIC rate, bit/s
    double m_rc;                       //!< current rate
    double m_rt;                       //!< target rate
    double m_alpha;                    //!< congestion estimate
    uint32_t m_stage;                  //!< increase rounds since the last cut
    bool m_cnpSinceTimer;              //!< a CNP arrived during this period
    Time m_lastCut;                    //!< last reaction to a CNP
    uint32_t m_window;                 //!< in-flight cap
    EventId m_timer;                   //!< the periodic timer
    TracedValue<uint64_t> m_rateTrace; //!< Rc in bit/s, traced on every change
};

} // namespace ns3

#endif /* MRC_DCQCN_H */
