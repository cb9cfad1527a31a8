/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The claims suite's scales and the context its claims (and the paper program's
 * figures) run their simulations through.
 */

#include "ns3/mrc-module.h"

#include "claims.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace ns3
{
namespace claims
{

bool
GetScale(const std::string& name, Scale& s)
{
    s = Scale();
    s.name = name;
    if (name == "tiny")
    {
        s.fabric.hosts = 16;
        s.fabric.planes = 4;
        s.fabric.hostsPerT0 = 4;
        s.fabric.t1 = 4;
        s.job.bytes = 1 << 20;
        s.job.steps = 3;
        s.bwJob = s.job;
        s.bwJob.bytes = 16 << 20;
        s.bwJob.steps = 2;
        s.permHosts = 16;
        s.permPerT0 = 4;
        s.permBytes = 2000000;
        s.longBytes = 8000000;
        s.flapRuns = 2;
        s.flapsPerRun = 8;
        s.incastSenders = 8;
        s.incastBytes = 1000000;
        return true;
    }
    if (name == "quick")
    {
        s.fabric.hosts = 32;
        s.fabric.planes = 8;
        s.fabric.hostsPerT0 = 8;
        s.fabric.t1 = 8;
        s.job.bytes = 4 << 20;
        s.job.steps = 4;
        s.bwJob = s.job;
        s.bwJob.bytes = 64 << 20;
        s.bwJob.steps = 2;
        s.permHosts = 64;
        s.permPerT0 = 8;
        s.permBytes = 8000000;
        s.longBytes = 40000000;
        s.flapRuns = 3;
        s.flapsPerRun = 12;
        s.incastSenders = 16;
        s.incastBytes = 2000000;
        return true;
    }
    if (name == "full")
    {
        s.fabric.hosts = 1024;
        s.fabric.planes = 8;
        s.fabric.hostsPerT0 = 32;
        s.fabric.t1 = 32;
        // A ring over 1024 ranks has 2046 rounds a step: 4 KiB transfers keep it to about two
        // million packets a step (latency-bound, as the quick job).
        s.job.bytes = 4 << 20;
        s.job.steps = 2;
        // A bandwidth-bound ring at this size would be half a billion packets a step: the
        // bandwidth-bound job is a pairwise exchange of 16 MB (pipeline-parallel traffic).
        s.bwJob = s.job;
        s.bwJob.collective = MrcCollective::SENDRECV;
        s.bwJob.bytes = 16000000;
        s.bwJob.steps = 2;
        s.permHosts = 1024;
        s.permPerT0 = 32;
        s.permBytes = 8000000;
        s.longBytes = 100000000;
        s.flapRuns = 2;
        s.flapsPerRun = 8;
        s.incastSenders = 64;
        s.incastBytes = 2000000;
        return true;
    }
    return false;
}

const TrainingResult&
Context::Training(const std::string& label,
                  Scheme scheme,
                  const FabricSpec& fab,
                  const JobSpec& job,
                  const FaultPlan& faults,
                  bool keep)
{
    const std::string k = keep ? label + "|" + SchemeName(scheme) : "#" + std::to_string(runs);
    auto it = cache.find(k);
    if (it != cache.end())
    {
        return it->second;
    }
    ++runs;
    TrainingResult r = RunTraining(scheme, fab, job, faults, seed);
    const std::string name = fab.mutants.empty() ? std::string(SchemeName(scheme))
                                                 : SchemeName(scheme) + (" " + fab.mutants);
    pairing.push_back(PairRecord{claim, label, name, r.placementDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": training, " << SchemeName(scheme) << ", " << fab.hosts
              << " GPUs, " << r.stepsDone << "/" << r.stepsPlanned << " steps, " << std::fixed
              << std::setprecision(1) << r.wall << " s" << std::endl;
    return cache.emplace(k, std::move(r)).first->second;
}

FlowResult
Context::Flows(const std::string& label,
               Scheme scheme,
               const FabricSpec& fab,
               const FlowRun& run,
               const FaultPlan& faults)
{
    ++runs;
    FlowResult r = RunFlows(scheme, fab, run, faults, seed);
    // A run on a per-run variant (C7's PFC-only baseline) is a scheme of its own here.
    const std::string name = fab.mutants.empty() ? std::string(SchemeName(scheme))
                                                 : SchemeName(scheme) + (" " + fab.mutants);
    pairing.push_back(PairRecord{claim, label, name, r.flowDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": " << run.flows.size() << " flow(s), " << SchemeName(scheme)
              << ", " << std::fixed << std::setprecision(1) << r.wall << " s" << std::endl;
    return r;
}

const TrainingResult&
Context::Reference(Scheme scheme)
{
    return Training("reference", scheme, scale.fabric, scale.job, FaultPlan(), true);
}

FabricSpec
Context::ProductionFabric() const
{
    FabricSpec f;
    f.hosts = productionGpus;
    f.planes = 8;
    f.hostsPerT0 = std::min(256u, productionGpus / 2);
    f.t1 = f.hostsPerT0;
    return f;
}

JobSpec
Context::ProductionJob() const
{
    JobSpec j;
    j.collective = MrcCollective::HIERARCHICAL_ALLREDUCE;
    j.bytes = uint64_t(1) << 30;
    j.steps = 3;
    j.computeUs = 1000;
    j.jitterUs = 0;
    j.placement = "contiguous";
    return j;
}

const TrainingResult&
Context::Production(const std::string& key,
                    const std::string& label,
                    Scheme scheme,
                    const FaultPlan& faults)
{
    const std::string k = key.empty() ? "#" + std::to_string(runs) : "prod-" + key;
    auto it = cache.find(k);
    if (it != cache.end())
    {
        return it->second;
    }
    ++runs;
    TrainingResult r = RunFluidTraining(scheme, ProductionFabric(), ProductionJob(), faults, seed);
    pairing.push_back(
        PairRecord{claim, label, SchemeName(scheme), r.placementDigest, r.faultDigest});
    std::cerr << "  run " << runs << ": training at flow level, " << SchemeName(scheme) << ", "
              << productionGpus << " GPUs, " << r.stepsDone << "/" << r.stepsPlanned << " steps, "
              << std::fixed << std::setprecision(1) << r.wall << " s" << std::endl;
    return cache.emplace(k, std::move(r)).first->second;
}

const TrainingResult&
Context::BandwidthReference(Scheme scheme)
{
    return Training(
        "bandwidth-bound reference", scheme, scale.fabric, scale.bwJob, FaultPlan(), true);
}

std::string
FormatUs(double us)
{
    std::ostringstream os;
    os << std::setprecision(3);
    if (us >= 1e6)
    {
        os << us / 1e6 << " s";
    }
    else if (us >= 1e3)
    {
        os << us / 1e3 << " ms";
    }
    else
    {
        os << us << " us";
    }
    return os.str();
}

std::vector<double>
RateGbps(const std::vector<uint64_t>& bytes, double binUs)
{
    std::vector<double> out;
    out.reserve(bytes.size());
    for (uint64_t b : bytes)
    {
        out.push_back(b * 8.0 / (binUs * 1e3));
    }
    return out;
}

} // namespace claims
} // namespace ns3
