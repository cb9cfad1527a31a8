/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "claims-scenario.h"

#include "../common/evidence.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{
namespace claims
{

namespace
{

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
 * Random streams of what is not the transport's own (placement, compute jitter, the fault
 * processes): fixed numbers, far above the fabric's and the stack's (counted up from 1), so
 * that every scheme draws the same placement and jitter for the same seed.
 */
constexpr int64_t PLACEMENT_STREAM = int64_t(1) << 40;
/** The first job's jitter stream (job j: JOB_STREAM + 1024 j). */
constexpr int64_t JOB_STREAM = (int64_t(1) << 40) + 1024;
/** The fault injector's streams. */
constexpr int64_t FAULT_STREAM = int64_t(1) << 41;
/** The NIC ports' receive-loss streams (MrcSchemeHelper::AssignNicStreams). */
constexpr int64_t NIC_STREAM = int64_t(3) << 40;

/**
 * @param text bytes
 * @return their SHA-256, hex
 */
std::string
Digest(const std::string& text)
{
    return MrcSha256::Hex(text);
}

/**
 * @param injector a fault injector
 * @return the digest of what was scheduled on it, planes written "plane*" (MRC's plane p and
 *         the baseline's plane are the same position), each distinct fault once
 */
std::string
FaultDigest(Ptr<MrcFaultInjector> injector)
{
    // The same fault mapped onto one plane more than once counts once.
    std::set<std::string> lines;
    for (const auto& a : injector->GetScheduled())
    {
        std::string t = a.target.GetName();
        const auto at = t.find("plane");
        if (at != std::string::npos)
        {
            auto end = at + 5;
            while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end])))
            {
                ++end;
            }
            t = t.substr(0, at) + "plane*" + t.substr(end);
        }
        std::ostringstream os;
        os << std::setw(20) << a.at.GetNanoSeconds() << " "
           << MrcFaultActionNames().GetName(a.action) << " " << t << " "
           << a.duration.GetNanoSeconds();
        if (a.rate != 0)
        {
            os << " " << std::setprecision(17) << a.rate;
        }
        os << "\n";
        lines.insert(os.str());
    }
    std::string all;
    for (const auto& l : lines)
    {
        all += l;
    }
    return Digest(all);
}

/** A scheme's fabric and stack, with streams assigned. */
struct World
{
    Ptr<MrcSchemeHelper> scheme; //!< the scheme's builder (owns the stack)
    Ptr<MrcClosTopology> fabric; //!< fabric
    Ptr<MrcFaultHelper> faults;  //!< faults
    int64_t stream = 1;          //!< next free stream
    uint64_t flaps = 0;          //!< link-down events
    uint64_t retirements = 0;    //!< EV retirements (filled by CountRetirement)
    std::vector<uint64_t> causes = std::vector<uint64_t>(16, 0); //!< retirements by cause
    std::set<std::tuple<uint32_t, uint32_t, uint16_t>> retired;  //!< (host, qp, ev) ever retired
};

/**
 * @param scheme a scheme
 * @param fab the fabric, in MRC's terms
 * @return its builder (MrcSchemeHelper), configured
 */
Ptr<MrcSchemeHelper>
MakeScheme(Scheme scheme, const FabricSpec& fab)
{
    Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
    s->SetAttribute("Scheme", StringValue(SchemeName(scheme)));
    if (!fab.latencies.empty())
    {
        // The preset's cables, switches and NICs; its shape is overridden below.
        std::string err;
        NS_ABORT_MSG_UNLESS(MrcClusterPreset::Apply(fab.latencies, s, err), "claims: " << err);
    }
    s->SetAttribute("Hosts", UintegerValue(fab.hosts));
    s->SetAttribute("Planes", UintegerValue(fab.planes));
    s->SetAttribute("PlaneRate", DataRateValue(DataRate(fab.planeRate)));
    s->SetAttribute("HostsPerT0", UintegerValue(fab.hostsPerT0));
    s->SetAttribute("T1sPerPlane", UintegerValue(fab.t1));
    s->SetAttribute("BaselineHostsPerT0", UintegerValue(fab.baselineHostsPerT0));
    s->SetAttribute("BaselineT1sPerPlane", UintegerValue(fab.baselineT1));
    s->SetAttribute("Trim", BooleanValue(fab.trim));
    s->SetAttribute("Pfc", BooleanValue(fab.pfc));
    s->SetAttribute("DcqcnProfile", StringValue(fab.dcqcnProfile));
    if (!fab.uplinkRate.empty())
    {
        s->SetFabricAttribute("UplinkRate", DataRateValue(DataRate(fab.uplinkRate)));
    }
    if (scheme == MRC && fab.evSetSize > 0)
    {
        s->GetStack().SetPathSelectorAttribute("EvSetSize", UintegerValue(fab.evSetSize));
    }
    if (scheme == MRC && fab.evMinActive > 0)
    {
        s->GetStack().SetPathSelectorAttribute("EvMinActive", UintegerValue(fab.evMinActive));
    }
    if (scheme != MRC)
    {
        s->SetControlPlaneAttribute("DetectionDelay", TimeValue(Us(fab.detectionUs)));
        s->SetControlPlaneAttribute("ReconvergenceDelay", TimeValue(Us(fab.reconvergenceUs)));
    }
    if (!fab.mutants.empty() || fab.realModel)
    {
        StringValue global; // --mutant's, as the attribute's default
        s->GetAttribute("Mutants", global);
        std::string all = fab.realModel ? std::string() : global.Get();
        std::istringstream more(fab.mutants);
        for (std::string m; std::getline(more, m, ',');)
        {
            if (("," + all + ",").find("," + m + ",") == std::string::npos)
            {
                all += (all.empty() ? "" : ",") + m;
            }
        }
        s->SetAttribute("Mutants", StringValue(all));
    }
    return s;
}

