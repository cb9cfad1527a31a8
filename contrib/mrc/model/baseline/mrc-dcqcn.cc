/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-dcqcn.h"

#include "ns3/mrc-choice-checker.h"
#include "ns3/mrc-fork.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

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
              .AddAttribute(
                  "AlphaG",
                  "Gain g of the alpha estimate (NVIDIA ConnectX default: dce_tcp_g 1019, "
                  "i.e. g = (1024 - 1019) / 1024; the DCQCN paper: 1/256)",
                  DoubleValue(5.0 / 1024),
                  MakeDoubleAccessor(&MrcDcqcn::m_g),
                  MakeDoubleChecker<double>(0, 1))
              .AddAttribute("AlphaTimer",
                            "The alpha update period (NVIDIA: dce_tcp_rtt 1 us; the DCQCN paper's "
                            "K: 55 us)",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcDcqcn::m_alphaPeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("AlphaUpdate",
                            "per-period (NVIDIA: at each period's end alpha = (1-g) alpha + g if a "
                            "CNP came during it, else (1-g) alpha) or per-cnp (the DCQCN paper: "
                            "+g at each cut, decay after a period without one)",
                            StringValue("per-period"),
                            MakeStringAccessor(&MrcDcqcn::m_alphaUpdate),
                            MakeMrcChoiceChecker({"per-period", "per-cnp"}))
              .AddAttribute(
                  "InitialAlpha",
                  "Alpha at start (NVIDIA: initial_alpha_value 1023 / 1024; the paper: 1)",
                  DoubleValue(1023.0 / 1024),
                  MakeDoubleAccessor(&MrcDcqcn::m_initAlpha),
                  MakeDoubleChecker<double>(0, 1))
              .AddAttribute("RateReduceMonitorPeriod",
                            "At most one rate cut per period (NVIDIA: "
                            "rate_reduce_monitor_period 4 us; 0: every CNP cuts, as in the paper)",
                            TimeValue(MicroSeconds(4)),
                            MakeTimeAccessor(&MrcDcqcn::m_monitorPeriod),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("ClampTargetRate",
                            "At every cut the target rate becomes the current rate (NVIDIA: "
                            "clamp_tgt_rate 0; the paper: always)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcDcqcn::m_clamp),
                            MakeBooleanChecker())
              .AddAttribute(
                  "ClampAfterTimeInc",
                  "At a cut the target rate becomes the current rate if the rate was "
                  "increased since the last cut (NVIDIA: clamp_tgt_rate_after_time_inc 1)",
                  BooleanValue(true),
                  MakeBooleanAccessor(&MrcDcqcn::m_clampAfterInc),
                  MakeBooleanChecker())
              .AddAttribute("RateTimer",
                            "T: one rate increase event per period (NVIDIA: rpg_time_reset 300 us; "
                            "the paper: 55 us)",
                            TimeValue(MicroSeconds(300)),
                            MakeTimeAccessor(&MrcDcqcn::m_ratePeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ByteCounter",
                            "B: one rate increase event per this many bytes sent (NVIDIA: "
                            "rpg_byte_reset 32767, in bytes as Linux's dcbnl defines it; NVIDIA "
                            "does not state the unit; the paper: 10 MB)",
                            UintegerValue(32767),
                            MakeUintegerAccessor(&MrcDcqcn::m_byteCounter),
                            MakeUintegerChecker<uint64_t>(1))
              .AddAttribute("FastRecoverySteps",
                            "F: increase events of fast recovery before additive increase "
                            "(NVIDIA: rpg_threshold 1; the paper: 5)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&MrcDcqcn::m_f),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("AiRate",
                            "R_AI: additive increase step (NVIDIA: rpg_ai_rate 5 Mb/s; the paper: "
                            "40 Mb/s)",
                            DataRateValue(DataRate("5Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_ai),
                            MakeDataRateChecker())
              .AddAttribute("HaiRate",
                            "R_HAI: hyper increase step (NVIDIA: rpg_hai_rate 50 Mb/s)",
                            DataRateValue(DataRate("50Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_hai),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Lowest rate (NVIDIA: rpg_min_rate 1 Mb/s)",
                            DataRateValue(DataRate("1Mbps")),
                            MakeDataRateAccessor(&MrcDcqcn::m_min),
                            MakeDataRateChecker())
              .AddAttribute("CnpInterval",
                            "Without a notification point (ECN echoed in ACKs instead of CNPs), "
                            "at most one reaction per interval (NVIDIA's NP: "
                            "min_time_between_cnps 4 us)",
                            TimeValue(MicroSeconds(4)),
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
    : m_g(5.0 / 1024)
    , m_byteCounter(32767)
    , m_f(1)
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
    , m_clamp(false)
    , m_clampAfterInc(true)
    , m_initAlpha(1023.0 / 1024)
    , m_increased(false)
{
}

const char*
MrcDcqcn::GetProfileNames()
{
    return "default, aggressive, most-aggressive, paper";
}

bool
MrcDcqcn::GetProfile(const std::string& name, DataRate lineRate, std::vector<Setting>& out)
{
    const double gbps = lineRate.GetBitRate() / 1e9;
    auto mbps = [](double v)
    {
        return std::to_string(static_cast<uint64_t>(v)) + "Mbps";
    };
    auto num = [](double v)
    {
        std::ostringstream os;
        os << std::setprecision(17) << v;
        return os.str();
    };
    const std::string T = "ns3::MrcDcqcn::";
    const std::string NP = "ns3::MrcQueuePair::CnpInterval";
    if (name == "default")
    {
        // NVIDIA ConnectX firmware defaults (DOCA "DCQCN CC Parameters"; the mlxconfig
        // defaults of ConnectX-5/6 Lx dumps for the rate-increase and NP rows).
        out = {{T + "AlphaG", num(5.0 / 1024)},
               {T + "AlphaTimer", "1us"},
               {T + "AlphaUpdate", "per-period"},
               {T + "InitialAlpha", num(1023.0 / 1024)},
               {T + "RateReduceMonitorPeriod", "4us"},
               {T + "ClampTargetRate", "false"},
               {T + "ClampAfterTimeInc", "true"},
               {T + "RateTimer", "300us"},
               {T + "ByteCounter", "32767"},
               {T + "FastRecoverySteps", "1"},
               {T + "AiRate", "5Mbps"},
               {T + "HaiRate", "50Mbps"},
               {T + "MinRate", "1Mbps"},
               {NP, "4us"}};
        return true;
    }
    if (name == "aggressive")
    {
        // The HPCC simulator's vendor-like DCQCN (alibaba-edu/High-Precision-Congestion-Control,
        // simulation/run.py, --cc dcqcn): steps scaled with the link rate, no byte counter, a
        // CNP on every marked packet, the rate cut at most every 4 us.
        out = {{T + "AlphaG", num(1.0 / 256)},
               {T + "AlphaTimer", "1us"},
               {T + "AlphaUpdate", "per-period"},
               {T + "InitialAlpha", "1"},
               {T + "RateReduceMonitorPeriod", "4us"},
               {T + "ClampTargetRate", "false"},
               {T + "ClampAfterTimeInc", "true"},
               {T + "RateTimer", "300us"},
               {T + "ByteCounter", "4611686018427387904"},
               {T + "FastRecoverySteps", "1"},
               {T + "AiRate", mbps(5 * gbps / 25)},
               {T + "HaiRate", mbps(50 * gbps / 25)},
               {T + "MinRate", "1000Mbps"},
               {NP, "1ns"}};
        return true;
    }
    if (name == "most-aggressive")
    {
        // uet-htsim's DCQCN (ultraethernet/uet-htsim, htsim/sim/dcqcn.cpp): R_AI = line / 20,
        // R_HAI = line / 10, 55 us timers, a 10 MB byte counter, F = 5, CNPs 50 us apart.
        out = {{T + "AlphaG", num(1.0 / 256)},
               {T + "AlphaTimer", "55us"},
               {T + "AlphaUpdate", "per-cnp"},
               {T + "InitialAlpha", "1"},
               {T + "RateReduceMonitorPeriod", "0s"},
               {T + "ClampTargetRate", "true"},
               {T + "ClampAfterTimeInc", "true"},
               {T + "RateTimer", "55us"},
               {T + "ByteCounter", "10000000"},
               {T + "FastRecoverySteps", "5"},
               {T + "AiRate", mbps(gbps * 1000 / 20)},
               {T + "HaiRate", mbps(gbps * 1000 / 10)},
               {T + "MinRate", "1Mbps"},
               {NP, "50us"}};
        return true;
    }
    if (name == "paper")
    {
        // The DCQCN paper's constants (SIGCOMM 2015, 40 Gb/s NICs), HaiRate 10 x AiRate.
        out = {{T + "AlphaG", num(1.0 / 256)},
               {T + "AlphaTimer", "55us"},
               {T + "AlphaUpdate", "per-cnp"},
               {T + "InitialAlpha", "1"},
               {T + "RateReduceMonitorPeriod", "0s"},
               {T + "ClampTargetRate", "true"},
               {T + "ClampAfterTimeInc", "true"},
               {T + "RateTimer", "55us"},
               {T + "ByteCounter", "10000000"},
               {T + "FastRecoverySteps", "5"},
               {T + "AiRate", "40Mbps"},
               {T + "HaiRate", "400Mbps"},
               {T + "MinRate", "100Mbps"},
               {NP, "50us"}};
        return true;
    }
    return false;
}

MrcDcqcn::~MrcDcqcn() = default;

void
MrcDcqcn::DoDispose()
{
    m_rateTimer.Cancel();
    MrcCongestionOps::DoDispose();
}

void
MrcDcqcn::Init(uint32_t bdp, Time baseRtt, uint32_t mss)
{
    m_lineRate = double(bdp) * 8 / std::max(baseRtt.GetSeconds(), 1e-9);
    m_rc = m_lineRate;
    m_rt = m_lineRate;
    m_alpha = m_initAlpha;
    m_periodStart = MrcNow();
    m_cnpThisPeriod = false;
    m_increased = false;
    m_rateTrace = static_cast<uint64_t>(m_rc);
    m_window = m_windowBdps > 0
                 ? std::max<uint32_t>(static_cast<uint32_t>(std::min(m_windowBdps * bdp, 1e9)), mss)
                 : 0x7fffffffu;
    m_lastCut = Time(0) - std::max(m_cnpInterval, m_monitorPeriod);
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
    // Alpha as UpdateAlpha would bring it up to date now (without changing the state).
    const Time now = MrcNow();
    if (now < m_periodStart + m_alphaPeriod)
    {
        return m_alpha;
    }
    const int64_t n = (now - m_periodStart).GetTimeStep() / m_alphaPeriod.GetTimeStep();
    double a = m_alpha;
    if (m_alphaUpdate == "per-period")
    {
        a = (1 - m_g) * a + (m_cnpThisPeriod ? m_g : 0);
    }
    else if (!m_cnpThisPeriod)
    {
        a = (1 - m_g) * a;
    }
    return a * std::pow(1 - m_g, double(n - 1));
}

void
MrcDcqcn::UpdateAlpha()
{
    const Time now = MrcNow();
    if (now < m_periodStart + m_alphaPeriod)
    {
        return;
    }
    m_alpha = GetAlpha();
    const int64_t n = (now - m_periodStart).GetTimeStep() / m_alphaPeriod.GetTimeStep();
    m_periodStart += m_alphaPeriod * n;
    m_cnpThisPeriod = false;
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
    UpdateAlpha();
    m_cnpThisPeriod = true;
    if (m_monitorPeriod.IsStrictlyPositive() && MrcNow() - m_lastCut < m_monitorPeriod)
    {
        return; // at most one cut per monitor period (the CNP still counts for alpha)
    }
    m_lastCut = MrcNow();
    ++m_cuts;
    if (m_clamp || (m_clampAfterInc && m_increased))
    {
        m_rt = m_rc;
    }
    m_rc = std::max(m_rc * (1 - m_alpha / 2), double(m_min.GetBitRate()));
    if (m_alphaUpdate == "per-cnp")
    {
        m_alpha = (1 - m_g) * m_alpha + m_g;
    }
    m_increased = false;
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
    if (m_rateTimer.IsExpired() && m_rc < m_lineRate)
    {
        m_rateTimer = Simulator::Schedule(m_ratePeriod, &MrcDcqcn::OnRateTimer, this);
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
    const double before = m_rc;
    m_rc = std::min((m_rt + m_rc) / 2, m_lineRate);
    m_increased = true;
    if (m_lineRate - m_rc < 1)
    {
        m_rc = m_lineRate; // close enough: stop the timers
    }
    m_rateTrace = static_cast<uint64_t>(m_rc);
    if (m_rc > before)
    {
        NotifyRateIncrease();
    }
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
    if (ecn && MrcNow() - m_lastCut >= m_cnpInterval)
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

Ptr<MrcCongestionOps>
MrcDcqcn::Fork() const
{
    return MrcForkAs<MrcCongestionOps>(this);
}

} // namespace ns3
