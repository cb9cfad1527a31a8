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
                            "Gain g of the alpha estimate",
                            DoubleValue(1.0 / 256),
                            MakeDoubleAccessor(&MrcDcqcn::m_g),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("TimerPeriod",
                            "Alpha decay and rate increase period",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&MrcDcqcn::m_period),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("CnpInterval",
                            "At most one rate cut per interval (the NIC's CNP pacing)",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&MrcDcqcn::m_cnpInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("AiRate",
                            "Additive increase step",
                            DataRateValue(DataRate("500Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_ai),
                            MakeDataRateChecker())
              .AddAttribute("HaiRate",
                            "Hyper increase step",
                            DataRateValue(DataRate("5Gbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_hai),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Lowest rate",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_min),
                            MakeDataRateChecker())
              .AddAttribute("FastRecoverySteps",
                            "Rounds of fast recovery before additive increase",
                            UintegerValue(5),
                            MakeUintegerAccessor(&MrcDcqcn::m_fastSteps),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("WindowBdps",
                            "Cap on bytes in flight, in bandwidth-delay products",
                            DoubleValue(2.0),
                            MakeDoubleAccessor(&MrcDcqcn::m_windowBdps),
                            MakeDoubleChecker<double>(0.01))
              .AddTraceSource("Rate",
                              "The current rate Rc, bit/s",
                              MakeTraceSourceAccessor(&MrcDcqcn::m_rateTrace),
                              "ns3::TracedValueCallback::Uint64");
    return tid;
}

MrcDcqcn::MrcDcqcn()
    : m_g(1.0 / 256)
    , m_fastSteps(5)
    , m_windowBdps(2.0)
    , m_lineRate(100e9)
    , m_rc(100e9)
    , m_rt(100e9)
    , m_alpha(1.0)
    , m_stage(0)
    , m_cnpSinceTimer(false)
    , m_window(1 << 20)
{
}

MrcDcqcn::~MrcDcqcn() = default;

void
MrcDcqcn::DoDispose()
{
    m_timer.Cancel();
    MrcCongestionOps::DoDispose();
}

void
MrcDcqcn::Init(uint32_t bdp, Time baseRtt, uint32_t mss)
{
    m_lineRate = double(bdp) * 8 / std::max(baseRtt.GetSeconds(), 1e-9);
    m_rc = m_lineRate;
    m_rt = m_lineRate;
    m_rateTrace = static_cast<uint64_t>(m_rc);
    m_window = std::max<uint32_t>(static_cast<uint32_t>(m_windowBdps * bdp), mss);
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

void
MrcDcqcn::Cut()
{
    const Time now = Simulator::Now();
    m_cnpSinceTimer = true;
    if (now - m_lastCut < m_cnpInterval)
    {
        return;
    }
    m_lastCut = now;
    m_rt = m_rc;
    m_rc = std::max(m_rc * (1 - m_alpha / 2), double(m_min.GetBitRate()));
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_stage = 0;
    m_rateTrace = static_cast<uint64_t>(m_rc);
    if (m_timer.IsExpired())
    {
        m_timer = Simulator::Schedule(m_period, &MrcDcqcn::OnTimer, this);
    }
}

void
MrcDcqcn::OnTimer()
{
    if (!m_cnpSinceTimer)
    {
        m_alpha = (1 - m_g) * m_alpha;
        ++m_stage;
        if (m_stage > 2 * m_fastSteps)
        {
            m_rt += m_hai.GetBitRate();
        }
        else if (m_stage > m_fastSteps)
        {
            m_rt += m_ai.GetBitRate();
        }
        m_rt = std::min(m_rt, m_lineRate);
        m_rc = std::min((m_rt + m_rc) / 2, m_lineRate);
    }
    m_rateTrace = static_cast<uint64_t>(m_rc);
    m_cnpSinceTimer = false;
    if (m_rc < m_lineRate || m_alpha > 1e-3)
    {
        m_timer = Simulator::Schedule(m_period, &MrcDcqcn::OnTimer, this);
    }
}

void
MrcDcqcn::OnAck(uint32_t /* bytes */, Time /* rtt */, bool ecn)
{
    if (ecn)
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
