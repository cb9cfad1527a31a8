/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The claims suite: measures each claim of the MRC paper, MRC against the baseline, and
 * writes claims.csv, figures.csv, claims.md, run.json and one PNG per claim.
 *
 *   ./ns3 run claims                                  # every claim, quick scale
 *   ./ns3 run "claims --claim=C2 --scale=full"
 *   ./ns3 run "claims --help"
 *
 * Verdicts come from the checks each claim function writes next to its measurements: every
 * check passed, reproduced; some, partly; none, not reproduced.
 */

#include "claims.h"

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::claims;

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
    pairing.push_back(
        PairRecord{claim, label, SchemeName(scheme), r.placementDigest, r.faultDigest});
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
    pairing.push_back(PairRecord{claim, label, SchemeName(scheme), r.flowDigest, r.faultDigest});
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
Context::Production(const std::string& key, Scheme scheme, const FaultPlan& faults)
{
    const std::string k = key.empty() ? "#" + std::to_string(runs) : "prod-" + key;
    auto it = cache.find(k);
    if (it != cache.end())
    {
        return it->second;
    }
    ++runs;
    TrainingResult r = RunFluidTraining(scheme, ProductionFabric(), ProductionJob(), faults, seed);
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

int
main(int argc, char* argv[])
{
    Context ctx;
    bool production = false;
    uint32_t productionGpus = 131072;
    evidence::Suite suite;
    suite.program = "claims";
    suite.usage = "Measures the MRC paper's claims C1-C12 and the fault-free parity C13, MRC "
                  "against the baseline, and writes claims.csv, figures.csv, claims.md, run.json "
                  "and a figure per claim.";
    suite.selectOption = "claim";
    suite.selectHelp = "Claims to run: all, or a comma-separated list such as C2,C5";
    suite.scales = "tiny,quick,full";
    suite.scale = "quick";
    suite.scaleHelp = "tiny (16 GPUs: seconds), quick (32 GPUs, 8 planes: a few minutes; the "
                      "tests run it) or full (1024 GPUs, 8 planes: about two hours of CPU)";
    suite.checksFile = "claims.csv";
    suite.mdFile = "claims.md";
    suite.title = "The MRC paper's claims, measured";
    // Every claim, in order, with the mutants (MrcMutant) each must reject.
    const std::vector<std::pair<std::string, std::pair<ClaimReport (*)(Context&), std::string>>>
        claims = {
            {"C1", {&ClaimC1, ""}},
            {"C2", {&ClaimC2, "rto-only+slow-rto"}},
            {"C3", {&ClaimC3, "rto-only+slow-rto,no-probe,ecmp-instant"}},
            {"C4", {&ClaimC4, "no-port-bitmap"}},
            {"C5", {&ClaimC5, "rto-only,slow-rto,ecmp-instant"}},
            {"C6", {&ClaimC6, "no-spray"}},
            {"C7", {&ClaimC7, "no-trim,no-nscc,no-pfc"}},
            {"C8", {&ClaimC8, "rto-only,no-probe"}},
            {"C9", {&ClaimC9, "no-trim"}},
            {"C10", {&ClaimC10, "no-spray"}},
            {"C11", {&ClaimC11, ""}},
            {"C12", {&ClaimC12, "no-spray"}},
            {"C13", {&ClaimC13, ""}},
        };
    for (const auto& c : claims)
    {
        auto fn = c.second.first;
        suite.entries.push_back({c.first,
                                 [fn, &ctx]()
                                 {
                                     return fn(ctx);
                                 },
                                 c.second.second});
    }
    suite.addOptions = [&](MrcCommandLine& cmd)
    {
        cmd.AddValue("production",
                     "Add production-scale rows to C2, C3 and C4, measured with the flow-level "
                     "model (--model=fluid) on the paper's fabric: the job time one fault costs "
                     "a 1 GiB hierarchical all-reduce job (minutes at 131,072 GPUs)",
                     production);
        cmd.AddValue("productionGpus",
                     "GPUs of the production fabric (8 planes; T0s of min(256, GPUs/2) hosts)",
                     productionGpus);
    };
    suite.setup = [&](const std::string& mutants)
    {
        if (productionGpus < 16 || productionGpus > (1u << 20)
            || productionGpus % std::min(256u, productionGpus / 2) != 0)
        {
            std::cerr << "error: --productionGpus must be between 16 and 1048576 and a multiple "
                         "of min(256, GPUs / 2) (got "
                      << productionGpus << ")" << std::endl;
            return false;
        }
        if (!mutants.empty() && production)
        {
            std::cerr << "error: --mutant acts at packet level only; --production's flow-level "
                         "rows take their failover costs from packet-level measurements (drop "
                         "--production=1)"
                      << std::endl;
            return false;
        }
        ctx.seed = suite.seed;
        ctx.production = production;
        ctx.productionGpus = productionGpus;
        return GetScale(suite.scale, ctx.scale);
    };
    suite.describe = [&ctx]()
    {
        const Scale& scale = ctx.scale;
        std::ostringstream os;
        os << "Training fabric: " << scale.fabric.hosts << " GPUs, " << scale.fabric.planes
           << " planes of " << scale.fabric.planeRate << " for MRC (the baseline: one plane at "
           << scale.fabric.planes << "x the rate), " << scale.fabric.hostsPerT0 << " hosts per T0, "
           << scale.fabric.t1
           << " T1s per plane; job: " << MrcCollective::TypeName(scale.job.collective) << " of "
           << scale.job.bytes << " bytes, " << scale.job.steps
           << " steps, ranks placed at random (C10 and C12: "
           << MrcCollective::TypeName(scale.bwJob.collective) << " of " << scale.bwJob.bytes
           << " bytes, " << scale.bwJob.steps
           << " steps, so that transfers are bandwidth-bound). Timers are deployed values on "
              "both sides; what is scaled (workload, fault rates, durations) is stated per "
              "claim.";
        return os.str();
    };
    suite.pairing = [&ctx]() -> const std::vector<PairRecord>&
    {
        return ctx.pairing;
    };
    suite.simulations = [&ctx]()
    {
        return ctx.runs;
    };
    suite.current = [&ctx](const std::string& id)
    {
        ctx.claim = id;
    };
    return evidence::RunSuite(suite, argc, argv);
}
