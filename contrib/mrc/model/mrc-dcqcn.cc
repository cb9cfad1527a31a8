/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn.h"

#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcDcqcn);

TypeId
MrcDcqcn::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcDcqcn")
              .SetParent<MrcCongestionOps>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcDcqcn>()
              .AddAttribute("AlphaG",
                            "Gain g of the alpha estimate (DCQCN paper: 1/256)",
                            DoubleValue(1.0 / 256),
                            MakeDoubleAccessor(&MrcDcqcn::m_g),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("AlphaTimer",
                            "K: alpha decays once per period without a CNP (DCQCN paper: 55 us)",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&MrcDcqcn::m_alphaPeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("RateTimer",
                            "T: one rate increase event per period (DCQCN paper: 55 us)",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&MrcDcqcn::m_ratePeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ByteCounter",
                            "B: one rate increase event per this many bytes sent (DCQCN paper: "
                            "10 MB)",
                            UintegerValue(10000000),
                            MakeUintegerAccessor(&MrcDcqcn::m_byteCounter),
                            MakeUintegerChecker<uint64_t>(1))
              .AddAttribute("FastRecoverySteps",
                            "F: increase events of fast recovery before additive increase "
                            "(DCQCN paper: 5)",
                            UintegerValue(5),
                            MakeUintegerAccessor(&MrcDcqcn::m_f),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("AiRate",
                            "R_AI: additive increase step (DCQCN paper: 40 Mb/s)",
                            DataRateValue(DataRate("40Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_ai),
                            MakeDataRateChecker())
              .AddAttribute("HaiRate",
                            "R_HAI: hyper increase step (10 x R_AI, QCN's ratio)",
                            DataRateValue(DataRate("400Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_hai),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Lowest rate",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_min),
                            MakeDataRateChecker())
              .AddAttribute("CnpInterval",
                            "Without a notification point (ECN echoed in ACKs instead of CNPs), "
                            "at most one reaction per interval (the NP's CNP spacing, 50 us)",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&MrcDcqcn::m_cnpInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("WindowBdps",
                            "Cap on bytes in flight, in bandwidth-delay products; 0 (the default): "
                            "none, as on a RoCE NIC, where the rate alone paces the sender and the "
                            "PSN window (the queue pair's RecvWindow) bounds what is outstanding",
                            DoubleValue(0),
                            MakeDoubleAccessor(&MrcDcqcn::m_windowBdps),
                            MakeDoubleChecker<double>(0))
              .AddTraceSource("Rate",
                              "The current rate Rc, bit/s",
                              MakeTraceSourceAccessor(&MrcDcqcn::m_rateTrace),
                              "ns3::TracedValueCallback::Uint64");
    return tid;
}

MrcDcqcn::MrcDcqcn()
    : m_g(1.0 / 256)
    , m_byteCounter(10000000)
    , m_f(5)
    , m_windowBdps(0)
    , m_lineRate(100e9)
    , m_rc(100e9)
    , m_rt(100e9)
    , m_alpha(1.0)
    , m_t(0)
    , m_bc(0)
    , m_bytes(0)
    , m_cnpThisPeriod(false)
    , m_cuts(0)
    , m_window(1 << 20)
{
}

MrcDcqcn::~MrcDcqcn() = default;

void
MrcDcqcn::DoDispose()
{
    m_alphaTimer.Cancel();
    m_rateTimer.Cancel();
    MrcCongestionOps::DoDispose();
}

void
MrcDcqcn::Init(uint32_t bdp, Time baseRtt, uint32_t mss)
{
    m_lineRate = double(bdp) * 8 / std::max(baseRtt.GetSeconds(), 1e-9);
    m_rc = m_lineRate;
    m_rt = m_lineRate;
    m_alpha = 1.0;
    m_rateTrace = static_cast<uint64_t>(m_rc);
    m_window = m_windowBdps > 0
                 ? std::max<uint32_t>(static_cast<uint32_t>(std::min(m_windowBdps * bdp, 1e9)), mss)
                 : 0x7fffffffu;
    m_lastCut = Time(0) - m_cnpInterval;
}

uint32_t
MrcDcqcn::GetCwnd() const
{
    return m_window;
}

uint64_t
MrcDcqcn::GetPacingRate() const
{
    return static_cast<uint64_t>(m_rc);
}

uint64_t
MrcDcqcn::GetRate() const
{
    return static_cast<uint64_t>(m_rc);
}

uint64_t
MrcDcqcn::GetTargetRate() const
{
    return static_cast<uint64_t>(m_rt);
}

double
MrcDcqcn::GetAlpha() const
{
    return m_alpha;
}

uint32_t
MrcDcqcn::GetTimerCount() const
{
    return m_t;
}

uint32_t
MrcDcqcn::GetByteCount() const
{
    return m_bc;
}

uint64_t
MrcDcqcn::GetCuts() const
{
    return m_cuts;
}

void
MrcDcqcn::Cut()
{
    m_lastCut = Simulator::Now();
    m_cnpThisPeriod = true;
    ++m_cuts;
    m_rt = m_rc;
    m_rc = std::max(m_rc * (1 - m_alpha / 2), double(m_min.GetBitRate()));
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_t = 0;
    m_bc = 0;
    m_bytes = 0;
    m_rateTimer.Cancel(); // the rate timer restarts from the cut
    m_rateTrace = static_cast<uint64_t>(m_rc);
    ArmTimers();
}

void
MrcDcqcn::ArmTimers()
{
    if (m_alphaTimer.IsExpired() && m_alpha > 1e-3)
    {
        m_alphaTimer = Simulator::Schedule(m_alphaPeriod, &MrcDcqcn::OnAlphaTimer, this);
    }
    if (m_rateTimer.IsExpired() && m_rc < m_lineRate)
    {
        m_rateTimer = Simulator::Schedule(m_ratePeriod, &MrcDcqcn::OnRateTimer, this);
    }
}

void
MrcDcqcn::OnAlphaTimer()
{
    if (!m_cnpThisPeriod)
    {
        m_alpha = (1 - m_g) * m_alpha;
    }
    m_cnpThisPeriod = false;
    if (m_alpha > 1e-3 || m_rc < m_lineRate)
    {
        m_alphaTimer = Simulator::Schedule(m_alphaPeriod, &MrcDcqcn::OnAlphaTimer, this);
    }
}

void
MrcDcqcn::OnRateTimer()
{
    ++m_t;
    Increase();
    if (m_rc < m_lineRate)
    {
        m_rateTimer = Simulator::Schedule(m_ratePeriod, &MrcDcqcn::OnRateTimer, this);
    }
}

void
MrcDcqcn::OnSent(uint32_t bytes)
{
    if (m_rc >= m_lineRate)
    {
        return; // at line rate there is nothing to recover
    }
    m_bytes += bytes;
    while (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        ++m_bc;
        Increase();
    }
}

void
MrcDcqcn::Increase()
{
    const uint32_t hi = std::max(m_t, m_bc);
    const uint32_t lo = std::min(m_t, m_bc);
    if (hi <= m_f)
    {
        // fast recovery: halfway back to the rate before the cut
    }
    else if (lo > m_f)
    {
        m_rt += double(lo - m_f) * double(m_hai.GetBitRate());
    }
    else
    {
        m_rt += double(m_ai.GetBitRate());
    }
    m_rt = std::min(m_rt, m_lineRate);
    m_rc = std::min((m_rt + m_rc) / 2, m_lineRate);
    if (m_lineRate - m_rc < 1)
    {
        m_rc = m_lineRate; // close enough: stop the timers
    }
    m_rateTrace = static_cast<uint64_t>(m_rc);
}

void
MrcDcqcn::OnCnp()
{
    Cut();
}

void
MrcDcqcn::OnAck(uint32_t /* bytes */, Time /* rtt */, bool ecn)
{
    // Only used without a notification point: an ECN echo stands for a CNP.
    if (ecn && Simulator::Now() - m_lastCut >= m_cnpInterval)
    {
        Cut();
    }
}

void
MrcDcqcn::OnNack(uint32_t /* bytes */, bool /* lastHop */)
{
}

void
MrcDcqcn::OnTimeout()
{
}

std::string
MrcDcqcn::GetName() const
{
    return "dcqcn";
}

} // namespace ns3
