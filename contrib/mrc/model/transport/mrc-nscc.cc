/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-nscc.h"

#include "ns3/mrc-fork.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNscc");
NS_OBJECT_ENSURE_REGISTERED(MrcNscc);

namespace
{
/** The UEC specification's reference network: 100 Gb/s and 12 us. */
constexpr double REFERENCE_RTT = 12e-6;
/** Its bandwidth-delay product, bytes. */
constexpr double REFERENCE_BDP = 100e9 / 8 * REFERENCE_RTT;
} // namespace

TypeId
MrcNscc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcNscc")
              .SetParent<MrcCongestionOps>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcNscc>()
              .AddAttribute("TargetQdelay",
                            "Target queuing delay T; 0 chooses 0.75 x base RTT (UEC, trimming on)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&MrcNscc::m_targetAttr),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("Gamma",
                            "Multiplicative decrease gain on (avgDelay - T) / avgDelay",
                            DoubleValue(0.8),
                            MakeDoubleAccessor(&MrcNscc::m_gamma),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("MaxMd",
                            "Largest fraction of the window one multiplicative decrease removes",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&MrcNscc::m_maxMd),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("PropIncrease",
                            "Proportional increase: alpha = this x mss x a x b / T",
                            DoubleValue(4.0),
                            MakeDoubleAccessor(&MrcNscc::m_propIncrease),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("FairIncrease",
                            "Fair increase: fi = this x mss x a (bytes per RTT)",
                            DoubleValue(5.0),
                            MakeDoubleAccessor(&MrcNscc::m_fairIncrease),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("Eta",
                            "Additive increase per base RTT: eta = this x mss x a",
                            DoubleValue(0.15),
                            MakeDoubleAccessor(&MrcNscc::m_etaMss),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("FastIncrease",
                            "Fast increase per acknowledged byte, x a",
                            DoubleValue(0.25),
                            MakeDoubleAccessor(&MrcNscc::m_fastIncrease),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("FastIncreaseDelay",
                            "Fast increase once the delay stayed under this for a whole window",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcNscc::m_fastIncreaseDelay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("DelayEwma",
                            "Gain of the average queuing delay",
                            DoubleValue(0.0125),
                            MakeDoubleAccessor(&MrcNscc::m_delayEwma),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("QaGate",
                            "Quick adapt fires only if less than MaxCwnd >> QaGate was "
                            "acknowledged in the epoch",
                            UintegerValue(3),
                            MakeUintegerAccessor(&MrcNscc::m_qaGate),
                            MakeUintegerChecker<uint32_t>(0, 16))
              .AddAttribute("MaxCwndBdps",
                            "Upper bound of the window, in bandwidth-delay products",
                            DoubleValue(1.5),
                            MakeDoubleAccessor(&MrcNscc::m_maxCwndBdps),
                            MakeDoubleChecker<double>(0.01))
              .AddAttribute("InitialCwndBdps",
                            "Initial window, in bandwidth-delay products",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&MrcNscc::m_initCwndBdps),
                            MakeDoubleChecker<double>(0.01))
              .AddAttribute("MinCwnd",
                            "Lower bound of the window, bytes",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&MrcNscc::m_minCwnd),
                            MakeUintegerChecker<uint32_t>(1));
    return tid;
}

MrcNscc::MrcNscc()
    : m_gamma(0.8)
    , m_maxMd(0.5)
    , m_propIncrease(4)
    , m_fairIncrease(5)
    , m_etaMss(0.15)
    , m_fastIncrease(0.25)
    , m_delayEwma(0.0125)
    , m_qaGate(3)
    , m_maxCwndBdps(1.5)
    , m_initCwndBdps(1.0)
    , m_minCwnd(4096)
    , m_target(0)
    , m_baseRtt(0)
    , m_alpha(0)
    , m_fi(0)
    , m_eta(0)
    , m_fiScale(0)
    , m_mss(4096)
    , m_maxCwnd(1 << 20)
    , m_cwnd(65536)
    , m_avgDelay(0)
    , m_inc(0)
    , m_received(0)
    , m_fastCount(0)
    , m_fastIncreasing(false)
    , m_achieved(0)
    , m_qaTrigger(false)
{
}

MrcNscc::~MrcNscc() = default;

void
MrcNscc::Init(uint32_t bdp, Time baseRtt, uint32_t mss)
{
    m_mss = mss;
    m_baseRtt = baseRtt.GetSeconds();
    m_target = m_targetAttr.IsStrictlyPositive() ? m_targetAttr.GetSeconds() : 0.75 * m_baseRtt;
    const double a = bdp / REFERENCE_BDP;
    const double b = m_target / REFERENCE_RTT;
    m_alpha = m_target > 0 ? m_propIncrease * mss * a * b / m_target : 0;
    m_fi = m_fairIncrease * mss * a;
    m_eta = m_etaMss * mss * a;
    m_fiScale = m_fastIncrease * a;
    m_maxCwnd = std::max<double>(m_maxCwndBdps * bdp, m_minCwnd);
    m_cwnd = m_initCwndBdps * bdp;
    const Time now = MrcNow();
    m_lastAdjust = now;
    m_lastEta = now;
    m_lastDecrease = Time(0);
    m_qaEnd = now + baseRtt + Seconds(m_target);
    m_achieved = 0;
    m_avgDelay = 0;
    m_inc = 0;
    m_received = 0;
    Clamp();
}

uint32_t
MrcNscc::GetCwnd() const
{
    return static_cast<uint32_t>(m_cwnd);
}

void
MrcNscc::Clamp()
{
    m_cwnd = std::min<double>(std::max<double>(m_cwnd, m_minCwnd), m_maxCwnd);
}

void
MrcNscc::UpdateAvgDelay(double d, bool ecn)
{
    if (!ecn && d > m_target)
    {
        // Delay without a mark: the queue is not on a marking (mid-fabric) hop; pull the average
        // toward a quarter of the base RTT rather than follow it up.
        m_avgDelay = m_delayEwma * 0.25 * m_baseRtt + (1 - m_delayEwma) * m_avgDelay;
    }
    else
    {
        m_avgDelay = m_delayEwma * d + (1 - m_delayEwma) * m_avgDelay;
    }
}

bool
MrcNscc::QuickAdapt(bool loss, double d)
{
    const Time now = MrcNow();
    bool fired = false;
    if (now > m_qaEnd)
    {
        const Time epoch = Seconds(m_baseRtt + m_target);
        if (now > m_qaEnd + epoch)
        {
            m_achieved = 0; // whole epochs passed without an acknowledgement
        }
        if ((m_qaTrigger || loss || d > 4 * m_target)
            && double(m_achieved) < m_maxCwnd / double(1u << m_qaGate))
        {
            m_cwnd = std::max<double>(double(m_achieved), m_minCwnd);
            m_qaTrigger = false;
            m_fastIncreasing = false;
            m_fastCount = 0;
            fired = true;
        }
        m_achieved = 0;
        m_qaEnd = now + epoch;
    }
    if (fired)
    {
        m_inc = 0;
        m_received = 0;
    }
    return fired;
}

void
MrcNscc::Fulfil()
{
    const Time now = MrcNow();
    m_cwnd += m_inc / m_cwnd;
    if (now - m_lastEta >= Seconds(m_baseRtt))
    {
        m_cwnd += m_eta;
        m_lastEta = now;
    }
    m_inc = 0;
    m_received = 0;
    m_lastAdjust = now;
}

void
MrcNscc::OnAck(uint32_t bytes, Time rtt, bool ecn)
{
    const double d = rtt.IsStrictlyPositive() ? std::max(0.0, rtt.GetSeconds() - m_baseRtt) : 0;
    if (rtt.IsStrictlyPositive())
    {
        UpdateAvgDelay(d, ecn);
    }
    const bool adapted = QuickAdapt(false, d);
    m_achieved += bytes;
    if (adapted || rtt.IsZero())
    {
        return;
    }
    m_received += bytes;
    if (!ecn && d >= m_target)
    {
        m_fastIncreasing = false;
        m_fastCount = 0;
        m_inc += m_fi * bytes;
    }
    else if (!ecn)
    {
        // Proportional increase, or fast increase once a whole window saw an empty path.
        if (d < m_fastIncreaseDelay.GetSeconds())
        {
            m_fastCount += bytes;
            if (m_fastIncreasing || double(m_fastCount) > m_cwnd)
            {
                m_fastIncreasing = true;
                m_cwnd += bytes * m_fiScale;
                Clamp();
                return;
            }
        }
        else
        {
            m_fastCount = 0;
            m_fastIncreasing = false;
        }
        m_inc += m_alpha * bytes * (m_target - d);
    }
    else if (d >= m_target)
    {
        m_fastIncreasing = false;
        m_fastCount = 0;
        const Time now = MrcNow();
        if (m_avgDelay > m_target && now - m_lastDecrease > Seconds(m_baseRtt))
        {
            m_cwnd *= std::max(1 - m_gamma * (m_avgDelay - m_target) / m_avgDelay, 1 - m_maxMd);
            m_lastDecrease = now;
        }
    }
    // ECN with d < T: no change.
    Clamp();
    if (m_received > 8ULL * m_mss || MrcNow() - m_lastAdjust > Seconds(m_baseRtt))
    {
        Fulfil();
        Clamp();
    }
}

void
MrcNscc::OnNack(uint32_t bytes, bool /* lastHop */)
{
    // A trimmed packet: its queue was full, about one base RTT of delay.
    UpdateAvgDelay(m_baseRtt, true);
    m_qaTrigger = true;
    if (!QuickAdapt(true, 0))
    {
        m_cwnd -= bytes;
    }
    Clamp();
}

void
MrcNscc::OnTimeout()
{
    m_qaTrigger = true;
    QuickAdapt(true, 0);
    Clamp();
}

std::string
MrcNscc::GetName() const
{
    return "nscc";
}

Time
MrcNscc::GetAvgDelay() const
{
    return Seconds(m_avgDelay);
}

Time
MrcNscc::GetTarget() const
{
    return Seconds(m_target);
}

double
MrcNscc::GetAlpha() const
{
    return m_alpha;
}

double
MrcNscc::GetFairIncrease() const
{
    return m_fi;
}

double
MrcNscc::GetEta() const
{
    return m_eta;
}

uint32_t
MrcNscc::GetMaxCwnd() const
{
    return static_cast<uint32_t>(m_maxCwnd);
}

Ptr<MrcCongestionOps>
MrcNscc::Fork() const
{
    return MrcForkAs<MrcCongestionOps>(this);
}

} // namespace ns3
