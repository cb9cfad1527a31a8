/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-recorder.h"

#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cerrno>
#include <cstring>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRecorder");
NS_OBJECT_ENSURE_REGISTERED(MrcRecorder);

namespace
{

/**
 * @param t a time
 * @return microseconds, as a double
 */
double
Us(Time t)
{
    return t.GetNanoSeconds() / 1000.0;
}

/**
 * @param s free text
 * @return it as one CSV field (quoted when it holds a comma, a quote or a line break)
 */
std::string
CsvField(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
    {
        return s;
    }
    std::string q = "\"";
    for (char c : s)
    {
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return q + "\"";
}

} // namespace

TypeId
MrcRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRecorder")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRecorder>();
    return tid;
}

MrcRecorder::MrcRecorder()
    : m_scheme("run")
    , m_dir(nullptr)
    , m_flowsRecorded(0)
{
}

MrcRecorder::~MrcRecorder() = default;

void
MrcRecorder::DoDispose()
{
    StopSampling();
    Close();
    m_monitor = nullptr;
    Object::DoDispose();
}

bool
MrcRecorder::Open(MrcResultsDir& dir, std::string& error)
{
    m_dir = &dir;
    struct File
    {
        std::ofstream* f;
        const char* name;
        const char* header;
    };

    const File files[] = {
        {&m_flows,
         "flows.csv",
         "scheme,job,step,collective,src,dst,qp,bytes,start_us,end_us,throughput_gbps,job_name"},
        {&m_steps,
         "steps.csv",
         "scheme,job,step,start_us,end_us,duration_us,slowest_rank,job_name"},
        {&m_events, "events.csv", "scheme,time_us,kind,target,state,detail"},
        {&m_links,
         "links.csv",
         "scheme,time_us,plane,tier,utilization,queue_bytes_mean,queue_bytes_max"},
    };
    for (const auto& f : files)
    {
        if (!dir.Begin(f.name, error))
        {
            return false;
        }
        f.f->open(dir.Path(f.name));
        if (!*f.f)
        {
            error = "cannot write '" + dir.Path(f.name) + "': " + std::strerror(errno);
            return false;
        }
        *f.f << f.header << "\n" << std::setprecision(12);
    }
    return true;
}

void
MrcRecorder::SetScheme(const std::string& scheme)
{
    m_scheme = scheme;
}

void
MrcRecorder::AttachJob(Ptr<MrcJob> job)
{
    StringValue name;
    job->GetAttribute("Name", name);
    job->TraceConnectWithoutContext(
        "TransferComplete",
        MakeCallback(&MrcRecorder::OnTransfer, this).Bind(CsvField(name.Get())));
    job->TraceConnectWithoutContext(
        "StepComplete", MakeCallback(&MrcRecorder::OnStep, this).Bind(CsvField(name.Get())));
}

void
MrcRecorder::AttachFaults(Ptr<MrcFaultInjector> faults)
{
    const bool ok
        = faults->TraceConnectWithoutContext("Fault", MakeCallback(&MrcRecorder::OnFault, this));
    NS_ABORT_MSG_UNLESS(ok, "MrcRecorder: no Fault trace source");
}

void
MrcRecorder::AttachEvStates(Ptr<MrcClosTopology> fabric, MrcStackHelper& stack)
{
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = stack.GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            std::ostringstream who;
            who << "host" << h << "/qp" << q;
            l4->GetQueuePair(q)->GetPathSelector()->TraceConnectWithoutContext(
                "EvStateChange", MakeCallback(&MrcRecorder::OnEvState, this).Bind(who.str()));
        }
    }
}

void
MrcRecorder::OnTransfer(std::string name, const MrcTransferRecord& r)
{
    const double gbps = r.GetGbps();
    m_flows << m_scheme << "," << r.job << "," << r.step << "," << r.collectiveType << ","
            << r.srcHost << "," << r.dstHost << "," << r.qp << "," << r.bytes << "," << Us(r.start)
            << "," << Us(r.end) << "," << gbps << "," << name << "\n";
    ++m_flowsRecorded;
}

void
MrcRecorder::OnStep(std::string name, const MrcStepRecord& r)
{
    m_steps << m_scheme << "," << r.job << "," << r.step << "," << Us(r.start) << "," << Us(r.end)
            << "," << Us(r.end - r.start) << "," << r.slowestRank << "," << name << "\n";
}

void
MrcRecorder::OnFault(const MrcFaultEvent& e)
{
    m_events << m_scheme << "," << Us(e.time) << "," << MrcFaultEvent::KindNames().GetName(e.kind)
             << "," << e.target << "," << MrcFaultEvent::StateNames().GetName(e.state) << ",\n";
}

void
MrcRecorder::OnEvState(std::string who, uint16_t ev, uint8_t from, uint8_t to, uint8_t cause)
{
    m_events << m_scheme << "," << Us(Simulator::Now()) << ",ev_state," << who << "/ev" << ev << ","
             << MrcPathSelector::StateName(to) << "," << MrcPathSelector::StateName(from) << "->"
             << MrcPathSelector::StateName(to) << " (" << MrcPathSelector::CauseName(cause)
             << ")\n";
}

