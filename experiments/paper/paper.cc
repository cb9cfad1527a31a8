/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief The paper program: the MRC paper's testbed experiments reproduced figure by figure
 * (../shared/PAPER.md), ours against the paper's values, and checks that mutants must fail.
 *
 *   ./ns3 run "paper --figure=16,17"
 *   ./ns3 run "paper --figure=18,19,20,21,22"
 *   ./ns3 run "paper --figure=22 --scale=full"
 *   ./ns3 run "paper --help"
 *
 * Writes, into its results directory: checks.csv (the checks and measured rows),
 * agreements.csv (ours against the paper's, row by row), figures.csv, paper.md, run.json, and
 * a PNG and a PDF per figure.
 */

#include "paper.h"

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::paper;

namespace ns3
{
namespace paper
{

bool
GetScale(const std::string& name, Scale& s)
{
    s.name = name;
    s.losses = {0, 0.001, 0.01};
    s.mrcQps = {1, 8};
    s.collectiveStopUs = 60e6;
    if (name == "tiny")
    {
        s.runUs = 6000;
        s.phaseUs = 2500;
        s.binUs = 250;
        s.seeds = 2;
        s.sizes = {2000000, 16000000};
        s.roceQps = {1, 16};
        s.mrcQps = {1};
        s.iterations = 2;
        s.sendrecvSizes = {64000000, 2000000000};
        s.sendrecvPacketSizes = {128000000};
        s.sendrecvFluidHosts = 1024;
        return true;
    }
    if (name == "quick")
    {
        s.runUs = 30000;
        s.phaseUs = 4000;
        s.binUs = 250;
        s.seeds = 4;
        s.sizes = {4000000, 16000000, 32000000};
        s.roceQps = {1, 8, 16};
        s.iterations = 3;
        s.sendrecvSizes = {64000000, 256000000, 1000000000, 2000000000};
        s.sendrecvPacketSizes = {64000000, 256000000};
        s.sendrecvFluidHosts = 41984;
        return true;
    }
    if (name == "full")
    {
        s.runUs = 100000;
        s.phaseUs = 10000;
        s.binUs = 500;
        s.seeds = 16;
        s.sizes = {4000000, 16000000, 64000000, 256000000, 1000000000};
        s.roceQps = {1, 2, 4, 8, 16};
        s.iterations = 3;
        s.sendrecvSizes = {64000000, 256000000, 1000000000, 2000000000};
        s.sendrecvPacketSizes = {64000000, 256000000, 1000000000, 2000000000};
        s.sendrecvFluidHosts = 41984;
        return true;
    }
    return false;
}

/**
 * Parse a comma-separated list of whole numbers.
 * @param text the list
 * @param lo the least value accepted
 * @param hi the largest value accepted
 * @param out set to the values
 * @return false (out unchanged) if an item is not a whole number in [lo, hi] or the list is
 * empty
 */
bool
ParseList(const std::string& text, uint64_t lo, uint64_t hi, std::vector<uint64_t>& out)
{
    std::vector<uint64_t> v;
    for (const std::string& item : MrcText::Split(text, ','))
    {
        uint64_t x = 0;
        std::string why;
        if (!MrcNumberParser::ParseUnsigned(item, lo, hi, x, why))
        {
            return false;
        }
        v.push_back(x);
    }
    out = v;
    return true;
}

/**
 * Apply --sizes, --roceQps and --mrcQps to a scale.
 * @param sizes --sizes (empty: the scale's)
 * @param roceQps --roceQps (empty: the scale's)
 * @param mrcQps --mrcQps (empty: the scale's)
 * @param s the scale
 * @return false after one line on stderr for a bad value
 */
bool
ApplyOverrides(const std::string& sizes,
               const std::string& roceQps,
               const std::string& mrcQps,
               Scale& s)
{
    std::vector<uint64_t> v;
    auto increasing = [](const std::vector<uint64_t>& x)
    {
        return std::adjacent_find(x.begin(), x.end(), std::greater_equal<uint64_t>()) == x.end();
    };
    if (!sizes.empty())
    {
        if (!ParseList(sizes, 65536, 16000000000ULL, v) || !increasing(v))
        {
            std::cerr << "error: --sizes must be increasing byte counts from 65536 to "
                         "16000000000, comma-separated (got '"
                      << sizes << "')" << std::endl;
            return false;
        }
        s.sizes = v;
    }
    if (!roceQps.empty())
    {
        if (!ParseList(roceQps, 1, 64, v) || v.front() != 1 || !increasing(v))
        {
            std::cerr << "error: --roceQps must be increasing queue-pair counts from 1 to 64 "
                         "starting with 1, comma-separated (got '"
                      << roceQps << "')" << std::endl;
            return false;
        }
        s.roceQps.assign(v.begin(), v.end());
    }
    if (!mrcQps.empty())
    {
        if (!ParseList(mrcQps, 1, 64, v) || v.front() != 1 || !increasing(v))
        {
            std::cerr << "error: --mrcQps must be increasing queue-pair counts from 1 to 64 "
                         "starting with 1, comma-separated (got '"
                      << mrcQps << "')" << std::endl;
            return false;
        }
        s.mrcQps.assign(v.begin(), v.end());
    }
    return true;
}

} // namespace paper
} // namespace ns3

int
main(int argc, char* argv[])
{
    Context ctx;
    Scale scale;
    evidence::Suite suite;
    suite.program = "paper";
    suite.usage = "Reproduces the MRC paper's testbed experiments figure by figure (Cluster B: "
                  "Figs 9-12, 14, 15; Cluster C: Figs 16-17; Cluster D: Figs 18-22), MRC and the "
                  "RoCE baselines on the paper's "
                  "setups, and writes "
                  "checks.csv, agreements.csv (ours against the paper's values), figures.csv, "
                  "paper.md, run.json and a PNG and a PDF per figure.";
    suite.selectOption = "figure";
    suite.selectHelp = "Figures to run: all, or a comma-separated list such as 16,22 (or F16,F22)";
    suite.scales = "tiny,quick,full";
    suite.scale = "quick";
    suite.scaleHelp = "tiny (the tests: seconds per figure), quick (minutes for all) or full "
                      "(longer runs, more seeds)";
    suite.checksFile = "checks.csv";
    suite.mdFile = "paper.md";
    suite.title = "The MRC paper's testbed figures, reproduced";
    suite.plotFormats = "png,pdf";
    // Every figure, with the mutants (MrcMutant) its checks must reject.
    const std::vector<
        std::pair<std::string, std::pair<Report (*)(Context&, const Scale&), std::string>>>
        figures = {
            {"F9", {&Figure9, "no-port-bitmap,no-probe,rto-only+slow-rto"}},
            {"F10", {&Figure10, ""}},
            {"F11", {&Figure11, "no-probe,rto-only+slow-rto"}},
            {"F12", {&Figure12, "rto-only,rto-only+slow-rto"}},
            {"F14", {&Figure14, "rto-only,no-spray"}},
            {"F15", {&Figure15, "no-spray"}},
            {"F16", {&Figure16, "no-spray,rto-only+slow-rto"}},
            {"F17", {&Figure17, "no-spray"}},
            {"F18", {&Figure18, "no-spray,no-nscc"}},
            {"F19", {&Figure19, "no-probe"}},
            {"F20", {&Figure20, "no-spray"}},
            {"F21", {&Figure21, "no-nscc,no-pfc"}},
            {"F22", {&Figure22, "no-dcqcn,no-pfc"}},
        };
    for (const auto& f : figures)
    {
        auto fn = f.second.first;
        suite.entries.push_back({f.first,
                                 [fn, &ctx, &scale]()
                                 {
                                     return fn(ctx, scale);
                                 },
                                 f.second.second});
    }
    std::string sizes;
    std::string roceQps;
    std::string mrcQps;
    suite.addOptions = [&](MrcCommandLine& cmd)
    {
        cmd.AddValue("sizes",
                     "Figs 16-17: collective sizes in bytes, comma-separated (default: the "
                     "scale's; the first is the small size of Fig 16's latency-bound row)",
                     sizes);
        cmd.AddValue("roceQps",
                     "Fig 16: RoCE's queue pairs per peer, comma-separated, from 1 (default: "
                     "the scale's; the last is the one Figs 16-17 compare MRC with)",
                     roceQps);
        cmd.AddValue("mrcQps",
                     "Fig 16: MRC's queue pairs per peer, comma-separated, from 1 (default: "
                     "the scale's)",
                     mrcQps);
    };
    suite.setup = [&](const std::string& mutants)
    {
        ctx.seed = suite.seed;
        ctx.jobs = suite.jobs;
        return GetScale(suite.scale, scale)
            && claims::CheckModelAttributes(
                   {FabricSpec(), Cluster("B"), Cluster("C"), Cluster("D"), CalibrationLeafSpine()},
                   // Fig 15's flow-level rows (left out under a mutant, which acts at packet
                   // level only)
                   mutants.empty() ? std::vector<FabricSpec>{SendrecvFluidFabric(scale)}
                                   : std::vector<FabricSpec>{})
            && ApplyOverrides(sizes, roceQps, mrcQps, scale);
    };
    suite.describe = [&scale]()
    {
        std::ostringstream os;
        os << "Cluster B (Figs 9-14, MrcClusterPreset B with its calibrated latencies): 32 "
              "hosts with 800G NICs as 8 x 100G ports on 8 planes, 8 hosts per T0, 8 T1s per "
              "plane; ib_write_bw as 4 QPs. "
              "Cluster C (Figs 16-17, MrcClusterPreset C): 64 GPUs, MRC on 4 x 100G planes, "
              "RoCE on one 400G plane; collectives of "
           << scale.sizes.front() / 1000000 << " MB to " << scale.sizes.back() / 1000000 << " MB, "
           << scale.iterations
           << " iterations each. Cluster D (Figs 18-22, MrcClusterPreset D): 16 servers in 4 "
              "racks of 4, 4 spines, 400G links, one plane, for MRC and RoCE alike. Long-lived "
              "flows run "
           << scale.runUs / 1000 << " ms, a figure's phases " << scale.phaseUs / 1000
           << " ms, throughput is sampled in " << scale.binUs << " us bins; Fig 20 over "
           << scale.seeds
           << " seeds. Timers are deployed values on both sides; only the experiments' "
              "durations are compressed (run.json: time_compression).";
        return os.str();
    };
    suite.pairing = [&ctx]() -> const std::vector<evidence::PairRecord>&
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
