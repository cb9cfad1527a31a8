/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-progress.h"

#include "ns3/simulator.h"

#include <cmath>
#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcProgress);

TypeId
MrcProgress::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcProgress")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcProgress>()
                            .AddAttribute("CheckInterval",
                                          "Simulated time between looks at the wall clock",
                                          TimeValue(MicroSeconds(20)),
                                          MakeTimeAccessor(&MrcProgress::m_checkInterval),
                                          MakeTimeChecker(NanoSeconds(1)))
                            .AddAttribute("WallInterval",
                                          "Wall time between two progress lines",
                                          TimeValue(Seconds(2)),
                                          MakeTimeAccessor(&MrcProgress::m_wallInterval),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

MrcProgress::MrcProgress()
    : m_os(nullptr)
    , m_total(0)
    , m_lastEvents(0)
{
}

MrcProgress::~MrcProgress() = default;

void
MrcProgress::DoDispose()
{
    m_event.Cancel();
    m_fraction = Callback<double>();
    Object::DoDispose();
}

void
MrcProgress::SetFraction(Callback<double> cb, const std::string& what, uint64_t total)
{
    m_fraction = cb;
    m_what = what;
    m_total = total;
}

void
MrcProgress::Start(const std::string& label, std::ostream* os)
{
    m_label = label;
    m_os = os;
    m_start = std::chrono::steady_clock::now();
    m_lastPrint = m_start;
    m_lastEvents = Simulator::GetEventCount();
    m_event.Cancel();
    m_event = Simulator::Schedule(m_checkInterval, &MrcProgress::Check, this);
}

void
MrcProgress::Stop()
{
    m_event.Cancel();
}

void
MrcProgress::Check()
{
    m_event = Simulator::Schedule(m_checkInterval, &MrcProgress::Check, this);
    const auto now = std::chrono::steady_clock::now();
    const double sinceLast = std::chrono::duration<double>(now - m_lastPrint).count();
    if (m_os == nullptr || sinceLast < m_wallInterval.GetSeconds())
    {
        return;
    }
    const double wall = std::chrono::duration<double>(now - m_start).count();
    const uint64_t events = Simulator::GetEventCount();
    std::ostream& os = *m_os;
    os << "[" << m_label << "] simulated " << std::fixed << std::setprecision(3)
       << Simulator::Now().GetNanoSeconds() / 1e6 << " ms";
    if (!m_fraction.IsNull())
    {
        const double f = std::min(1.0, std::max(0.0, m_fraction()));
        os << " | " << m_what << " " << static_cast<uint64_t>(std::floor(f * m_total + 1e-9)) << "/"
           << m_total << " (" << std::setprecision(0) << f * 100 << "%)";
        os << " | wall " << std::setprecision(1) << wall << " s | ETA ";
        if (f > 0)
        {
            os << wall * (1 - f) / f << " s";
        }
        else
        {
            os << "?";
        }
    }
    else
    {
        os << " | wall " << std::setprecision(1) << wall << " s";
    }
    os << " | " << std::setprecision(2) << (events - m_lastEvents) / sinceLast / 1e6
       << " M events/s" << std::endl;
    os.unsetf(std::ios::floatfield);
    m_lastPrint = now;
    m_lastEvents = events;
}

} // namespace ns3
