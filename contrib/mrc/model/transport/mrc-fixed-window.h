/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FIXED_WINDOW_H
#define MRC_FIXED_WINDOW_H

#include "ns3/mrc-congestion-ops.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A constant window: Window bytes, or WindowBdps bandwidth-delay products if Window is 0.
 */
class MrcFixedWindow : public MrcCongestionOps
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFixedWindow();
    ~MrcFixedWindow() override;

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

private:
    uint32_t m_window; //!< Window attribute
    double m_bdps;     //!< WindowBdps attribute
    uint32_t m_cwnd;   //!< the window in use
};

} // namespace ns3

#endif /* MRC_FIXED_WINDOW_H */