void
MrcRecorder::SampleLinks(Ptr<MrcClosTopology> fabric, Time bin)
{
    m_monitor = CreateObject<MrcLinkMonitor>();
    for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
    {
        std::vector<Ptr<MrcNetDevice>> hostUp;
        for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
        {
            hostUp.push_back(fabric->GetHostPort(h, p));
        }
        std::vector<Ptr<MrcNetDevice>> t0Down;
        std::vector<Ptr<MrcNetDevice>> t0Up;
        for (uint32_t i = 0; i < fabric->GetNT0(); ++i)
        {
            Ptr<MrcSwitchNetDevice> sw = fabric->GetT0(p, i);
            for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
            {
                (k < fabric->GetHostsPerT0() ? t0Down : t0Up).push_back(sw->GetPort(k));
            }
        }
        std::vector<Ptr<MrcNetDevice>> t1Down;
        std::vector<Ptr<MrcNetDevice>> t1Up;
        const uint32_t t0PerT1 = fabric->GetNTiers() == 3
                                   ? fabric->GetT1(p, 0)->GetNPorts() - fabric->GetNT2()
                                   : fabric->GetNT0();
        for (uint32_t j = 0; j < fabric->GetNT1(); ++j)
        {
            Ptr<MrcSwitchNetDevice> sw = fabric->GetT1(p, j);
            for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
            {
                (k < t0PerT1 ? t1Down : t1Up).push_back(sw->GetPort(k));
            }
        }
        std::vector<Ptr<MrcNetDevice>> t2Down;
        for (uint32_t k = 0; k < fabric->GetNT2(); ++k)
        {
            Ptr<MrcSwitchNetDevice> sw = fabric->GetT2(p, k);
            for (uint32_t q = 0; q < sw->GetNPorts(); ++q)
            {
                t2Down.push_back(sw->GetPort(q));
            }
        }
        // Empty groups (t1-t2 on two tiers) are left out.
        const std::pair<MrcLinkTier, std::vector<Ptr<MrcNetDevice>>*> groups[]
            = {{MrcLinkTier::HOST_T0, &hostUp},
               {MrcLinkTier::T0_HOST, &t0Down},
               {MrcLinkTier::T0_T1, &t0Up},
               {MrcLinkTier::T1_T0, &t1Down},
               {MrcLinkTier::T1_T2, &t1Up},
               {MrcLinkTier::T2_T1, &t2Down}};
        for (const auto& g : groups)
        {
            if (!g.second->empty())
            {
                m_monitor->AddGroup(p, g.first, std::move(*g.second));
            }
        }
    }
    StartMonitor(bin, double(fabric->GetLinkRate().GetBitRate()));
}

void
MrcRecorder::SampleLinks(Ptr<MrcFluidNetwork> fabric, Time bin)
{
    m_monitor = CreateObject<MrcLinkMonitor>();
    m_monitor->SetFluid(fabric);
    DataRateValue rate;
    fabric->GetAttribute("LinkRate", rate);
    StartMonitor(bin, double(rate.Get().GetBitRate()));
}

void
MrcRecorder::StartMonitor(Time bin, double linkRate)
{
    m_monitor->TraceConnectWithoutContext("LinkSample",
                                          MakeCallback(&MrcRecorder::OnLinkSample, this));
    m_monitor->Start(bin, linkRate);
}

void
MrcRecorder::OnLinkSample(double timeUs,
                          uint32_t plane,
                          MrcLinkTier tier,
                          double util,
                          double queueMean,
                          uint32_t queueMax)
{
    m_links << m_scheme << "," << timeUs << "," << plane << "," << MrcLinkTierNames().GetName(tier)
            << "," << util << "," << queueMean << "," << queueMax << "\n";
}

void
MrcRecorder::StopSampling()
{
    if (m_monitor)
    {
        m_monitor->Stop();
    }
}

bool
MrcRecorder::Close(std::string& error)
{
    bool ok = true;
    const std::pair<std::ofstream*, const char*> files[] = {{&m_flows, "flows.csv"},
                                                            {&m_steps, "steps.csv"},
                                                            {&m_events, "events.csv"},
                                                            {&m_links, "links.csv"}};
    for (const auto& f : files)
    {
        if (!f.first->is_open())
        {
            continue;
        }
        f.first->close();
        if (!*f.first)
        {
            if (ok && m_dir != nullptr)
            {
                error = "cannot write '" + m_dir->Path(f.second) + "': " + std::strerror(errno);
            }
            ok = false;
        }
        else if (m_dir != nullptr && ok && !m_dir->Finish(f.second, error))
        {
            ok = false;
        }
    }
    return ok;
}

void
MrcRecorder::Close()
{
    std::string ignored;
    Close(ignored);
}

uint64_t
MrcRecorder::GetFlowsRecorded() const
{
    return m_flowsRecorded;
}

} // namespace ns3
