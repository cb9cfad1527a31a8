/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The quickstart experiment: synchronous training (a ring all-reduce job with step
 * barriers) on a faulty fabric, once with MRC on a multi-plane SRv6 fabric and once with the
 * RoCE-style baseline on a conventional single-plane ECMP fabric of equal host bandwidth.
 *
 * Faults injected mid-run, in both schemes: T0-T1 link flaps (a Poisson process over the
 * tier), one NIC port loss, one T1 reboot. Writes flows.csv, steps.csv, events.csv, links.csv,
 * run.json and PNG plots into results/quickstart-<time>/ and prints a comparison table.
 *
 *   ./ns3 run quickstart
 *   ./ns3 run "quickstart --gpus=32 --steps=2 --out=results/small"
 *   ./ns3 run "quickstart --help"
 */

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/** Everything a run is a function of. */
struct Params
{
    uint32_t gpus = 16;               //!< hosts (one NIC each)
    uint32_t planes = 8;              //!< MRC planes (NIC ports)
    uint32_t hostsPerT0 = 8;          //!< hosts per T0
    uint32_t t1 = 8;                  //!< T1s per plane
    std::string linkRate = "100Gbps"; //!< MRC plane link rate (baseline: planes x this)
    uint64_t linkBps = 0;             //!< linkRate in bits per second, once checked
    uint32_t steps = 3;               //!< training steps
    bool quiet = false;               //!< no setup or progress lines (a background run)
    double computeUs = 50;            //!< compute phase per step
    double jitterUs = 5;              //!< compute jitter per rank
    uint64_t bytes = 64 << 20;        //!< all-reduce buffer
    uint32_t chunks = 1;              //!< chunks per transfer
    uint32_t qpsPerPeer = 1;          //!< queue pairs per peer
    MrcFaultHelper::Options faults{"", "t0-t1", 10, true, 20}; //!< fault file, flap process
    double portLossAtUs = 1000;                                //!< NIC port loss start
    double portLossUs = 800;                                   //!< NIC port loss duration
    uint32_t portLossHost = 5;                                 //!< the host losing a port
    double rebootAtUs = 2500;                                  //!< T1 reboot start
    double rebootUs = 500;                                     //!< T1 reboot duration
    uint32_t rebootT1 = 3;                //!< the T1 that reboots (plane 2 for MRC)
    double detectionUs = 150000;          //!< baseline BFD delay (deployed: 3 x 50 ms)
    double reconvergenceUs = 2000000;     //!< baseline BGP delay (deployed: seconds)
    bool pfc = true;                      //!< baseline fabric lossless (PFC)
    std::string hashing = "resilient";    //!< baseline ECMP hashing
    double binUs = 20;                    //!< links.csv bin
    uint32_t seed = 1;                    //!< seed
    std::string out;                      //!< results directory
    std::string workload;                 //!< JSON workload file (replaces the default job)
    std::string schemes = "mrc,baseline"; //!< which runs
    bool overwrite = false;               //!< replace a non-empty results directory
    bool reference = true;                //!< also run each scheme with the NIC port loss only
    uint32_t jobs = 1;                    //!< simulations at once (2 or more: references forked)
    bool withReboot = true;               //!< schedule the T1 reboot (off in reference runs)
    bool plots = true;                    //!< make the PNG plots
    std::string model = "packet";         //!< packet or fluid
    std::string collective = "ring";      //!< ring or hierarchical all-reduce
};

/** What one scheme's run produced, for the table. */
struct Summary
{
    std::string scheme;                    //!< name
    std::vector<double> steps;             //!< step durations (us)
    std::vector<double> flowGbps;          //!< per-transfer throughput
    uint64_t retx = 0;                     //!< retransmissions
    uint64_t spurious = 0;                 //!< retransmissions found unnecessary
    uint64_t timeouts = 0;                 //!< retransmission timer expiries
    uint64_t trims = 0;                    //!< trimmed packets
    std::map<std::string, uint64_t> drops; //!< packets lost, by where and why (packet level)
    uint64_t retirements = 0;              //!< EV transitions to ASSUMED_BAD
    uint64_t failed = 0;                   //!< failed transfers
    uint64_t failedQps = 0;                //!< queue pairs in the error state
    uint64_t failedJobs = 0;               //!< jobs that failed
    uint64_t pauses = 0;                   //!< PFC PAUSE frames sent (switch ports)
    double pausedMs = 0;                   //!< time paused, summed over every port (ms)
    double rtoUs = 0;                      //!< the retransmission timeout in force (us)
    uint32_t retryLimit = 0;               //!< the retry budget in force
    uint32_t stepsDone = 0;                //!< steps completed
    double wall = 0;                       //!< wall seconds
    uint64_t events = 0;                   //!< simulator events
    double simUs = 0;                      //!< simulated time
    double refMean = NAN;                  //!< mean step of the port-loss-only reference run
    double refStalls = NAN;                //!< its steps over StallUs
    double refLongest = NAN;               //!< its longest step (us)
    bool fluid = false;                    //!< flow level: no packet counters
    std::vector<std::string> warnings;     //!< faults that could not act (MrcFaultHelper)
};

/** A step at least this long (us) is a stall: a timeout, not the faults' cost, sets its mean. */
constexpr double StallUs = 1e6;

/**
 * @param steps step durations (us)
 * @return the steps of at least StallUs
 */
double
Stalls(const std::vector<double>& steps)
{
    return double(std::count_if(steps.begin(),
                                steps.end(),
                                [](double d)
                                {
                                    return d >= StallUs;
                                }));
}

/**
 * Count retirements.
 * @param n counter
 * @param ev EV
 * @param from old state
 * @param to new state
 * @param cause cause
 */
void
CountRetirement(uint64_t* n, uint16_t /* ev */, uint8_t /* from */, uint8_t to, uint8_t /* cause */)
{
    *n += (to == MrcPathSelector::ASSUMED_BAD) ? 1 : 0;
}

/**
 * @param us microseconds
 * @return a Time
 */
Time
Us(double us)
{
    return NanoSeconds(static_cast<int64_t>(us * 1000));
}

/**
 * Schedule the run's faults: the NIC port loss, the T1 reboot (unless a reference run), the
 * fault file and the flap process, on either model's fabric.
 * @param prm parameters
 * @param baseline the baseline's fabric
 * @param faults the fault helper, on the fabric
 * @param err set on failure
 * @return false on a bad fault option or file
 */
bool
AddFaults(const Params& prm, bool baseline, Ptr<MrcFaultHelper> faults, std::string& err)
{
    const std::string scheme = baseline ? "baseline" : "mrc";
    const uint32_t portPlane = baseline ? 0 : std::min(3u, prm.planes - 1);
    const uint32_t rebootPlane = baseline ? 0 : std::min(2u, prm.planes - 1);
    if (!faults->GetInjector()->Schedule(Us(prm.portLossAtUs),
                                         MrcFaultAction::NIC_PORT_DOWN,
                                         MrcFaultTargetId::NicPort(prm.portLossHost, portPlane),
                                         Us(prm.portLossUs),
                                         err)
        || (prm.withReboot
            && !faults->GetInjector()->Schedule(
                Us(prm.rebootAtUs),
                MrcFaultAction::SWITCH_REBOOT,
                MrcFaultTargetId::Switch(rebootPlane, 1, prm.rebootT1),
                Us(prm.rebootUs),
                err)))
    {
        err = "fault setup: " + err;
        return false;
    }
    if (!faults->ApplyOptions(prm.faults, err))
    {
        err += " (" + scheme + " fabric)";
        return false;
    }
    return true;
}

