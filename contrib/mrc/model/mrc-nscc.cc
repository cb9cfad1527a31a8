/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nscc.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNscc");
NS_OBJECT_ENSURE_REGISTERED(MrcNscc);

TypeId
MrcNscc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcNscc")
              .SetParent<MrcCongestionOps>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcNscc>()
              .AddAttribute("TargetQdelay",
                            "Queuing delay NSCC aims for",
                            TimeValue(MicroSeconds(4)),
                            MakeTimeAccessor(&MrcNscc::m_targetQdelay),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ProportionalGain",
                            "Proportional increase: window growth per acknowledged byte at zero "
                            "queuing delay",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&MrcNscc::m_propGain),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("FairIncrease",
                            "Fair increase, in packets per RTT",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&MrcNscc::m_fairIncrease),
                            MakeDoubleChecker<double>(0))
              .AddAttribute("MdFactor",
                            "Multiplicative decrease gain on (d - T) / d",
                            DoubleValue(0.8),
                            MakeDoubleAccessor(&MrcNscc::m_mdFactor),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("MaxMd",
                            "Largest fraction of the window one decrease removes",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&MrcNscc::m_maxMd),
                            MakeDoubleChecker<double>(0, 1))
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
    : m_targetQdelay(MicroSeconds(4))
    , m_propGain(1.0)
    , m_fairIncrease(1.0)
    , m_mdFactor(0.8)
    , m_maxMd(0.5)
    , m_maxCwndBdps(1.5)
    , m_initCwndBdps(1.0)
    , m_minCwnd(4096)
    , m_cwnd(65536)
    , m_maxCwnd(1 << 20)
    , m_mss(4096)
    , m_epochBytes(0)
    , m_lastEpochBytes(0)
{
}

MrcNscc::~MrcNscc() = default;

void
MrcNscc::Init(uint32_t bdp, Time baseRtt, uint32_t mss)
{
    m_mss = mss;
    m_baseRtt = baseRtt;
    m_maxCwnd = std::max<uint32_t>(static_cast<uint32_t>(m_maxCwndBdps * bdp), m_minCwnd);
    m_cwnd = m_initCwndBdps * bdp;
    m_lastDecrease = Time(0);
    m_epochStart = Simulator::Now();
    m_connStart = m_epochStart;
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
MrcNscc::OnAck(uint32_t bytes, Time rtt, bool ecn)
{
    const Time now = Simulator::Now();
    if (now - m_epochStart >= m_baseRtt)
    {
        m_lastEpochBytes = m_epochBytes;
        m_epochBytes = 0;
        m_epochStart = now;
    }
    m_epochBytes += bytes;
    if (rtt.IsZero())
    {
        return;
    }
    const double target = m_targetQdelay.GetSeconds();
    const double d = std::max(0.0, (rtt - m_baseRtt).GetSeconds());
    if (!ecn)
    {
        if (d < target)
        {
            m_cwnd += m_propGain * bytes * (target - d) / target;
        }
        else
        {
            m_cwnd += m_fairIncrease * m_mss * double(bytes) / m_cwnd;
        }
    }
    else if (d >= target && now - m_lastDecrease >= m_baseRtt)
    {
        m_cwnd -= m_cwnd * std::min(m_mdFactor * (d - target) / d, m_maxMd);
        m_lastDecrease = now;
    }
    Clamp();
}

void
MrcNscc::QuickAdapt()
{
    if (Simulator::Now() - m_connStart < 2 * m_baseRtt)
    {
        return; // no full epoch measured yet
    }
    const uint64_t achieved = std::max(m_epochBytes, m_lastEpochBytes);
    if (achieved < m_cwnd / 2)
    {
        m_cwnd = std::max<double>(achieved, m_minCwnd);
        m_lastDecrease = Simulator::Now();
    }
}

void
MrcNscc::OnNack(uint32_t /* bytes */, bool lastHop)
{
    if (lastHop)
    {
        QuickAdapt();
    }
    else if (Simulator::Now() - m_lastDecrease >= m_baseRtt)
    {
        // A mid-fabric trim: the load balancer moves off the path; trim the window mildly.
        m_cwnd -= m_cwnd * m_maxMd / 4;
        m_lastDecrease = Simulator::Now();
    }
    Clamp();
}

void
MrcNscc::OnTimeout()
{
    QuickAdapt();
    Clamp();
}

std::string
MrcNscc::GetName() const
{
    return "nscc";
}

} // namespace ns3