/**
 * Build a scheme's fabric and stack and assign their streams.
 * @param scheme scheme
 * @param fab fabric
 * @param w the world to fill
 */
void
Build(Scheme scheme, const FabricSpec& fab, World& w)
{
    w.scheme = MakeScheme(scheme, fab);
    if (const std::string bad = w.scheme->Validate(); !bad.empty())
    {
        throw evidence::BadInput(bad);
    }
    w.fabric = w.scheme->Build();
    w.stream += w.scheme->AssignStreams(w.stream);
    w.scheme->AssignNicStreams(NIC_STREAM);
    w.faults = CreateObject<MrcFaultHelper>();
    w.faults->Install(w.fabric);
    w.faults->GetInjector()->TraceConnectWithoutContext(
        "Fault",
        MakeBoundCallback(
            +[](uint64_t* n, const MrcFaultEvent& e)
            {
                *n += (e.kind == MrcFaultEvent::Kind::LINK && e.state == MrcFaultEvent::State::DOWN)
                        ? 1
                        : 0;
            },
            &w.flaps));
}

/**
 * Schedule the fault plan (after the traffic's streams are assigned).
 * @param plan faults
 * @param w the world
 */
void
ApplyFaults(const FaultPlan& plan, World& w)
{
    w.faults->AssignStreams(FAULT_STREAM);
    std::string err;
    for (const auto& f : plan.faults)
    {
        const MrcFaultTargetId target = f.TargetOn(w.fabric->GetNPlanes());
        NS_ABORT_MSG_UNLESS(w.faults->GetInjector()->Schedule(
                                Us(f.atUs), f.action, target, Us(f.durationUs), err, f.rate),
                            "claims: fault " << MrcFaultActionNames().GetName(f.action) << " "
                                             << target.GetName() << ": " << err);
    }
    if (plan.lossy.rate > 0)
    {
        Ptr<MrcChannel> ch = w.fabric->GetUplink(plan.lossy.plane, plan.lossy.t0, plan.lossy.t1);
        Simulator::Schedule(Us(plan.lossy.fromUs), &MrcChannel::SetLossRate, ch, plan.lossy.rate);
        Simulator::Schedule(Us(plan.lossy.toUs), &MrcChannel::SetLossRate, ch, 0.0);
    }
}

/**
 * Count transitions to ASSUMED_BAD.
 * @param w the world (counters)
 * @param ev EV
 * @param from old state
 * @param to new state
 * @param cause cause
 */
void
CountRetirement(World* w,
                uint32_t host,
                uint32_t qp,
                uint16_t ev,
                uint8_t /* from */,
                uint8_t to,
                uint8_t cause)
{
    if (to == MrcPathSelector::ASSUMED_BAD)
    {
        ++w->retirements;
        ++w->causes[cause & 15];
        w->retired.insert({host, qp, ev});
    }
}

/**
 * Hook every QP's path selector to the retirement counter.
 * @param w the world
 */
void
CountRetirements(World& w)
{
    for (uint32_t h = 0; h < w.fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = w.scheme->GetStack().GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            l4->GetQueuePair(q)->GetPathSelector()->TraceConnectWithoutContext(
                "EvStateChange", MakeBoundCallback(&CountRetirement, &w, h, q));
        }
    }
}

/**
 * @param dev a port
 * @param node a node
 * @return whether the port belongs to the node
 */
bool
On(Ptr<NetDevice> dev, Ptr<Node> node)
{
    return dev->GetNode() == node;
}

/**
 * @param w the world
 * @param plane plane
 * @param t0 T0
 * @param j T1 (within the pod)
 * @return the T0's port on that uplink
 */
Ptr<MrcNetDevice>
UplinkPort(const World& w, uint32_t plane, uint32_t t0, uint32_t j)
{
    Ptr<MrcChannel> ch = w.fabric->GetUplink(plane, t0, j);
    Ptr<Node> node = w.fabric->GetT0(plane, t0)->GetNode();
    for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
    {
        if (On(ch->GetDevice(d), node))
        {
            return DynamicCast<MrcNetDevice>(ch->GetDevice(d));
        }
    }
    return nullptr;
}