/**
 * Run the simulation until every job is done, with a progress line, and collect the jobs'
 * steps, per-transfer throughputs, failures and the simulator's figures (not the wall time).
 * The same for MrcTrainingJob and MrcFluidJob, whose records and counters have the same names.
 * @tparam Job the job class
 * @param jobs the jobs (installed and started)
 * @param rec the recorder (null for a reference run): its link sampling stops with the jobs
 * @param label the progress line's label
 * @param s the summary to fill
 */
template<typename Job>
void
RunJobs(std::vector<Ptr<Job>>& jobs, Ptr<MrcRecorder> rec, const std::string& label, Summary& s)
{
    // Stop when every job is done (link sampling would otherwise keep the run going).
    uint32_t remaining = static_cast<uint32_t>(jobs.size());
    for (auto& job : jobs)
    {
        job->TraceConnectWithoutContext(
            "JobComplete",
            MakeCallback(+[](uint32_t* left, Ptr<MrcRecorder> r, uint32_t, uint32_t, uint64_t)
                         {
                             if (--*left == 0)
                             {
                                 if (r)
                                 {
                                     r->StopSampling();
                                 }
                                 Simulator::Stop();
                             }
                         })
                .Bind(&remaining, rec));
    }
    Ptr<MrcProgress> progress = CreateObject<MrcProgress>();
    uint64_t stepsPlanned = 0;
    for (auto& job : jobs)
    {
        UintegerValue n;
        job->GetAttribute("Steps", n);
        stepsPlanned += n.Get();
    }
    // The fraction done counts transfers, so the ETA moves within a step too.
    progress->SetFraction(MakeBoundCallback(
                              +[](const std::vector<Ptr<Job>>* js)
                              {
                                  double done = 0;
                                  double total = 0;
                                  for (const auto& j : *js)
                                  {
                                      UintegerValue n;
                                      j->GetAttribute("Steps", n);
                                      done += j->GetTransfersCompleted();
                                      total += double(j->GetTransfersPerStep()) * n.Get();
                                  }
                                  return total > 0 ? done / total : 0.0;
                              },
                              &jobs),
                          "steps",
                          stepsPlanned);
    if (!label.empty())
    {
        progress->Start(label, &std::cerr);
    }
    // A safety net far beyond any sane run: a baseline QP whose retries all time out fails
    // after 8 x 4.3 s, and its job with it.
    Simulator::Stop(Seconds(3600));
    MrcInterrupt::Watch(); // SIGINT/SIGTERM stop the run at the next 20 us of simulated time
    Simulator::Run();
    s.events = Simulator::GetEventCount();
    s.simUs = Simulator::Now().GetNanoSeconds() / 1000.0;
    if (rec)
    {
        rec->StopSampling();
    }
    progress->Stop();
    for (auto& job : jobs)
    {
        for (const auto& r : job->GetStepRecords())
        {
            s.steps.push_back((r.end - r.start).GetNanoSeconds() / 1000.0);
        }
        for (const auto& r : job->GetTransferRecords())
        {
            if (r.status == MrcQueuePair::SUCCESS && r.GetGbps() > 0)
            {
                s.flowGbps.push_back(r.GetGbps());
            }
        }
        s.failed += job->GetFailedTransfers();
        s.failedJobs += job->IsFailed() ? 1 : 0;
        s.stepsDone += job->GetStepsCompleted();
    }
}

/**
 * Begin a run: its summary, the seed, the recorder's scheme.
 * @param prm parameters
 * @param baseline the baseline scheme
 * @param rec the recorder or null
 * @param dryRun only checking
 * @return the summary to fill
 */
Summary
StartRun(const Params& prm, bool baseline, Ptr<MrcRecorder> rec, bool dryRun)
{
    Summary s;
    s.scheme = baseline ? "baseline" : "mrc";
    RngSeedManager::SetSeed(prm.seed);
    RngSeedManager::SetRun(1);
    if (!dryRun && rec)
    {
        rec->SetScheme(s.scheme);
    }
    return s;
}

/**
 * Give the default job (no --workload) its steps, compute phase and ranks, in either model.
 * @param prm parameters
 * @param job the job
 * @return the collective it runs every step
 */
MrcCollective::Type
ConfigureJob(const Params& prm, Ptr<MrcJob> job)
{
    job->SetAttribute("Steps", UintegerValue(prm.steps));
    job->SetAttribute("ComputeTime", TimeValue(Us(prm.computeUs)));
    job->SetAttribute("ComputeJitter", TimeValue(Us(prm.jitterUs)));
    std::vector<uint32_t> ranks(prm.gpus);
    std::iota(ranks.begin(), ranks.end(), 0);
    job->SetRanks(ranks);
    return prm.collective == "hierarchical" ? MrcCollective::HIERARCHICAL_ALLREDUCE
                                            : MrcCollective::RING_ALLREDUCE;
}

/**
 * What both models do between building the jobs and running them: keep records, assign the
 * jobs' and the faults' random streams, schedule the faults, and attach the recorder.
 * @param prm parameters
 * @param baseline the baseline scheme
 * @param jobs the jobs
 * @param faults the fault helper (installed)
 * @param rec the recorder or null
 * @param stream the next free random stream (advanced)
 * @param dryRun only checking
 * @param error set when the fault options or file are bad
 * @return false when the run ends here (a bad fault option, or a dry run)
 */
template<typename Job>
bool
ArmRun(const Params& prm,
       bool baseline,
       std::vector<Ptr<Job>>& jobs,
       Ptr<MrcFaultHelper> faults,
       Ptr<MrcRecorder> rec,
       int64_t& stream,
       bool dryRun,
       std::string* error)
{
    for (auto& job : jobs)
    {
        job->SetAttribute("KeepRecords", BooleanValue(true));
        stream += job->AssignStreams(stream);
    }
    stream += faults->AssignStreams(stream);
    std::string err;
    if (!AddFaults(prm, baseline, faults, err))
    {
        *error = err;
        Simulator::Destroy();
        return false;
    }
    if (dryRun)
    {
        Simulator::Destroy();
        return false;
    }
    if (rec)
    {
        for (auto& job : jobs)
        {
            rec->AttachJob(job);
        }
        rec->AttachFaults(faults->GetInjector());
    }
    return true;
}

/**
 * The scheme builder for one of the two runs: MRC on the planes, or the RoCE baseline on one
 * plane of the same host bandwidth (MrcSchemeHelper), with the run's baseline options.
 * @param prm parameters
 * @param baseline the baseline
 * @return the builder, configured
 */
Ptr<MrcSchemeHelper>
MakeScheme(const Params& prm, bool baseline)
{
    Ptr<MrcSchemeHelper> scheme = CreateObject<MrcSchemeHelper>();
    scheme->SetAttribute("Scheme", StringValue(baseline ? "roce" : "mrc"));
    scheme->SetAttribute("Hosts", UintegerValue(prm.gpus));
    scheme->SetAttribute("Planes", UintegerValue(prm.planes));
    scheme->SetAttribute("PlaneRate", DataRateValue(DataRate(prm.linkBps)));
    scheme->SetAttribute("HostsPerT0", UintegerValue(prm.hostsPerT0));
    scheme->SetAttribute("T1sPerPlane", UintegerValue(prm.t1));
    scheme->SetAttribute("Pfc", BooleanValue(prm.pfc));
    if (baseline)
    {
        scheme->SetControlPlaneAttribute("DetectionDelay", TimeValue(Us(prm.detectionUs)));
        scheme->SetControlPlaneAttribute("ReconvergenceDelay", TimeValue(Us(prm.reconvergenceUs)));
        scheme->SetSwitchAttribute("EcmpHashing", StringValue(prm.hashing));
    }
    return scheme;
}

