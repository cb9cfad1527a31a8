/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_H
#define MRC_DCQCN_H

#include "ns3/mrc-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/traced-value.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015), the rate control of the RoCE baseline, with the knobs of a
 * deployed NIC (NVIDIA ConnectX, whose firmware defaults are the attributes' defaults).
 *
 * The sender is paced at the current rate Rc (the line rate at start; alpha starts at
 * InitialAlpha).
 * - **CNP** (OnCnp): at most one reaction per RateReduceMonitorPeriod: Rc = max(Rc (1 -
 *   alpha / 2), MinRate). The target Rt becomes Rc if ClampTargetRate, or if
 *   ClampAfterTimeInc and a rate increase happened since the last cut; otherwise Rt stays
 *   (the rate recovers toward where it was before the congestion episode). The rate timer
 *   restarts and both increase counters (T, BC) and the byte count return to 0.
 * - **Alpha** (AlphaUpdate): `per-period` (NVIDIA): at the end of each AlphaTimer period,
 *   alpha = (1 - g) alpha + g if a CNP came during it, else (1 - g) alpha; `per-cnp` (the
 *   paper): alpha = (1 - g) alpha + g at each cut, (1 - g) alpha after a period without one.
 *   Computed when needed, from the periods that passed: no event per period.
 * - **Rate increase events**: the rate timer (every RateTimer) increments T, every ByteCounter
 *   bytes sent increments BC; after either:
 *   - fast recovery while max(T, BC) <= F (FastRecoverySteps; F events): Rc = (Rt + Rc) / 2;
 *   - hyper increase once min(T, BC) > F: Rt += (min(T, BC) - F) HaiRate, Rc = (Rt + Rc) / 2;
 *   - additive increase otherwise: Rt += AiRate, Rc = (Rt + Rc) / 2;
 *   Rt and Rc never exceed the line rate.
 * The rate timer runs only while the rate is below the line rate, so an uncongested sender
 * costs no events. Without a notification point (an ACK echoing ECN instead of a CNP), an
 * echo counts as a CNP at most once per CnpInterval. There is no congestion window by default
 * (a RoCE NIC keeps sending at its rate whatever is unacknowledged; the queue pair's PSN window
 * bounds it); WindowBdps > 0 caps the bytes in flight.
 *
 * Profiles (GetProfile, MrcStackHelper::SetDcqcnProfile): `default`, NVIDIA ConnectX's
 * firmware defaults; `aggressive`, the vendor-like DCQCN of the HPCC simulator (Alibaba,
 * increase steps scaled with the link rate); `most-aggressive`, uet-htsim's DCQCN (increase
 * steps of 5% and 10% of the line rate); `paper`, the DCQCN paper's 40G-era constants.
 */
class MrcDcqcn : public MrcCongestionOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcDcqcn();
    ~MrcDcqcn() override;

    /**
     * @copydoc MrcCongestionOps::Fork
     */
    Ptr<MrcCongestionOps> Fork() const override;

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

    /** One attribute setting of a profile, "ns3::Type::Attribute" and its value. */
    struct Setting
    {
        std::string attribute; //!< full attribute name (MrcDcqcn's, or MrcQueuePair's NP)
        std::string value;     //!< value
    };

    /**
     * @param name default, aggressive, most-aggressive or paper
     * @param lineRate the port rate (profiles with rate-scaled steps need it)
     * @param settings set to the profile's settings (its source in each attribute's doc)
     * @return false for an unknown name
     */
    static bool GetProfile(const std::string& name,
                           DataRate lineRate,
                           std::vector<Setting>& settings);
    /** @return the profile names, for messages */
    static const char* GetProfileNames();

private:
    void DoDispose() override;
    /** Cut the rate for a CNP. */
    void Cut();
    /** Rate timer: one increase event. */
    void OnRateTimer();
    /** Bring alpha up to date with the alpha periods that ended before now. */
    void UpdateAlpha();
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
    Time m_periodStart;                //!< start of the current alpha period
    Time m_lastCut;                    //!< last reaction to a CNP
    uint64_t m_cuts;                   //!< reactions to CNPs
    uint32_t m_window;                 //!< in-flight cap
    std::string m_alphaUpdate;         //!< AlphaUpdate attribute
    Time m_monitorPeriod;              //!< RateReduceMonitorPeriod attribute
    bool m_clamp;                      //!< ClampTargetRate attribute
    bool m_clampAfterInc;              //!< ClampAfterTimeInc attribute
    double m_initAlpha;                //!< InitialAlpha attribute
    bool m_increased;                  //!< a rate increase happened since the last cut
    EventId m_rateTimer;               //!< the rate increase timer
    TracedValue<uint64_t> m_rateTrace; //!< Rc in bit/s, traced on every change
};

} // namespace ns3

#endif /* MRC_DCQCN_H */