/**
 * Sum the per-QP and per-port counters of a run.
 * @param w the world
 * @param retx set to retransmissions
 * @param spurious set to retransmissions found unnecessary (the earlier transmission arrived)
 * @param timeouts set to RTO expiries
 * @param failedQps set to QPs in error
 * @param pauses set to PFC pauses sent by switch ports
 */
void
Counters(const World& w,
         uint64_t& retx,
         uint64_t& spurious,
         uint64_t& timeouts,
         uint64_t& failedQps,
         uint64_t& pauses)
{
    retx = spurious = timeouts = failedQps = pauses = 0;
    for (uint32_t h = 0; h < w.fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = w.scheme->GetStack().GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            Ptr<MrcQueuePair> qp = l4->GetQueuePair(q);
            retx += qp->GetRetransmissions();
            spurious += qp->GetSpuriousRetransmissions();
            timeouts += qp->GetTimeouts();
            failedQps += qp->IsInError() ? 1 : 0;
        }
    }
    const NodeContainer switches = w.fabric->GetSwitches();
    for (uint32_t n = 0; n < switches.GetN(); ++n)
    {
        Ptr<MrcSwitchNetDevice> sw = DynamicCast<MrcSwitchNetDevice>(switches.Get(n)->GetDevice(0));
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            pauses += sw->GetPort(p)->GetPausesSent();
        }
    }
}

} // namespace

bool
CheckModelAttributes(const std::vector<FabricSpec>& fabrics,
                     const std::vector<FabricSpec>& fluidFabrics)
{
    for (const FabricSpec& fab : fluidFabrics)
    {
        for (const Scheme s : {MRC, ROCE})
        {
            if (const std::string bad = MakeScheme(s, fab)->ValidateFluid(); !bad.empty())
            {
                std::cerr << "error: " << bad << std::endl;
                return false;
            }
        }
    }
    for (const FabricSpec& fab : fabrics)
    {
        for (const Scheme s : {MRC, ROCE, ROCE_MULTIPLANE})
        {
            if (const std::string bad = MakeScheme(s, fab)->Validate(); !bad.empty())
            {
                std::cerr << "error: " << bad << std::endl;
                return false;
            }
        }
    }
    return true;
}

MrcFaultTargetId
FaultSpec::TargetOn(uint32_t planes) const
{
    return anyFabric && target.HasPlane() && target.GetPlane() >= planes ? target.OnPlane(0)
                                                                         : target;
}

const char*
SchemeName(Scheme s)
{
    switch (s)
    {
        case MRC:
            return "mrc";
        case ROCE:
            return "roce";
        case ROCE_MULTIPLANE:
            return "roce-multiplane";
    }
    return "?";
}

/**
 * Collect what every job recorded: step times, mean step per job, per-transfer throughputs,
 * steps done and failed jobs (the same for MrcTrainingJob and MrcFluidJob).
 * @tparam Job the job class
 * @param jobs the jobs
 * @param started per job, whether it ran
 * @param r the result to fill
 */
template<typename Job>
void
CollectJobs(const std::vector<Ptr<Job>>& jobs, const std::vector<bool>& started, TrainingResult& r)
{
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const auto& job = jobs[j];
        std::vector<double> mine;
        for (const auto& s : job->GetStepRecords())
        {
            mine.push_back((s.end - s.start).GetNanoSeconds() / 1000.0);
        }
        r.stepUs.insert(r.stepUs.end(), mine.begin(), mine.end());
        r.jobMeanUs.push_back(started[j] ? Mean(mine) : NAN);
        for (const auto& t : job->GetTransferRecords())
        {
            if (t.status == MrcQueuePair::SUCCESS && t.GetGbps() > 0)
            {
                r.flowGbps.push_back(t.GetGbps());
            }
        }
        r.stepsDone += job->GetStepsCompleted();
        r.failedJobs += job->IsFailed() ? 1 : 0;
    }
}

