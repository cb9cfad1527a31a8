/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-recorder.h"

#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <filesystem>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRecorder");
NS_OBJECT_ENSURE_REGISTERED(MrcRecorder);

namespace
{

/**
 * mkdir -p.
 * @param dir the directory
 * @return true if it exists afterwards
 */
bool
MakeDirs(const std::string& dir)
{
    std::string cur;
    for (std::size_t i = 0; i <= dir.size(); ++i)
    {
        if (i == dir.size() || dir[i] == '/')
        {
            if (!cur.empty())
            {
                mkdir(cur.c_str(), 0755);
            }
        }
        if (i < dir.size())
        {
            cur += dir[i];
        }
    }
    struct stat st;
    return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/**
 * @param t a time
 * @return microseconds, as a double
 */
double
Us(Time t)
{
    return t.GetNanoSeconds() / 1000.0;
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
MrcRecorder::Open(const std::string& dir, bool overwrite, std::string& error)
{
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec) && !std::filesystem::is_empty(dir, ec))
    {
        if (!overwrite)
        {
            error = "'" + dir
                  + "' exists and is not empty (choose another directory, or add "
                    "--overwrite=1 to replace its contents)";
            return false;
        }
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        {
            std::filesystem::remove_all(entry.path(), ec);
            if (ec)
            {
                error = "cannot clear '" + entry.path().string() + "': " + ec.message();
                return false;
            }
        }
    }
    if (!MakeDirs(dir))
    {
        error = "cannot create results directory '" + dir + "'";
        return false;
    }
    struct File
    {
        std::ofstream* f;
        const char* name;
        const char* header;
    };

    const File files[] = {
        {&m_flows,
         "flows.csv",
         "scheme,job,step,collective,src,dst,qp,bytes,start_us,end_us,throughput_gbps"},
        {&m_steps, "steps.csv", "scheme,job,step,start_us,end_us,duration_us,slowest_rank"},
        {&m_events, "events.csv", "scheme,time_us,kind,target,state,detail"},
        {&m_links,
         "links.csv",
         "scheme,time_us,plane,tier,utilization,queue_bytes_mean,queue_bytes_max"},
    };
    for (const auto& f : files)
    {
        f.f->open(dir + "/" + f.name);
        if (!*f.f)
        {
            error = "cannot write '" + dir + "/" + f.name + "'";
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
    job->TraceConnectWithoutContext("TransferComplete",
                                    MakeCallback(&MrcRecorder::OnTransfer, this));
    job->TraceConnectWithoutContext("StepComplete", MakeCallback(&MrcRecorder::OnStep, this));
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
MrcRecorder::OnTransfer(const MrcTransferRecord& r)
{
    const double gbps = r.GetGbps();
    m_flows << m_scheme << "," << r.job << "," << r.step << "," << r.collectiveType << ","
            << r.srcHost << "," << r.dstHost << "," << r.qp << "," << r.bytes << "," << Us(r.start)
            << "," << Us(r.end) << "," << gbps << "\n";
    ++m_flowsRecorded;
}

void
MrcRecorder::OnStep(const MrcStepRecord& r)
{
    m_steps << m_scheme << "," << r.job << "," << r.step << "," << Us(r.start) << "," << Us(r.end)
            << "," << Us(r.end - r.start) << "," << r.slowestRank << "\n";
}

void
MrcRecorder::OnFault(const MrcFaultEvent& e)
{
    m_events << m_scheme << "," << Us(e.time) << "," << e.kind << "," << e.target << "," << e.state
             << ",\n";
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
        const std::pair<const char*, std::vector<Ptr<MrcNetDevice>>*> groups[]
            = {{"host-t0", &hostUp},
               {"t0-host", &t0Down},
               {"t0-t1", &t0Up},
               {"t1-t0", &t1Down},
               {"t1-t2", &t1Up},
               {"t2-t1", &t2Down}};
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
                          const std::string& tier,
                          double util,
                          double queueMean,
                          uint32_t queueMax)
{
    m_links << m_scheme << "," << timeUs << "," << plane << "," << tier << "," << util << ","
            << queueMean << "," << queueMax << "\n";
}

void
MrcRecorder::StopSampling()
{
    if (m_monitor)
    {
        m_monitor->Stop();
    }
}

void
MrcRecorder::Close()
{
    for (auto* f : {&m_flows, &m_steps, &m_events, &m_links})
    {
        if (f->is_open())
        {
            f->close();
        }
    }
}

uint64_t
MrcRecorder::GetFlowsRecorded() const
{
    return m_flowsRecorded;
}

bool
MrcRecorder::WriteRunJson(const std::string& dir,
                          const std::string& program,
                          const std::string& version,
                          uint32_t seed,
                          const std::map<std::string, std::string>& params,
                          const std::map<std::string, std::string>& extra,
                          std::string& error)
{
    nlohmann::ordered_json j;
    j["program"] = program;
    j["version"] = version;
    j["ns3_version"] = "ns-3.37 (Debian libns3-dev) or the enclosing ns-3 tree";
    j["seed"] = seed;
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (const auto& kv : params)
    {
        p[kv.first] = kv.second;
    }
    j["parameters"] = p;
    for (const auto& kv : extra)
    {
        try
        {
            j[kv.first] = nlohmann::ordered_json::parse(kv.second);
        }
        catch (const nlohmann::json::exception&)
        {
            j[kv.first] = kv.second;
        }
    }
    std::ofstream out(dir + "/run.json");
    if (!out)
    {
        error = "cannot write '" + dir + "/run.json'";
        return false;
    }
    out << j.dump(2) << "\n";
    return true;
}

} // namespace ns3