/**
 * Run one scheme at packet level.
 * @param prm parameters
 * @param baseline run the RoCE-style baseline
 * @param rec the recorder (null: record nothing, as for reference runs)
 * @param dryRun only build and check the workload and fault files, then stop
 * @param error set when a file or parameter is bad
 * @return the summary
 */
Summary
RunScheme(const Params& prm, bool baseline, Ptr<MrcRecorder> rec, bool dryRun, std::string* error)
{
    Summary s = StartRun(prm, baseline, rec, dryRun);
    Ptr<MrcSchemeHelper> scheme = MakeScheme(prm, baseline);
    // An --ns3::...=value the fabric cannot be built with (Tiers, queue limits, ...).
    if (const std::string bad = scheme->Validate(); !bad.empty())
    {
        *error = bad;
        return s;
    }
    Ptr<MrcClosTopology> fabric = scheme->Build();
    MrcStackHelper& stack = scheme->GetStack();
    // Streams before any queue pair exists: a path selector draws its EV order when its queue
    // pair is connected (at job installation), and that draw must not come from an automatic
    // stream, whose number depends on what ran before in this process.
    int64_t stream = 1;
    stream += scheme->AssignStreams(stream);
    // The NIC ports' receive loss (a fault file's nic_rx_loss): a block of its own, far from
    // the streams counted up from 1.
    scheme->AssignNicStreams(int64_t(3) << 40);

    std::vector<Ptr<MrcTrainingJob>> jobs;
    std::string err;
    if (prm.workload.empty())
    {
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        const MrcCollective::Type type = ConfigureJob(prm, job);
        job->AddCollective(type, prm.bytes, prm.chunks, prm.qpsPerPeer, prm.hostsPerT0);
        job->Install(fabric);
        job->Start(Time(0));
        jobs.push_back(job);
    }
    else
    {
        std::vector<MrcJobSpec> specs;
        MrcWorkloadFile wf;
        wf.AssignStreams(int64_t(1) << 40); // far from the streams counted up from 1 below
        if (!MrcWorkloadFile::LoadFile(prm.workload, specs, err)
            || !wf.CreateJobs(specs, stack, fabric->GetNHosts(), jobs, err))
        {
            *error = "--workload: " + err;
            Simulator::Destroy();
            return s;
        }
    }

    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->Install(fabric);
    if (!ArmRun(prm, baseline, jobs, faults, rec, stream, dryRun, error))
    {
        return s;
    }
    if (rec)
    {
        rec->AttachEvStates(fabric, stack);
        rec->SampleLinks(fabric, Us(prm.binUs));
    }
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = stack.GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            l4->GetQueuePair(q)->GetPathSelector()->TraceConnectWithoutContext(
                "EvStateChange", MakeBoundCallback(&CountRetirement, &s.retirements));
        }
    }
    const std::string label = prm.quiet ? "" : rec ? s.scheme : s.scheme + "-ref";
    if (!prm.quiet)
    {
        std::cerr << "[" << label << "] " << fabric->GetNPlanes() << " plane(s), "
                  << fabric->GetNHosts() << " GPUs, " << fabric->GetSwitches().GetN()
                  << " switches, " << jobs.size() << " job(s)" << std::endl;
    }
    const auto t0 = std::chrono::steady_clock::now();
    RunJobs(jobs, rec, label, s);
    s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = stack.GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            Ptr<MrcQueuePair> qp = l4->GetQueuePair(q);
            s.retx += qp->GetRetransmissions();
            s.spurious += qp->GetSpuriousRetransmissions();
            s.timeouts += qp->GetTimeouts();
            s.failedQps += qp->IsInError() ? 1 : 0;
            if (s.rtoUs == 0)
            {
                TimeValue unit;
                UintegerValue exp;
                UintegerValue retries;
                qp->GetAttribute("AckTimeoutUnit", unit);
                qp->GetAttribute("AckTimeoutExponent", exp);
                qp->GetAttribute("RetryLimit", retries);
                s.rtoUs = unit.Get().GetNanoSeconds() / 1000.0 * double(uint64_t(1) << exp.Get());
                s.retryLimit = static_cast<uint32_t>(retries.Get());
            }
        }
        for (uint32_t p = 0; p < fabric->GetNPlanes(); ++p)
        {
            s.pausedMs += fabric->GetHostPort(h, p)->GetPausedTime().GetSeconds() * 1e3;
        }
    }
    const NodeContainer switches = fabric->GetSwitches();
    for (uint32_t n = 0; n < switches.GetN(); ++n)
    {
        Ptr<MrcSwitchNetDevice> sw = DynamicCast<MrcSwitchNetDevice>(switches.Get(n)->GetDevice(0));
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            s.pauses += sw->GetPort(p)->GetPausesSent();
            s.pausedMs += sw->GetPort(p)->GetPausedTime().GetSeconds() * 1e3;
        }
    }
    s.trims = fabric->GetTrimmedTotal();
    s.drops = fabric->GetDropsByReason();
    if (rec)
    {
        s.warnings = faults->CheckScheduled(Simulator::Now());
    }
    Simulator::Destroy();
    return s;
}

/**
 * Run one scheme at flow level (--model=fluid): the same fabric description, workload, fault
 * schedule and records, with MrcFluidNetwork and MrcFluidJob.
 * @param prm parameters
 * @param baseline run the baseline scheme
 * @param rec the recorder (null: record nothing)
 * @param dryRun only build and check, then stop
 * @param error set when a file or parameter is bad
 * @return the summary
 */
Summary
RunSchemeFluid(
    const Params& prm, bool baseline, Ptr<MrcRecorder> rec, bool dryRun, std::string* error)
{
    Summary s = StartRun(prm, baseline, rec, dryRun);
    s.fluid = true;
    const auto wallStart = std::chrono::steady_clock::now();
    Ptr<MrcSchemeHelper> scheme = MakeScheme(prm, baseline);
    if (const std::string bad = scheme->ValidateFluid(); !bad.empty())
    {
        *error = bad;
        return s;
    }
    Ptr<MrcFluidNetwork> net = scheme->BuildFluid();
    int64_t stream = 1;
    stream += net->AssignStreams(stream);

    std::vector<Ptr<MrcFluidJob>> jobs;
    std::string err;
    if (prm.workload.empty())
    {
        Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
        const MrcCollective::Type type = ConfigureJob(prm, job);
        job->AddCollective(type, prm.bytes, prm.chunks, prm.hostsPerT0);
        job->Install(net);
        job->Start(Time(0));
        jobs.push_back(job);
    }
    else
    {
        std::vector<MrcJobSpec> specs;
        MrcWorkloadFile wf;
        wf.AssignStreams(int64_t(1) << 40);
        if (!MrcWorkloadFile::LoadFile(prm.workload, specs, err)
            || !wf.CreateFluidJobs(specs, net, jobs, err))
        {
            *error = "--workload: " + err;
            Simulator::Destroy();
            return s;
        }
    }
    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->Install(net);
    if (!ArmRun(prm, baseline, jobs, faults, rec, stream, dryRun, error))
    {
        return s;
    }
    if (rec)
    {
        rec->SampleLinks(net, Us(prm.binUs));
    }
    const std::string label = prm.quiet ? "" : (rec ? s.scheme : s.scheme + "-ref") + " fluid";
    if (!prm.quiet)
    {
        std::cerr << "[" << label << "] " << net->GetNPlanes() << " plane(s), " << net->GetNHosts()
                  << " GPUs, " << net->GetNPlanes() * (net->GetNT0() + net->GetNT1())
                  << " switches, " << jobs.size() << " job(s)" << std::endl;
    }
    RunJobs(jobs, rec, label, s);
    // Setup included: building a large flow-level fabric costs as much as running it.
    s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    if (baseline)
    {
        TimeValue rto;
        UintegerValue retries;
        net->GetAttribute("AckTimeout", rto);
        net->GetAttribute("RetryLimit", retries);
        s.rtoUs = rto.Get().GetNanoSeconds() / 1000.0;
        s.retryLimit = static_cast<uint32_t>(retries.Get());
    }
    else
    {
        // Not modelled at flow level (no timeouts): the transport's deployed value, for the
        // scaling statement.
        Ptr<MrcQueuePair> qp = CreateObject<MrcQueuePair>();
        TimeValue unit;
        UintegerValue exp;
        qp->GetAttribute("AckTimeoutUnit", unit);
        qp->GetAttribute("AckTimeoutExponent", exp);
        s.rtoUs = unit.Get().GetNanoSeconds() / 1000.0 * double(uint64_t(1) << exp.Get());
    }
    if (!prm.quiet)
    {
        std::cerr << "[" << label << "] " << net->GetRecomputations() << " rate computations, "
                  << std::fixed << std::setprecision(1) << s.wall << " s" << std::endl;
    }
    if (rec)
    {
        s.warnings = faults->CheckScheduled(Simulator::Now());
    }
    Simulator::Destroy();
    return s;
}