TrainingResult
RunTraining(
    Scheme scheme, const FabricSpec& fab, const JobSpec& spec, const FaultPlan& plan, uint32_t seed)
{
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    TrainingResult r;
    World w;
    Build(scheme, fab, w);

    MrcTrainingJob::Placement policy;
    NS_ABORT_MSG_UNLESS(MrcTrainingJob::ParsePlacement(spec.placement, policy),
                        "claims: placement " << spec.placement);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(PLACEMENT_STREAM);
    std::vector<bool> used(fab.hosts, false);
    const uint32_t ranks = spec.ranks ? spec.ranks : fab.hosts / spec.jobs;
    std::vector<Ptr<MrcTrainingJob>> jobs;
    std::ostringstream placed;
    std::vector<bool> started;
    for (uint32_t j = 0; j < spec.jobs; ++j)
    {
        std::string err;
        const auto hosts = MrcTrainingJob::Place(policy, ranks, fab.hosts, used, rng, err);
        NS_ABORT_MSG_IF(hosts.empty(), "claims: placement: " << err);
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("JobId", UintegerValue(j));
        job->SetAttribute("Steps", UintegerValue(spec.steps));
        job->SetAttribute("ComputeTime", TimeValue(Us(spec.computeUs)));
        job->SetAttribute("ComputeJitter", TimeValue(Us(spec.jitterUs)));
        job->SetAttribute("KeepRecords", BooleanValue(true));
        job->SetRanks(hosts);
        if (scheme == ROCE_MULTIPLANE)
        {
            // NCCL on a multi-rail NIC: one QP per port, the message split across them.
            job->SetAttribute("QpPerPort", BooleanValue(true));
            job->AddCollective(spec.collective, spec.bytes, fab.planes, fab.planes);
        }
        else if (spec.qpsPerPeer > 0)
        {
            job->AddCollective(spec.collective,
                               spec.bytes,
                               std::max(spec.chunks, spec.qpsPerPeer),
                               spec.qpsPerPeer);
        }
        else
        {
            job->AddCollective(spec.collective, spec.bytes);
        }
        job->Install(w.fabric);
        job->AssignStreams(JOB_STREAM + 1024 * int64_t(j));
        r.placement.push_back(hosts);
        for (uint32_t h : hosts)
        {
            placed << h << " ";
        }
        placed << "\n";
        const bool run = spec.onlyJob == UINT32_MAX || spec.onlyJob == j;
        if (run)
        {
            job->Start(Time(0));
            r.stepsPlanned += spec.steps;
        }
        jobs.push_back(job);
        started.push_back(run);
    }
    ApplyFaults(plan, w);
    CountRetirements(w);
    r.placementDigest = Digest(placed.str());
    r.faultDigest = FaultDigest(w.faults->GetInjector());
    uint32_t remaining = 0;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        if (!started[j])
        {
            continue;
        }
        ++remaining;
        jobs[j]->TraceConnectWithoutContext(
            "JobComplete",
            MakeCallback(+[](uint32_t* left, uint32_t, uint32_t, uint64_t)
                         {
                             if (--*left == 0)
                             {
                                 Simulator::Stop();
                             }
                         })
                .Bind(&remaining));
    }
    // A safety net beyond any sane run (a RoCE QP whose retries all time out fails after
    // 8 x 4.3 s, and its job with it), or the run's own limit.
    Simulator::Stop(Us(spec.stopUs));
    const auto t0 = std::chrono::steady_clock::now();
    MrcInterrupt::Watch(); // SIGINT/SIGTERM stop the run (then MrcInterrupt::Check throws)
    Simulator::Run();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.simUs = Simulator::Now().GetNanoSeconds() / 1000.0;
    if (MrcInterrupt::Requested())
    {
        Simulator::Destroy();
        MrcInterrupt::Check(std::string("training run, ") + SchemeName(scheme));
    }

    CollectJobs(jobs, started, r);
    uint64_t pauses = 0;
    Counters(w, r.retx, r.spurious, r.timeouts, r.failedQps, pauses);
    r.pauses = pauses;
    UintegerValue payload;
    w.scheme->GetStack().GetL4(0)->GetQueuePair(0)->GetAttribute("PayloadSize", payload);
    r.retxBytes = r.retx * payload.Get();
    for (uint32_t h = 0; h < w.fabric->GetNHosts(); ++h)
    {
        Ptr<MrcL4Protocol> l4 = w.scheme->GetStack().GetL4(h);
        for (uint32_t q = 0; q < l4->GetNQueuePairs(); ++q)
        {
            Ptr<MrcPathSelector> sel = l4->GetQueuePair(q)->GetPathSelector();
            ++r.qps;
            for (uint32_t e = 0; e < sel->GetNEvs(); ++e)
            {
                ++r.evsTotal;
                r.evsRetiredAtEnd
                    += sel->GetEv(static_cast<uint16_t>(e)).state == MrcPathSelector::ASSUMED_BAD;
            }
        }
    }
    r.evsRetiredEver = w.retired.size();
    r.retirements = w.retirements;
    r.flaps = w.flaps;
    for (uint32_t h = 0; h < w.fabric->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < w.fabric->GetNPlanes(); ++p)
        {
            r.hostBytes += w.fabric->GetHostPort(h, p)->GetTxBytes();
        }
    }
    const uint32_t t1PerPod = w.fabric->GetNT1();
    for (uint32_t p = 0; p < w.fabric->GetNPlanes(); ++p)
    {
        for (uint32_t i = 0; i < w.fabric->GetNT0(); ++i)
        {
            for (uint32_t j = 0; j < t1PerPod; ++j)
            {
                r.uplinkBytes += UplinkPort(w, p, i, j)->GetTxBytes();
            }
        }
    }
    Simulator::Destroy();
    return r;
}

