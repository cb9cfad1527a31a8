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

std::vector<FabricSpec>
ns3::claims::ScaleFabrics(const Scale& s)
{
    return {s.fabric, PermutationFabric(s), LargeT0Fabric(s.fabric)};
}

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
            {"C4", {&ClaimC4, "no-port-bitmap,rto-only+slow-rto"}},
            {"C5", {&ClaimC5, "rto-only,slow-rto,rto-only+slow-rto,ecmp-instant"}},
            {"C6", {&ClaimC6, "no-spray"}},
            {"C7", {&ClaimC7, "no-nscc,no-pfc"}},
            {"C8", {&ClaimC8, "rto-only,no-probe"}},
            {"C9", {&ClaimC9, "no-trim,no-spray"}},
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
        ctx.jobs = suite.jobs;
        ctx.production = production;
        ctx.productionGpus = productionGpus;
        return GetScale(suite.scale, ctx.scale)
            && CheckModelAttributes(ScaleFabrics(ctx.scale),
                                    production ? std::vector<FabricSpec>{ctx.ProductionFabric()}
                                               : std::vector<FabricSpec>{});
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