/**
 * Run one scheme in the chosen model.
 * @param prm parameters
 * @param baseline the baseline
 * @param rec recorder or null
 * @param dryRun only check
 * @param error set on a bad file or parameter
 * @return the summary
 */
Summary
RunAny(const Params& prm, bool baseline, Ptr<MrcRecorder> rec, bool dryRun, std::string* error)
{
    return prm.model == "fluid" ? RunSchemeFluid(prm, baseline, rec, dryRun, error)
                                : RunScheme(prm, baseline, rec, dryRun, error);
}

using Stats = MrcStats; //!< the statistics, as the analysis scripts compute them

/**
 * Print the comparison table.
 * @param runs the summaries
 * @param refLabel what the reference runs kept ("NIC port loss only")
 * @param extraLabel what the main runs added ("flaps + reboot")
 */
void
PrintTable(const std::vector<Summary>& runs,
           const std::string& refLabel,
           const std::string& extraLabel)
{
    std::cout << "\n" << std::left << std::setw(34) << "metric";
    for (const auto& r : runs)
    {
        std::cout << std::right << std::setw(14) << r.scheme;
    }
    std::cout << "\n";
    auto row = [&runs](const std::string& name, auto get, int prec)
    {
        std::cout << std::left << std::setw(34) << name;
        for (const auto& r : runs)
        {
            const double v = get(r);
            std::cout << std::right << std::setw(14);
            if (std::isnan(v))
            {
                std::cout << "-"; // not measured (no reference run, no successful transfer)
            }
            else if (std::isinf(v))
            {
                std::cout << "stall"; // a stall sets the mean: see the note under the table
            }
            else
            {
                std::cout << std::fixed << std::setprecision(prec) << v;
            }
        }
        std::cout << "\n";
    };
    row(
        "steps completed",
        [](const Summary& r)
        {
            return double(r.stepsDone);
        },
        0);
    row(
        "step time mean (us)",
        [](const Summary& r)
        {
            return Stats::Mean(r.steps);
        },
        1);
    row(
        "mean step, " + refLabel + " (us)",
        [](const Summary& r)
        {
            return r.refMean;
        },
        1);
    row(
        "steps over 1 s",
        [](const Summary& r)
        {
            return Stalls(r.steps);
        },
        0);
    row(
        "steps over 1 s, " + refLabel,
        [](const Summary& r)
        {
            return r.refStalls;
        },
        0);
    row(
        "inflation from " + extraLabel + " (%)",
        [](const Summary& r)
        {
            if (Stalls(r.steps) > 0 || r.refStalls > 0)
            {
                return double(INFINITY); // the stall's length, not the faults' cost
            }
            return (Stats::Mean(r.steps) / r.refMean - 1) * 100;
        },
        2);
    row(
        "step time p99 (us)",
        [](const Summary& r)
        {
            return Stats::Quantile(r.steps, 0.99);
        },
        1);
    row(
        "step time max (us)",
        [](const Summary& r)
        {
            return Stats::Quantile(r.steps, 1.0);
        },
        1);
    row(
        "slowest flow (Gbps)",
        [](const Summary& r)
        {
            return Stats::Quantile(r.flowGbps, 0.0);
        },
        1);
    row(
        "median flow (Gbps)",
        [](const Summary& r)
        {
            return Stats::Quantile(r.flowGbps, 0.5);
        },
        1);
    row(
        "flow throughput CoV",
        [](const Summary& r)
        {
            return Stats::Cov(r.flowGbps);
        },
        3);
    row(
        "failed transfers",
        [](const Summary& r)
        {
            return double(r.failed);
        },
        0);
    row(
        "failed QPs",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.failedQps); // packet level only
        },
        0);
    row(
        "failed jobs",
        [](const Summary& r)
        {
            return double(r.failedJobs);
        },
        0);
    row(
        "PFC pauses sent",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.pauses); // packet level only
        },
        0);
    row(
        "time paused, all ports (ms)",
        [](const Summary& r)
        {
            return r.fluid ? NAN : r.pausedMs; // packet level only
        },
        3);
    row(
        "retransmissions",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.retx); // packet level only
        },
        0);
    row(
        "spurious retransmissions",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.spurious); // packet level only
        },
        0);
    row(
        "retransmission timeouts",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.timeouts); // packet level only
        },
        0);
    row(
        "trims",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.trims); // packet level only
        },
        0);
    row(
        "EV retirements",
        [](const Summary& r)
        {
            return r.fluid ? NAN : double(r.retirements); // packet level only
        },
        0);
    // Every packet lost, by where and why (MrcClosTopology::GetDropsByReason): the reasons
    // any run had, so that a loss nothing explains shows.
    std::set<std::string> reasons;
    for (const auto& r : runs)
    {
        for (const auto& kv : r.drops)
        {
            reasons.insert(kv.first);
        }
    }
    row(
        "packets lost (all reasons)",
        [](const Summary& r)
        {
            uint64_t n = 0;
            for (const auto& kv : r.drops)
            {
                n += kv.second;
            }
            return r.fluid ? NAN : double(n); // packet level only
        },
        0);
    for (const auto& reason : reasons)
    {
        row(
            "  lost: " + reason,
            [&reason](const Summary& r)
            {
                const auto it = r.drops.find(reason);
                return r.fluid ? NAN : double(it == r.drops.end() ? 0 : it->second);
            },
            0);
    }
    row(
        "wall time (s)",
        [](const Summary& r)
        {
            return r.wall;
        },
        1);
    // What a "stall" cell stands for, per scheme: the stalls, their length and, when a
    // retransmission timer of a second or more expired, that timer.
    for (const auto& r : runs)
    {
        const double main = Stalls(r.steps);
        if (main == 0 && !(r.refStalls > 0))
        {
            continue;
        }
        std::cout << std::defaultfloat << std::setprecision(4) << r.scheme << ": " << main
                  << " step(s) over 1 s";
        if (main > 0)
        {
            std::cout << " (longest " << Stats::Quantile(r.steps, 1.0) / 1e6 << " s";
            if (r.timeouts > 0 && r.rtoUs >= StallUs)
            {
                std::cout << "; " << r.timeouts << " retransmission timeout(s) of " << r.rtoUs / 1e6
                          << " s";
            }
            std::cout << ")";
        }
        if (!std::isnan(r.refStalls))
        {
            std::cout << ", " << r.refStalls << " in the " << refLabel << " reference";
            if (r.refStalls > 0)
            {
                std::cout << " (longest " << r.refLongest / 1e6 << " s)";
            }
        }
        std::cout << ": its mean step is set by the stall, so no inflation is given\n";
    }
}