TrainingResult
RunFluidTraining(
    Scheme scheme, const FabricSpec& fab, const JobSpec& spec, const FaultPlan& plan, uint32_t seed)
{
    NS_ABORT_MSG_IF(scheme == ROCE_MULTIPLANE, "claims: the flow-level model runs MRC or ROCE");
    NS_ABORT_MSG_IF(plan.lossy.rate > 0, "claims: the flow-level model has no lossy cables");
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    const auto start = std::chrono::steady_clock::now();
    TrainingResult r;
    Ptr<MrcSchemeHelper> builder = MakeScheme(scheme, fab);
    if (const std::string bad = builder->ValidateFluid(); !bad.empty())
    {
        throw evidence::BadInput(bad);
    }
    const uint32_t perT0 = builder->GetFabricHostsPerT0();
    Ptr<MrcFluidNetwork> net = builder->BuildFluid();
    int64_t stream = 1;
    stream += net->AssignStreams(stream);

    MrcTrainingJob::Placement policy;
    NS_ABORT_MSG_UNLESS(MrcTrainingJob::ParsePlacement(spec.placement, policy),
                        "claims: placement " << spec.placement);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(PLACEMENT_STREAM);
    std::vector<bool> used(fab.hosts, false);
    const uint32_t ranks = spec.ranks ? spec.ranks : fab.hosts / spec.jobs;
    std::vector<Ptr<MrcFluidJob>> jobs;
    std::vector<bool> started;
    uint32_t remaining = 0;
    std::ostringstream placed;
    for (uint32_t j = 0; j < spec.jobs; ++j)
    {
        std::string err;
        const auto hosts = MrcTrainingJob::Place(policy, ranks, fab.hosts, used, rng, err);
        NS_ABORT_MSG_IF(hosts.empty(), "claims: placement: " << err);
        r.placement.push_back(hosts);
        for (uint32_t h : hosts)
        {
            placed << h << " ";
        }
        placed << "\n";
        Ptr<MrcFluidJob> job = CreateObject<MrcFluidJob>();
        job->SetAttribute("JobId", UintegerValue(j));
        job->SetAttribute("Steps", UintegerValue(spec.steps));
        job->SetAttribute("ComputeTime", TimeValue(Us(spec.computeUs)));
        job->SetAttribute("ComputeJitter", TimeValue(Us(spec.jitterUs)));
        job->SetAttribute("KeepRecords", BooleanValue(true));
        job->SetRanks(hosts);
        job->AddCollective(spec.collective, spec.bytes, 1, perT0);
        job->Install(net);
        job->AssignStreams(JOB_STREAM + 1024 * int64_t(j));
        started.push_back(spec.onlyJob == UINT32_MAX || spec.onlyJob == j);
        if (started.back())
        {
            job->Start(Time(0));
            r.stepsPlanned += spec.steps;
            ++remaining;
            job->TraceConnectWithoutContext(
                "JobComplete",
                MakeCallback(+[](uint32_t* left, uint32_t, uint32_t, uint64_t)
                             {
                                 if (--*left == 0)
                                 {
                                     Simulator::Stop();
                                 }
                             })
                    .Bind(&remaining));
        }
        jobs.push_back(job);
    }
    Ptr<MrcFaultHelper> faults = CreateObject<MrcFaultHelper>();
    faults->Install(net);
    faults->AssignStreams(FAULT_STREAM);
    std::string err;
    for (const auto& f : plan.faults)
    {
        const MrcFaultTargetId target = f.TargetOn(net->GetNPlanes());
        NS_ABORT_MSG_UNLESS(faults->GetInjector()->Schedule(
                                Us(f.atUs), f.action, target, Us(f.durationUs), err, f.rate),
                            "claims: fault " << MrcFaultActionNames().GetName(f.action) << " "
                                             << target.GetName() << ": " << err);
    }
    r.placementDigest = Digest(placed.str());
    r.faultDigest = FaultDigest(faults->GetInjector());
    faults->GetInjector()->TraceConnectWithoutContext(
        "Fault",
        MakeBoundCallback(
            +[](uint64_t* n, const MrcFaultEvent& e)
            {
                *n += (e.kind == MrcFaultEvent::Kind::LINK && e.state == MrcFaultEvent::State::DOWN)
                        ? 1
                        : 0;
            },
            &r.flaps));
    Simulator::Stop(Seconds(3600));
    MrcInterrupt::Watch(); // SIGINT/SIGTERM stop the run (then MrcInterrupt::Check throws)
    Simulator::Run();
    r.simUs = Simulator::Now().GetNanoSeconds() / 1000.0;
    if (MrcInterrupt::Requested())
    {
        Simulator::Destroy();
        MrcInterrupt::Check(std::string("flow-level training run, ") + SchemeName(scheme));
    }
    CollectJobs(jobs, started, r);
    Simulator::Destroy();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

FlowResult
RunFlows(
    Scheme scheme, const FabricSpec& fab, const FlowRun& run, const FaultPlan& plan, uint32_t seed)
{
    NS_ABORT_MSG_IF(scheme == ROCE_MULTIPLANE, "claims: RunFlows takes MRC or ROCE");
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);
    FlowResult r;
    World w;
    Build(scheme, fab, w);
    const std::size_t n = run.flows.size();
    r.fctUs.assign(n, NAN);
    std::vector<Ptr<MrcQueuePair>> senders;                // each flow's first QP
    std::vector<Ptr<MrcQueuePair>> flow0;                  // flow 0's QPs
    std::vector<std::vector<Ptr<MrcQueuePair>>> receivers; // each flow's receiving QPs
    std::vector<uint32_t> qpsLeft(n, 0);                   // per flow, its QPs not yet done
    struct Done
    {
        FlowResult* r;         //!< result
        std::size_t i;         //!< flow
        double startUs;        //!< post time
        std::size_t* left;     //!< QPs left
        uint32_t* flowLeft;    //!< this flow's QPs left
        uint32_t messagesLeft; //!< serial messages still to post (flow 0)
        double postedUs;       //!< when the current message was posted
        MrcQueuePair* qp;      //!< the sender
        uint64_t bytes;        //!< bytes per message
    };
    std::size_t left = 0;
    for (const auto& f : run.flows)
    {
        left += std::max(1u, f.qps);
    }
    std::vector<Done> done(left);
    std::size_t d = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        const FlowSpec& f = run.flows[i];
        const uint32_t nq = std::max(1u, f.qps);
        qpsLeft[i] = nq;
        receivers.emplace_back();
        for (uint32_t q = 0; q < nq; ++q, ++d)
        {
            // A flow of several QPs (as ib_write_bw -q, or NCCL's QPs per peer) splits its bytes.
            const uint64_t bytes = f.bytes / nq + (q < f.bytes % nq ? 1 : 0);
            auto qps = w.scheme->GetStack().Connect(f.src, f.dst);
            if (!f.evs.empty() && scheme == MRC)
            {
                qps.first->SetExplicitEvs(f.evs, f.backupEvs);
            }
            if (q == 0)
            {
                senders.push_back(qps.first);
            }
            if (i == 0)
            {
                flow0.push_back(qps.first);
            }
            receivers.back().push_back(qps.second);
            const uint32_t serial = i == 0 && run.serialMessages > 1 ? run.serialMessages - 1 : 0;
            done[d] = Done{&r,
                           i,
                           f.startUs,
                           &left,
                           &qpsLeft[i],
                           serial,
                           f.startUs,
                           PeekPointer(qps.first),
                           bytes};
            qps.first->SetSendCompletionCallback(MakeBoundCallback(
                +[](Done* d, const MrcCompletion& c)
                {
                    const double now = c.completed.GetNanoSeconds() / 1000.0;
                    if (c.status == MrcQueuePair::SUCCESS)
                    {
                        if (d->i == 0)
                        {
                            d->r->messageUs.push_back(now - d->postedUs);
                        }
                        if (d->messagesLeft > 0)
                        {
                            // Serial messages: the next is posted when this one completes.
                            --d->messagesLeft;
                            d->postedUs = now;
                            d->qp->PostWrite(d->bytes, 0);
                            return;
                        }
                        if (--*d->flowLeft == 0)
                        {
                            d->r->fctUs[d->i] = now - d->startUs;
                        }
                    }
                    if (--*d->left == 0)
                    {
                        Simulator::Stop();
                    }
                },
                &done[d]));
            Simulator::Schedule(
                Us(f.startUs), &MrcQueuePair::PostWrite, qps.first, bytes, uint64_t(0));
        }
    }
    // A busy-uplink loss is applied below, to the cable chosen then, and only there.
    FaultPlan scheduled = plan;
    if (run.busyUplinkAtUs > 0 && run.busyAction == "lossy")
    {
        scheduled.lossy.rate = 0;
    }
    ApplyFaults(scheduled, w);
    CountRetirements(w);
    {
        std::ostringstream os;
        for (const auto& f : run.flows)
        {
            os << f.src << " " << f.dst << " " << f.bytes << " " << f.startUs << " " << f.qps;
            if (!f.evs.empty())
            {
                os << " evs " << f.evs << " backups " << f.backupEvs;
            }
            os << "\n";
        }
        os << "busy " << run.busyUplinkAtUs << " " << run.busyAction << " serial "
           << run.serialMessages << " tail " << run.failTail << " " << run.failTailMessage << "\n";
        r.flowDigest = Digest(os.str());
        r.faultDigest = FaultDigest(w.faults->GetInjector());
    }
    // A failure that takes the message's tail: the uplink flow 0's last packet is sprayed onto
    // dies as that packet is first sent (the packet is lost with it).
    if (n > 0 && run.failTail)
    {
        UintegerValue payload;
        senders[0]->GetAttribute("PayloadSize", payload);
        // The last packet of message failTailMessage (messages back to back from PSN 0).
        const uint32_t perMessage
            = static_cast<uint32_t>((run.flows[0].bytes + payload.Get() - 1) / payload.Get());
        const uint32_t lastPsn = perMessage * (run.failTailMessage + 1) - 1;
        struct Tail
        {
            World* w;             //!< the world
            FlowResult* r;        //!< the result
            MrcPathSelector* sel; //!< flow 0's path selector
            uint32_t src;         //!< flow 0's source
            uint32_t last;        //!< its last PSN
        };
        static Tail tail; // one run at a time
        tail = Tail{&w, &r, PeekPointer(senders[0]->GetPathSelector()), run.flows[0].src, lastPsn};
        senders[0]->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](Tail* t, Ptr<const Packet>, uint32_t psn, uint16_t ev, uint8_t cause)
                {
                    if (psn != t->last || cause != MrcQueuePair::TX_NEW
                        || !t->r->downedLink.empty())
                    {
                        return;
                    }
                    const auto& e = t->sel->GetEv(ev);
                    const MrcFaultTargetId link = MrcFaultTargetId::Link(
                        e.plane, MrcLinkTier::T0_T1, t->w->fabric->GetT0Of(t->src), e.path);
                    t->r->downedLink = link.GetName();
                    t->r->downedT1 = e.path;
                    t->r->tailFailUs = Simulator::Now().GetNanoSeconds() / 1000.0;
                    std::string err;
                    NS_ABORT_MSG_UNLESS(t->w->faults->GetInjector()->Schedule(
                                            Time(0), MrcFaultAction::LINK_DOWN, link, Time(0), err),
                                        "claims: " << err);
                },
                &tail));
    }
    // Flow 0's last send on each (plane, path) after the busy uplink is chosen: when it stopped
    // using the path of the uplink that died.
    std::map<std::pair<uint16_t, uint16_t>, double> lastUse;
    const double watchFrom = run.busyUplinkAtUs > 0 ? run.busyUplinkAtUs : run.watchSendsFromUs;
    for (std::size_t q = 0; n > 0 && watchFrom > 0 && q < (run.traceAllQps ? flow0.size() : 1); ++q)
    {
        flow0[q]->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(
                +[](std::map<std::pair<uint16_t, uint16_t>, double>* last,
                    MrcPathSelector* sel,
                    double fromUs,
                    double untilUs,
                    Ptr<const Packet>,
                    uint32_t,
                    uint16_t ev,
                    uint8_t cause)
                {
                    const double now = Simulator::Now().GetNanoSeconds() / 1000.0;
                    if (now >= fromUs && now < untilUs && cause != MrcQueuePair::TX_PROBE)
                    {
                        const auto& e = sel->GetEv(ev);
                        (*last)[{e.plane, e.path}] = now;
                    }
                },
                &lastUse,
                PeekPointer(flow0[q]->GetPathSelector()),
                watchFrom,
                run.watchSendsUntilUs));
    }
    // EV state changes of flow 0 (the flow the failover claims look at): its first QP, or
    // every one of its QPs (FlowRun::traceAllQps).
    for (std::size_t q = 0; n > 0 && q < (run.traceAllQps ? flow0.size() : 1); ++q)
    {
        Ptr<MrcPathSelector> sel = flow0[q]->GetPathSelector();
        sel->TraceConnectWithoutContext(
            "EvStateChange",
            MakeBoundCallback(
                +[](FlowResult* res,
                    MrcPathSelector* s,
                    uint16_t ev,
                    uint8_t from,
                    uint8_t to,
                    uint8_t cause)
                {
                    const double now = Simulator::Now().GetNanoSeconds() / 1000.0;
                    res->evChanges.emplace_back(now, to);
                    const auto& e = s->GetEv(ev);
                    const FlowResult::EvChange c{now, ev, e.plane, e.path, cause};
                    if (to == MrcPathSelector::ASSUMED_BAD)
                    {
                        res->badEvs.push_back(c);
                    }
                    else if (MrcPathSelector::IsHold(to, cause))
                    {
                        res->heldEvs.push_back(c);
                    }
                    else if (from == MrcPathSelector::ASSUMED_BAD && to == MrcPathSelector::GOOD)
                    {
                        res->goodEvs.push_back(c);
                    }
                },
                &r,
                PeekPointer(sel)));
    }
    // Received bytes of the watched flows, per bin, until every flow is done.
    r.samples.assign(run.watch.size(), {});
    std::vector<uint64_t> last(run.watch.size(), 0);
    std::function<void()> sample;
    const Time bin = Us(run.binUs);
    Ptr<MrcTrimmingQueue> watchedQueue;
    if (run.queueT0 >= 0)
    {
        watchedQueue = w.fabric->GetT0(0, run.queueT0)->GetPort(run.queuePort)->GetQueue();
    }
    sample = [&]()
    {
        for (std::size_t k = 0; k < run.watch.size(); ++k)
        {
            uint64_t now = 0;
            for (const auto& qp : receivers[run.watch[k]])
            {
                now += qp->GetBytesPlaced();
            }
            r.samples[k].push_back(now - last[k]);
            last[k] = now;
        }
        if (watchedQueue)
        {
            r.queueSamples.push_back(watchedQueue->GetDataBytes());
        }
        if (left > 0)
        {
            Simulator::Schedule(bin, sample);
        }
    };
    if (!run.watch.empty() || watchedQueue)
    {
        Simulator::Schedule(bin, sample);
    }
    if (run.busyUplinkAtUs > 0 && n > 0)
    {
        Simulator::Schedule(
            Us(run.busyUplinkAtUs),
            [&]()
            {
                const uint32_t t0 = w.fabric->GetT0Of(run.flows[0].src);
                uint32_t best = 0;
                uint64_t most = 0;
                for (uint32_t j = 0; j < w.fabric->GetNT1(); ++j)
                {
                    const uint64_t b = UplinkPort(w, 0, t0, j)->GetTxBytes();
                    if (b > most)
                    {
                        most = b;
                        best = j;
                    }
                }
                std::ostringstream name;
                name << "plane0/t0-" << t0 << "/t1-" << best;
                r.downedLink = name.str();
                r.downedT1 = static_cast<int32_t>(best);
                if (run.busyAction == "lossy")
                {
                    Ptr<MrcChannel> ch = w.fabric->GetUplink(0, t0, best);
                    ch->SetLossRate(plan.lossy.rate);
                    Simulator::Schedule(
                        Us(plan.lossy.toUs) - Simulator::Now(), &MrcChannel::SetLossRate, ch, 0.0);
                    // Note the first data frame the cable loses: a lost acknowledgement or
                    // probe says nothing about the path to the sender that sprays onto it.
                    ch->TraceConnectWithoutContext(
                        "LostInFlight",
                        MakeCallback(+[](double* first, Ptr<const Packet> frame)
                                     {
                                         if (std::isnan(*first)
                                             && frame->GetSize() > MrcHeader::SIZE)
                                         {
                                             *first = Simulator::Now().GetNanoSeconds() / 1000.0;
                                         }
                                     })
                            .Bind(&r.firstLossUs));
                    return;
                }
                std::string err;
                NS_ABORT_MSG_UNLESS(w.faults->GetInjector()->Schedule(
                                        Time(0), "link_down", r.downedLink, Time(0), err),
                                    "claims: " << err);
            });
    }
    Simulator::Stop(Us(run.stopUs));
    const auto t0 = std::chrono::steady_clock::now();
    MrcInterrupt::Watch(); // SIGINT/SIGTERM stop the run (then MrcInterrupt::Check throws)
    Simulator::Run();
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (MrcInterrupt::Requested())
    {
        Simulator::Destroy();
        MrcInterrupt::Check(std::string("flow run, ") + SchemeName(scheme));
    }
    if (n > 0)
    {
        Ptr<MrcPathSelector> sel = senders[0]->GetPathSelector();
        for (uint32_t e = 0; e < sel->GetNEvs(); ++e)
        {
            r.evs0.push_back(sel->GetEv(static_cast<uint16_t>(e)));
        }
    }
    {
        UintegerValue payload;
        if (!senders.empty())
        {
            senders[0]->GetAttribute("PayloadSize", payload);
        }
        r.baseRttUs
            = w.fabric->GetBaseRtt(MrcIpv6Fields::HEADER_BYTES + MrcHeader::SIZE + payload.Get())
                  .GetNanoSeconds()
            / 1000.0;
    }
    r.lastUsePerPlaneUs.assign(w.fabric->GetNPlanes(), NAN);
    for (const auto& kv : lastUse)
    {
        double& p = r.lastUsePerPlaneUs[kv.first.first];
        p = std::isnan(p) ? kv.second : std::max(p, kv.second);
    }
    if (r.downedT1 >= 0)
    {
        const auto it = lastUse.find({uint16_t(0), uint16_t(r.downedT1)});
        if (it != lastUse.end())
        {
            r.deadPathLastUseUs = it->second;
        }
    }
    Counters(w, r.retx, r.spurious, r.timeouts, r.failedQps, r.pauses);
    r.retirements = w.retirements;
    r.retireCauses = w.causes;
    r.trims = w.fabric->GetTrimmedTotal();
    r.drops = w.fabric->GetDropsByReason();
    Simulator::Destroy();
    return r;
}

} // namespace claims
} // namespace ns3