/**
 * @param name option
 * @param ok condition
 * @param what accepted values
 * @return ok
 */
bool
Check(const std::string& name, bool ok, const std::string& what)
{
    if (!ok)
    {
        std::cerr << "error: --" << name << " " << what << std::endl;
    }
    return ok;
}

} // namespace

/**
 * @param prm the parameters of a run
 * @return those of its reference run: the same with the NIC port loss only (no flaps, no
 *         reboot, no fault file), to measure what the other faults cost
 */
Params
ReferenceParams(const Params& prm)
{
    Params ref = prm;
    ref.faults.tier = "none";
    ref.faults.file.clear();
    ref.withReboot = false;
    return ref;
}

/**
 * What the reference runs keep and what the main runs add, from the faults that run.
 * @param prm the parameters
 * @param refLabel set to the reference's faults ("NIC port loss only": the reference always
 *        keeps the port loss; --portLossUs=0 keeps the port down until the end)
 * @param extraLabel set to what the main runs add ("flaps + T1 reboot + fault file"), or ""
 *        if nothing (then the reference would be the same run)
 */
void
FaultLabels(const Params& prm, std::string& refLabel, std::string& extraLabel)
{
    refLabel = "NIC port loss only";
    std::vector<std::string> extra;
    if (!prm.faults.tier.empty() && prm.faults.tier != "none" && prm.faults.rate > 0)
    {
        extra.push_back(prm.faults.tier + " flaps");
    }
    if (prm.withReboot) // --rebootUs=0: down until the end, still a reboot
    {
        extra.push_back("T1 reboot");
    }
    if (!prm.faults.file.empty())
    {
        extra.push_back("fault file");
    }
    extraLabel.clear();
    for (const auto& e : extra)
    {
        extraLabel += (extraLabel.empty() ? "" : " + ") + e;
    }
}

/** The reference runs (NIC port loss only) running in a second process. */
struct ReferenceProcess
{
    pid_t pid = -1; //!< the child, or -1 if none was started
    int fd = -1;    //!< the read end of its pipe
};

/**
 * Start the reference runs of the given schemes (the same runs with the NIC port loss only) in
 * a second process, so that they use the second core while this one runs the main simulations.
 * They are independent simulations with their own random streams, so the results are the same
 * as running them here afterwards. The child writes one line per scheme, "<scheme> <mean step
 * in us>", or "error <text>", to a pipe.
 * @param prm the parameters
 * @param schemes the schemes to run
 * @return the process, or pid -1 if it could not be started (then run them here)
 */
ReferenceProcess
StartReferences(const Params& prm, const std::vector<std::string>& schemes)
{
    ReferenceProcess rp;
    int fds[2];
    if (schemes.empty() || pipe(fds) != 0)
    {
        return rp;
    }
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid < 0)
    {
        close(fds[0]);
        close(fds[1]);
        return rp;
    }
    if (pid == 0)
    {
        // The parent stops this process (SIGTERM) when it is interrupted.
        MrcInterrupt::ResetInChild();
        close(fds[0]);
        std::ostringstream out;
        out << std::setprecision(17);
        for (const auto& scheme : schemes)
        {
            Params ref = ReferenceParams(prm);
            ref.quiet = true;
            std::string err;
            const Summary r = RunAny(ref, scheme == "baseline", nullptr, false, &err);
            if (!err.empty())
            {
                out << "error " << err << "\n";
                break;
            }
            out << scheme << " " << Stats::Mean(r.steps) << " " << Stalls(r.steps) << " "
                << Stats::Quantile(r.steps, 1.0) << "\n";
        }
        const std::string text = out.str();
        std::size_t done = 0;
        while (done < text.size())
        {
            const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
            if (n <= 0)
            {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        close(fds[1]);
        _exit(0); // no static destructors or buffered output of the parent's twice
    }
    close(fds[1]);
    MrcInterrupt::AddChild(pid);
    rp.pid = pid;
    rp.fd = fds[0];
    return rp;
}

/**
 * Wait for the reference process and read its results.
 * @param rp the process
 * @param means filled with each scheme's mean step, steps over StallUs and longest step
 * @param err set if the process failed
 */
void
WaitReferences(ReferenceProcess& rp,
               std::map<std::string, std::vector<double>>& means,
               std::string& err)
{
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(rp.fd, buf, sizeof(buf))) > 0)
    {
        text.append(buf, static_cast<std::size_t>(n));
    }
    close(rp.fd);
    int status = 0;
    while (waitpid(rp.pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    MrcInterrupt::RemoveChild(rp.pid);
    rp.pid = -1;
    std::istringstream in(text);
    std::string scheme;
    while (in >> scheme)
    {
        if (scheme == "error")
        {
            std::getline(in, err);
            err = "reference run:" + err;
            return;
        }
        std::vector<double> v(3, NAN);
        in >> v[0] >> v[1] >> v[2];
        means[scheme] = v;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        err = "the reference runs' process failed (status " + std::to_string(status) + ")";
    }
}

int
main(int argc, char* argv[])
{
    // Fix the time resolution (ns, ns-3's default) before building anything: until it is
    // fixed, ns-3 records every Time object in a global set (a tree insertion per Time member
    // of every device, queue and queue pair).
    Time::SetResolution(Time::NS);
    Params prm;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Synchronous training on a faulty fabric: MRC (multi-plane SRv6, packet spray) "
              "versus the RoCE baseline as deployed (single-plane ECMP with resilient hashing, "
              "PFC, one path per QP, go-back-N, DCQCN, InfiniBand timeouts). Writes CSVs, "
              "run.json and plots into a results directory.");
    cmd.AddValue("gpus", "GPUs (hosts, one NIC each)", prm.gpus);
    cmd.AddValue("planes", "MRC planes: NIC ports per host", prm.planes);
    cmd.AddValue("hostsPerT0", "Hosts per T0 switch", prm.hostsPerT0);
    cmd.AddValue("t1", "T1 switches per plane", prm.t1);
    cmd.AddValue(
        "linkRate", "MRC plane link rate; the baseline's links run at planes x this", prm.linkRate);
    cmd.AddValue("steps", "Training steps", prm.steps);
    cmd.AddValue("computeUs", "Compute phase per step, microseconds", prm.computeUs);
    cmd.AddValue("jitterUs", "Compute jitter per rank and step, microseconds", prm.jitterUs);
    cmd.AddValue("bytes", "All-reduce buffer, bytes", prm.bytes);
    cmd.AddValue("chunks", "Chunks per ring transfer", prm.chunks);
    cmd.AddValue("qpsPerPeer", "Queue pairs per ring neighbour", prm.qpsPerPeer);
    cmd.AddValue("portLossAtUs", "NIC port loss start, microseconds", prm.portLossAtUs);
    cmd.AddValue("portLossUs", "NIC port loss duration, microseconds", prm.portLossUs);
    cmd.AddValue("portLossHost", "Host that loses a NIC port", prm.portLossHost);
    cmd.AddValue("rebootAtUs", "T1 reboot start, microseconds", prm.rebootAtUs);
    cmd.AddValue("rebootUs", "T1 reboot duration, microseconds", prm.rebootUs);
    cmd.AddValue("rebootT1", "T1 that reboots", prm.rebootT1);
    cmd.AddValue("detectionUs",
                 "Baseline: BFD-like detection delay, microseconds (deployed value)",
                 prm.detectionUs);
    cmd.AddValue("reconvergenceUs",
                 "Baseline: BGP-like reconvergence delay, microseconds (deployed value)",
                 prm.reconvergenceUs);
    cmd.AddValue("pfc", "Baseline: lossless fabric with PFC (0: lossy, drops are real)", prm.pfc);
    cmd.AddValue("ecmpHashing",
                 "Baseline: ECMP on member loss, resilient (only that member's flows move) or "
                 "modulo (every flow rehashed)",
                 prm.hashing);
    cmd.AddValue("binUs", "links.csv time bin, microseconds", prm.binUs);
    cmd.AddValue("seed", "Random seed", prm.seed);
    cmd.SetRange("seed", 1, 4294967086); // MRG32k3a's seeds
    cmd.AddValue("out", "Results directory (default results/quickstart-<time>)", prm.out);
    cmd.AddValue("overwrite",
                 "Clear --out first if it exists and is not empty (otherwise that is an error)",
                 prm.overwrite);
    cmd.AddValue("workload",
                 "JSON workload file (docs/workloads.md) replacing the default ring all-reduce job",
                 prm.workload);
    MrcFaultHelper::AddCommandLineOptions(cmd, prm.faults);
    cmd.AddValue("schemes", "Which runs: mrc,baseline | mrc | baseline", prm.schemes);
    cmd.AddValue("plots", "Make the PNG plots (needs /usr/bin/python3 and matplotlib)", prm.plots);
    cmd.AddValue("model",
                 "packet (the module's devices and transport) or fluid (flow level: max-min fair "
                 "rates over the same fabric, workload and faults; MrcFluidNetwork)",
                 prm.model);
    cmd.AddValue("collective",
                 "The default job's all-reduce: ring, or hierarchical (reduce-scatter within each "
                 "T0's hosts, all-reduce across T0s, all-gather)",
                 prm.collective);
    cmd.AddValue("reference",
                 "Also run each scheme with the NIC port loss only (no flaps, no reboot, no "
                 "fault file) and report the step-time inflation the other faults cause",
                 prm.reference);
    if (!cmd.AddJobs("Simulations run at once (default MRC_JOBS, else the CPU count): from 2, "
                     "the reference runs go to a second process beside the main ones; 1 runs "
                     "them here afterwards (the results do not depend on it)",
                     prm.jobs))
    {
        return 1;
    }
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }

    // Times in microseconds: up to 1e9 us (1000 s), so that every one is exact in ns-3's Time.
    const double maxUs = 1e9;
    uint64_t bps = 0; // --linkRate, checked here
    const bool ok
        = MrcCommandLine::CheckSeed(prm.seed)
       && Check("model",
                prm.model == "packet" || prm.model == "fluid",
                "must be packet or fluid (got '" + prm.model + "')")
       && Check("collective",
                prm.collective == "ring" || prm.collective == "hierarchical",
                "must be ring or hierarchical (got '" + prm.collective + "')")
       && (prm.model == "fluid"
               ? Check("gpus",
                       prm.gpus >= 4 && prm.gpus <= (1u << 20),
                       "must be between 4 and 1048576 with --model=fluid")
               : Check("gpus",
                       prm.gpus >= 4 && prm.gpus <= 4096,
                       "must be between 4 and 4096 (up to 1048576 with --model=fluid)"))
       && Check("hostsPerT0",
                prm.hostsPerT0 >= 1 && prm.gpus % prm.hostsPerT0 == 0
                    && prm.gpus / prm.hostsPerT0 >= 2,
                "must divide --gpus into at least 2 T0s")
       && Check("planes", prm.planes >= 1 && prm.planes <= 64, "must be between 1 and 64")
       && Check("t1", prm.t1 >= 1 && prm.t1 <= 4096, "must be between 1 and 4096")
       && MrcCommandLine::ParseRate("linkRate", prm.linkRate, 1e9, 1.6e12, bps)
       && Check("steps", prm.steps >= 1 && prm.steps <= 100000, "must be between 1 and 100000")
       && Check("chunks", prm.chunks >= 1 && prm.chunks <= 1024, "must be between 1 and 1024")
       && Check(
              "qpsPerPeer", prm.qpsPerPeer >= 1 && prm.qpsPerPeer <= 64, "must be between 1 and 64")
       && Check("bytes",
                prm.bytes >= prm.gpus && prm.bytes / prm.gpus / prm.chunks < (uint64_t(1) << 32),
                "must be at least --gpus bytes, and each ring chunk (bytes / gpus / chunks) "
                "under 4 GiB")
       && MrcCommandLine::CheckRange("computeUs", prm.computeUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("jitterUs", prm.jitterUs, 0, maxUs, " us")
       && Check("portLossHost", prm.portLossHost < prm.gpus, "must be a host index below --gpus")
       && Check("rebootT1", prm.rebootT1 < prm.t1, "must be a T1 index below --t1")
       && MrcCommandLine::CheckRange("portLossAtUs", prm.portLossAtUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("portLossUs", prm.portLossUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("rebootAtUs", prm.rebootAtUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("rebootUs", prm.rebootUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("detectionUs", prm.detectionUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("reconvergenceUs", prm.reconvergenceUs, 0, maxUs, " us")
       && MrcCommandLine::CheckRange("binUs", prm.binUs, 0.1, maxUs, " us")
       && Check("ecmpHashing",
                prm.hashing == "resilient" || prm.hashing == "modulo",
                "must be resilient or modulo (got '" + prm.hashing + "')")
       && Check("schemes",
                prm.schemes == "mrc,baseline" || prm.schemes == "mrc" || prm.schemes == "baseline"
                    || prm.schemes == "baseline,mrc",
                "must be mrc,baseline, mrc or baseline");
    prm.linkBps = bps; // (ns-3's own parser reads no Tbps: the rate goes on in bits per second)
    if (!ok)
    {
        return 1;
    }
    if (prm.out.empty())
    {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
        prm.out = std::string("results/quickstart-") + stamp;
    }
    MrcInterrupt::Install();
    std::string err;
    // Check the workload and fault files against both fabrics before writing anything.
    for (const bool baseline : {false, true})
    {
        const std::string name = baseline ? "baseline" : "mrc";
        if (prm.schemes.find(name) != std::string::npos)
        {
            RunAny(prm, baseline, nullptr, true, &err);
            if (!err.empty())
            {
                std::cerr << "error: " << err << std::endl;
                return 1;
            }
        }
    }
    MrcResultsDir out;
    if (!out.Open(prm.out, "quickstart", prm.overwrite, err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    out.SetCommandLine(argc, argv);
    const std::map<std::string, std::string> params = cmd.GetValues();
    // The run's inputs, copied (docs/results.md): quickstart --workload=<out>/inputs/... and
    // --faultFile=<out>/inputs/... give the same results.
    std::string workloadCopy;
    if (!prm.workload.empty())
    {
        std::vector<MrcJobSpec> specs;
        workloadCopy = std::filesystem::path(prm.workload).filename().string();
        if (!MrcWorkloadFile::LoadFile(prm.workload, specs, err)
            || !out.CopyInput("workload", prm.workload, workloadCopy, err))
        {
            std::cerr << "error: --workload: " << err << std::endl;
            return 1;
        }
        for (const auto& f : MrcWorkloadFile::InputFiles(prm.workload, specs))
        {
            const bool ok
                = f.relative.empty()
                    ? out.RecordInput(f.kind, f.path, "outside the workload file's directory", err)
                    : out.CopyInput(f.kind, f.path, f.relative, err);
            if (!ok)
            {
                std::cerr << "error: --workload: " << err << std::endl;
                return 1;
            }
        }
    }
    if (!prm.faults.file.empty())
    {
        std::string name = std::filesystem::path(prm.faults.file).filename().string();
        if (name == workloadCopy)
        {
            name = "faults-" + name;
        }
        if (!out.CopyInput("faults", prm.faults.file, name, err))
        {
            std::cerr << "error: --faultFile: " << err << std::endl;
            return 1;
        }
    }
    if (!out.WriteRunJson("quickstart", MRC_VERSION, prm.seed, params, {}, false, "running", err))
    {
        std::cerr << "error: --out: " << err << std::endl;
        return 1;
    }
    Ptr<MrcRecorder> rec = CreateObject<MrcRecorder>();
    // A failure after this point leaves the directory marked incomplete, with the reason.
    auto fail = [&](const std::string& what)
    {
        std::cerr << "error: " << what << std::endl;
        std::string ignored;
        rec->Close(ignored);
        out.WriteRunJson(
            "quickstart", MRC_VERSION, prm.seed, params, {}, false, "failed: " + what, ignored);
        return 1;
    };
    if (!rec->Open(out, err))
    {
        return fail("--out: " + err);
    }
    std::string refLabel;
    std::string extraLabel;
    FaultLabels(prm, refLabel, extraLabel);
    // Nothing to compare with when the reference would be the same run.
    prm.reference = prm.reference && !extraLabel.empty();

    std::vector<std::string> wanted;
    for (const std::string& scheme : {std::string("mrc"), std::string("baseline")})
    {
        if (prm.schemes.find(scheme) != std::string::npos)
        {
            wanted.push_back(scheme);
        }
    }
    ReferenceProcess refs;
    std::vector<Summary> runs;
    try
    {
        // The same runs with the reference faults only (what the other faults cost), in a second
        // process on the second core.
        if (prm.reference && prm.jobs > 1)
        {
            refs = StartReferences(prm, wanted);
            if (refs.pid > 0)
            {
                std::cerr << "[reference] the " << refLabel << " runs of " << prm.schemes
                          << " run in a second process (pid " << refs.pid << ")" << std::endl;
            }
        }
        for (const std::string& scheme : wanted)
        {
            runs.push_back(RunAny(prm, scheme == "baseline", rec, false, &err));
            MrcInterrupt::Check(scheme + " run");
            if (!err.empty())
            {
                if (refs.pid > 0)
                {
                    kill(refs.pid, SIGTERM);
                    waitpid(refs.pid, nullptr, 0);
                    refs.pid = -1;
                }
                return fail(err);
            }
        }
        if (prm.reference)
        {
            std::map<std::string, std::vector<double>> means;
            if (refs.pid > 0)
            {
                std::cerr << "[reference] waiting for the " << refLabel << " runs" << std::endl;
                WaitReferences(refs, means, err);
                MrcInterrupt::Check("waiting for the reference runs");
            }
            for (auto& r : runs)
            {
                if (means.count(r.scheme) == 0 && err.empty())
                {
                    // No second process (--jobs=1, or fork failed): run it here.
                    const Params ref = ReferenceParams(prm);
                    const std::vector<double> steps
                        = RunAny(ref, r.scheme == "baseline", nullptr, false, &err).steps;
                    means[r.scheme]
                        = {Stats::Mean(steps), Stalls(steps), Stats::Quantile(steps, 1.0)};
                    MrcInterrupt::Check(r.scheme + " reference run");
                }
                if (!err.empty())
                {
                    return fail(err);
                }
                r.refMean = means[r.scheme][0];
                r.refStalls = means[r.scheme][1];
                r.refLongest = means[r.scheme][2];
            }
        }
        if (!rec->Close(err))
        {
            return fail("--out: " + err);
        }

        nlohmann::ordered_json schemes = nlohmann::ordered_json::object();
        double wall = 0;
        for (const auto& r : runs)
        {
            wall += r.wall;
            // Packet counters; null at flow level, which has no packets.
            auto packetCount = [&r](uint64_t n)
            {
                return r.fluid ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(n);
            };
            schemes[r.scheme]
                = {{"wall_time_s", r.wall},
                   {"events_executed", r.events},
                   {"simulated_us", r.simUs},
                   {"steps_completed", r.stepsDone},
                   {"failed_qps", r.failedQps},
                   {"failed_jobs", r.failedJobs},
                   {"pfc_pauses", r.pauses},
                   {"paused_ms", r.pausedMs},
                   {"retransmissions", packetCount(r.retx)},
                   {"spurious_retransmissions", packetCount(r.spurious)},
                   {"retransmission_timeouts", packetCount(r.timeouts)},
                   {"trims", packetCount(r.trims)},
                   {"ev_retirements", packetCount(r.retirements)},
                   {"failed_transfers", r.failed},
                   {"rto_us", r.rtoUs},
                   {"retry_limit", r.retryLimit},
                   {"drops",
                    r.fluid ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.drops)},
                   {"mean_step_port_loss_only_us",
                    std::isnan(r.refMean) ? nlohmann::ordered_json(nullptr)
                                          : nlohmann::ordered_json(r.refMean)},
                   {"steps_over_1s", Stalls(r.steps)},
                   {"steps_over_1s_port_loss_only",
                    std::isnan(r.refStalls) ? nlohmann::ordered_json(nullptr)
                                            : nlohmann::ordered_json(r.refStalls)}};
        }
        uint64_t events = 0;
        for (const auto& r : runs)
        {
            events += r.events;
        }
        // What the scaled-down run stands for, from the actual parameters.
        // What is scaled (the workload, the fault rate) and what is not (every timer), from the
        // actual parameters; the same facts as text and as numbers.
        // The workload's own step length is the shortest step of any run: a stalled baseline step
        // (seconds, waiting for a timeout) says nothing about the compression.
        double meanStep = 0;
        for (const auto& r : runs)
        {
            for (double d : r.steps)
            {
                meanStep = meanStep == 0 ? d : std::min(meanStep, d);
            }
        }
        const bool flaps
            = !prm.faults.tier.empty() && prm.faults.tier != "none" && prm.faults.rate > 0;
        const uint32_t t0s = prm.gpus / prm.hostsPerT0;
        MrcLinkTier tier = MrcLinkTier::T0_T1;
        MrcLinkTierNames().Parse(prm.faults.tier, tier);
        auto tierLinks = [&](uint32_t planes) -> double
        {
            if (tier == MrcLinkTier::HOST_T0)
            {
                return double(planes) * prm.gpus;
            }
            return double(planes) * t0s * prm.t1; // t0-t1 (t1-t2 needs three tiers)
        };
        auto perMinute = [&](uint32_t planes)
        {
            return flaps ? prm.faults.rate * 60 * (prm.faults.perLink ? tierLinks(planes) : 1)
                         : 0.0;
        };
        // The paper: several T0-T1 flaps a minute (taken as 5) over 8 planes x 512 T0s x 256
        // uplinks.
        const double paperPerLinkPerS = 5.0 / 60 / (8.0 * 512 * 256);
        const double stress
            = flaps ? perMinute(prm.planes) / 60 / tierLinks(prm.planes) / paperPerLinkPerS : 0;
        const bool hasMrc = prm.schemes.find("mrc") != std::string::npos;
        const bool hasBaseline = prm.schemes.find("baseline") != std::string::npos;
        std::ostringstream scaling;
        scaling << std::setprecision(3) << "Workload scaled: " << prm.gpus
                << " GPUs, steps of at least " << std::fixed << std::setprecision(0) << meanStep
                << " us standing for steps of about a second (x"
                << (meanStep > 0 ? 1e6 / meanStep : 0) << "). ";
        if (flaps)
        {
            scaling << "Fault rate scaled: " << std::setprecision(1) << prm.faults.rate
                    << " flaps per second per " << (prm.faults.perLink ? "link" : "tier")
                    << " on the " << prm.faults.tier << " tier (";
            if (hasMrc)
            {
                scaling << std::setprecision(0) << perMinute(prm.planes)
                        << " a minute on the MRC fabric";
            }
            if (hasBaseline)
            {
                scaling << (hasMrc ? ", " : "") << std::setprecision(0) << perMinute(1)
                        << " a minute on the baseline's";
            }
            scaling
                << "), against the paper's several a minute over about a million T0-T1 links: a "
                << "per-link stress factor of about " << std::scientific << std::setprecision(1)
                << stress << std::fixed << ". ";
        }
        else
        {
            scaling << "No stochastic link flaps. ";
        }
        double mrcRto = 0;
        double baseRto = 0;
        uint32_t baseRetries = 0;
        for (const auto& r : runs)
        {
            (r.scheme == "mrc" ? mrcRto : baseRto) = r.rtoUs;
            if (r.scheme == "baseline")
            {
                baseRetries = r.retryLimit;
            }
        }
        scaling << "Timers are not scaled (deployed values on both sides):";
        if (hasMrc)
        {
            scaling << std::setprecision(1) << " MRC's retransmission timeout " << mrcRto
                    << " us and probe interval 50 us;";
        }
        if (hasBaseline)
        {
            scaling << std::setprecision(2) << " the baseline's local ACK timeout " << baseRto / 1e6
                    << " s (4.096 us x 2^20) with " << baseRetries << " retries, "
                    << std::setprecision(0) << "BFD-like detection " << prm.detectionUs / 1000
                    << " ms and BGP-like reconvergence " << prm.reconvergenceUs / 1e6 << " s;";
        }
        scaling << " compare a fault's absolute cost (stall, bytes resent), not its share of a "
                << "compressed step.";
        const nlohmann::ordered_json scalingJson
            = {{"workload_compression", meanStep > 0 ? 1e6 / meanStep : 0},
               {"shortest_step_us", meanStep},
               {"flaps", flaps},
               {"flap_tier", prm.faults.tier},
               {"flap_rate_per_s", prm.faults.rate},
               {"flap_rate_per_link", prm.faults.perLink},
               {"flaps_per_minute_mrc_fabric", perMinute(prm.planes)},
               {"flaps_per_minute_baseline_fabric", perMinute(1)},
               {"fault_stress_factor_per_link", stress},
               {"timers_scaled", false},
               {"mrc_rto_us", mrcRto},
               {"mrc_probe_interval_us", 50},
               {"baseline_rto_us", baseRto},
               {"baseline_retry_limit", baseRetries},
               {"baseline_pfc", prm.pfc},
               {"baseline_detection_us", prm.detectionUs},
               {"baseline_reconvergence_us", prm.reconvergenceUs}};
        // Flow level: the failover parameters in force and where each comes from.
        nlohmann::ordered_json fluidJson = nullptr;
        if (prm.model == "fluid")
        {
            Ptr<MrcFluidNetwork> defaults = CreateObject<MrcFluidNetwork>();
            TimeValue bypass;
            TimeValue probe;
            defaults->GetAttribute("BypassTime", bypass);
            defaults->GetAttribute("ProbeTime", probe);
            fluidJson = {
                {"model",
                 "max-min fair rates by progressive filling (MrcFluidNetwork), collectives "
                 "as alpha-beta flow groups (MrcFluidJob)"},
                {"mrc_bypass_time_us", bypass.Get().GetNanoSeconds() / 1000.0},
                {"mrc_bypass_time_source",
                 "measured at packet level: mrc-link-flap's bypass-us at its defaults (failure to "
                 "the last lost packet resent on another path)"},
                {"mrc_probe_time_us", probe.Get().GetNanoSeconds() / 1000.0},
                {"mrc_probe_time_source",
                 "the packet model's MrcQueuePair ProbeInterval (50 us) x MrcPathSelector "
                 "ProbeSuccesses (3)"},
                {"baseline_timers_source",
                 "the same deployed values as at packet level: detection and reconvergence from "
                 "--detectionUs/--reconvergenceUs, InfiniBand local ACK timeout and retry limit"},
                {"not_modelled",
                 "packet trimming, incast and queueing dynamics, NSCC and DCQCN transients, PFC "
                 "pauses, ECMP hashes as the switches compute them; see docs/fluid.md"}};
        }
        std::map<std::string, std::string> extra = {
            {"wall_time_s", std::to_string(wall)},
            {"ns3_version", nlohmann::ordered_json(std::string("ns-") + MRC_NS3_VERSION).dump()},
            {"events_executed", std::to_string(events)},
            {"schemes", schemes.dump()},
            {"time_scaling", nlohmann::ordered_json(scaling.str()).dump()},
            {"scaling", scalingJson.dump()},
        };
        if (prm.model == "fluid")
        {
            extra["fluid"] = fluidJson.dump();
        }
        // Faults that could not act (after the run's end, or on a target without traffic).
        nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
        for (const auto& r : runs)
        {
            for (const auto& w : r.warnings)
            {
                std::cerr << "warning: " << r.scheme << " run: " << w << std::endl;
                warnings.push_back(r.scheme + " run: " + w);
            }
        }
        extra["warnings"] = warnings.dump();
        extra["reference_faults"]
            = nlohmann::ordered_json(prm.reference ? refLabel : std::string("not run")).dump();
        extra["faults_beyond_reference"] = nlohmann::ordered_json(extraLabel).dump();
        if (!out.WriteRunJson("quickstart",
                              MRC_VERSION,
                              prm.seed,
                              params,
                              extra,
                              false,
                              prm.plots ? "plots not made yet" : "finishing",
                              err))
        {
            return fail("--out: " + err);
        }
        PrintTable(runs, refLabel, extraLabel.empty() ? "no further faults" : extraLabel);
        std::cout << "\nresults: " << prm.out << "/{flows,steps,events,links}.csv, " << prm.out
                  << "/run.json" << std::endl;
        if (prm.plots)
        {
            const std::vector<std::string> plot
                = {"/usr/bin/python3",
                   std::string(MRC_SOURCE_DIR) + "/analysis/make_all.py",
                   "--in-run",
                   prm.out};
            std::cout << "plots: " << std::flush;
            const int rc = MrcInterrupt::RunChild(plot);
            MrcInterrupt::Check("plotting");
            if (rc != 0)
            {
                std::cerr << "warning: the plots could not be made (/usr/bin/python3 "
                          << MRC_SOURCE_DIR << "/analysis/make_all.py '" << prm.out
                          << "' exited with " << rc << ")" << std::endl;
            }
            if (!out.ReloadManifest(err))
            {
                return fail("--out: " + err);
            }
        }
        if (!out.WriteRunJson("quickstart", MRC_VERSION, prm.seed, params, extra, true, "", err)
            || !out.SetComplete(err))
        {
            return fail("--out: " + err);
        }
    }
    catch (const MrcInterrupted& e)
    {
        if (refs.pid > 0)
        {
            kill(refs.pid, SIGTERM);
            waitpid(refs.pid, nullptr, 0);
        }
        std::string ignored;
        rec->Close(ignored);
        out.ReloadManifest(ignored);
        out.WriteRunJson("quickstart", MRC_VERSION, prm.seed, params, {}, false, e.what(), ignored);
        std::cerr << "quickstart: " << e.what() << "; what was written is in " << prm.out
                  << " (run.json: \"complete\": false)" << std::endl;
        return MrcInterrupt::ExitStatus();
    }
    return 0;
}
