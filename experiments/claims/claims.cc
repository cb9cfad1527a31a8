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

void
ClaimReport::Check(const std::string& metric,
                   const std::string& unit,
                   double mrc,
                   double baseline,
                   const std::string& threshold,
                   bool pass,
                   const std::string& source)
{
    rows.push_back(Row{metric, unit, mrc, baseline, threshold, pass ? 1 : 0, source});
}

void
ClaimReport::Info(const std::string& metric, const std::string& unit, double mrc, double baseline)
{
    rows.push_back(Row{metric, unit, mrc, baseline, "", -1, ""});
}

std::string
ClaimReport::Verdict() const
{
    uint32_t checks = 0;
    uint32_t passed = 0;
    for (const auto& r : rows)
    {
        checks += r.check >= 0 ? 1 : 0;
        passed += r.check == 1 ? 1 : 0;
    }
    if (checks == 0)
    {
        return "measured";
    }
    if (passed == checks)
    {
        return "reproduced";
    }
    return passed > 0 ? "partly" : "not reproduced";
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

namespace
{

/** A claim function with its id. */
struct Entry
{
    const char* id;               //!< C1 .. C13
    ClaimReport (*run)(Context&); //!< the function
    const char*
        mutants; //!< the mutants its checks must reject (comma-separated; "a+b": a and b together)
};

/// Every claim, in order, with the mutants (MrcMutant) each must reject.
const Entry CLAIMS[] = {
    {"C1", &ClaimC1, ""},
    {"C2", &ClaimC2, "rto-only+slow-rto"},
    {"C3", &ClaimC3, "rto-only+slow-rto,no-probe,ecmp-instant"},
    {"C4", &ClaimC4, "no-port-bitmap"},
    {"C5", &ClaimC5, "rto-only,slow-rto,ecmp-instant"},
    {"C6", &ClaimC6, "no-spray"},
    {"C7", &ClaimC7, "no-trim,no-nscc,no-pfc"},
    {"C8", &ClaimC8, "rto-only,no-probe"},
    {"C9", &ClaimC9, "no-trim"},
    {"C10", &ClaimC10, "no-spray"},
    {"C11", &ClaimC11, ""},
    {"C12", &ClaimC12, "no-spray"},
    {"C13", &ClaimC13, ""},
};

/**
 * @param x a value
 * @return it for a CSV or a table ("" or "-" for NaN is the caller's choice: here "")
 */
std::string
Num(double x)
{
    if (std::isnan(x))
    {
        return "";
    }
    std::ostringstream os;
    os << std::setprecision(6) << x;
    return os.str();
}

/**
 * @param s text
 * @return it quoted for CSV
 */
std::string
Csv(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
    {
        return s;
    }
    std::string q = "\"";
    for (char ch : s)
    {
        q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    }
    return q + "\"";
}

/**
 * @param x a value
 * @return it for a Markdown table (4 significant digits, "-" for NaN)
 */
std::string
Md(double x)
{
    if (std::isnan(x))
    {
        return "-";
    }
    std::ostringstream os;
    os << std::setprecision(4) << x;
    return os.str();
}

/**
 * @param reports the claims' reports
 * @return claims.csv
 */
std::string
ClaimsCsv(const std::vector<ClaimReport>& reports)
{
    std::ostringstream os;
    os << "claim,metric,unit,mrc,baseline,threshold,check,verdict,threshold_source\n";
    for (const auto& c : reports)
    {
        const std::string verdict = c.Verdict();
        for (const auto& r : c.rows)
        {
            os << c.id << "," << Csv(r.metric) << "," << Csv(r.unit) << "," << Num(r.mrc) << ","
               << Num(r.baseline) << "," << Csv(r.threshold) << ","
               << (r.check < 0 ? "info" : (r.check ? "pass" : "fail")) << "," << verdict << ","
               << Csv(r.source) << "\n";
        }
    }
    return os.str();
}

/**
 * @param reports the claims' reports
 * @return figures.csv (one row per point)
 */
std::string
FiguresCsv(const std::vector<ClaimReport>& reports)
{
    std::ostringstream os;
    os << "claim,panel,kind,title,xlabel,ylabel,logx,logy,categories,series,x,y\n";
    for (const auto& c : reports)
    {
        for (std::size_t p = 0; p < c.figures.size(); ++p)
        {
            const Figure& f = c.figures[p];
            std::string cats;
            for (std::size_t i = 0; i < f.categories.size(); ++i)
            {
                cats += (i ? "|" : "") + f.categories[i];
            }
            for (const auto& s : f.series)
            {
                for (std::size_t i = 0; i < s.y.size(); ++i)
                {
                    os << c.id << "," << p << "," << f.kind << "," << Csv(f.title) << ","
                       << Csv(f.xlabel) << "," << Csv(f.ylabel) << "," << (f.logx ? 1 : 0) << ","
                       << (f.logy ? 1 : 0) << "," << Csv(cats) << "," << Csv(s.name) << ","
                       << (i < s.x.size() ? Num(s.x[i]) : "") << "," << Num(s.y[i]) << "\n";
                }
            }
        }
    }
    return os.str();
}

/**
 * @param reports the claims' reports
 * @param scale the scale
 * @param seed seed
 * @param command the command line
 * @param wall wall seconds
 * @param planned claims selected (more than reports: a partial file, written as claims finish)
 * @return claims.md
 */
std::string
ClaimsMd(const std::vector<ClaimReport>& reports,
         const Scale& scale,
         uint32_t seed,
         const std::string& command,
         double wall,
         std::size_t planned,
         const std::string& mutants)
{
    std::ostringstream os;
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M", std::localtime(&now));
    os << "# The MRC paper's claims, measured\n\n";
    if (reports.size() < planned)
    {
        os << "**Partial: " << reports.size() << " of " << planned
           << " claims so far; the run is still going, or was stopped.**\n\n";
    }
    if (!mutants.empty())
    {
        os << "**Mutant model: `" << mutants
           << "`** (MrcMutant: a mechanism broken on purpose; the verdicts below are of that "
              "model, not of MRC).\n\n";
    }
    os << "Command: `" << command << "`; scale `" << scale.name << "`, seed " << seed << ", "
       << date << ", wall time " << std::fixed << std::setprecision(0) << wall << " s. "
       << "Training fabric: " << scale.fabric.hosts << " GPUs, " << scale.fabric.planes
       << " planes of " << scale.fabric.planeRate << " for MRC (the baseline: one plane at "
       << scale.fabric.planes << "x the rate), " << scale.fabric.hostsPerT0 << " hosts per T0, "
       << scale.fabric.t1
       << " T1s per plane; job: " << MrcCollective::TypeName(scale.job.collective) << " of "
       << scale.job.bytes << " bytes, " << scale.job.steps
       << " steps, ranks placed at random (C10 and C12: "
       << MrcCollective::TypeName(scale.bwJob.collective) << " of " << scale.bwJob.bytes
       << " bytes, " << scale.bwJob.steps << " steps, so that transfers "
       << "are bandwidth-bound). Timers are deployed "
       << "values on both sides; what is scaled (workload, fault rates, durations) is stated "
       << "per claim.\n\n"
       << "Verdicts are computed from the checks next to each claim in "
       << "`experiments/claims/`: all pass, *reproduced*; some, *partly*; none, *not "
       << "reproduced*; a claim with no check (information only), *measured*. Each "
       << "threshold states where it comes from. Both schemes of a comparison run the same "
       << "placement, jobs and fault schedule (absolute times; see `pairing` in run.json).\n\n"
       << "| claim | statement | verdict | checks passed |\n| --- | --- | --- | --- |\n";
    for (const auto& c : reports)
    {
        uint32_t n = 0;
        uint32_t p = 0;
        for (const auto& r : c.rows)
        {
            n += r.check >= 0 ? 1 : 0;
            p += r.check == 1 ? 1 : 0;
        }
        os << "| " << c.id << " | " << c.claim << " | **" << c.Verdict() << "** | " << p << "/" << n
           << " |\n";
    }
    for (const auto& c : reports)
    {
        os << "\n## " << c.id << ": " << c.Verdict() << "\n\n> " << c.claim << "\n\n"
           << "Baseline column: " << c.baselineName << ". " << c.runs << " simulation(s), "
           << std::setprecision(1) << c.wall << " s.\n\n"
           << "Evidence: " << c.kind;
        if (!c.mutants.empty())
        {
            os << "; the checks must reject the mutants ";
            for (std::size_t i = 0; i < c.mutants.size(); ++i)
            {
                os << (i ? ", " : "") << "`" << c.mutants[i] << "`";
            }
        }
        os << ".\n\n"
           << "| metric | unit | MRC | baseline | check | result | threshold from |\n"
           << "| --- | --- | --- | --- | --- | --- | --- |\n";
        for (const auto& r : c.rows)
        {
            os << "| " << r.metric << " | " << r.unit << " | " << Md(r.mrc) << " | "
               << Md(r.baseline) << " | " << r.threshold << " | "
               << (r.check < 0 ? "" : (r.check ? "pass" : "**fail**")) << " | " << r.source
               << " |\n";
        }
        for (const auto& n : c.notes)
        {
            os << "\n" << n << "\n";
        }
        if (!c.figures.empty())
        {
            os << "\n![" << c.id << "](" << c.id << ".png)\n";
        }
    }
    return os.str();
}

/**
 * @param records every run's digests
 * @return per claim and comparison, each scheme's placement and fault digests, and whether
 *         they are equal across the schemes compared
 */
nlohmann::ordered_json
PairingJson(const std::vector<PairRecord>& records)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& r : records)
    {
        auto& c = out[r.claim][r.label];
        c["schemes"][r.scheme]
            = {{"placement", r.placement.substr(0, 16)}, {"faults", r.faults.substr(0, 16)}};
    }
    for (auto& claim : out.items())
    {
        for (auto& cmp : claim.value().items())
        {
            std::set<std::string> p;
            std::set<std::string> f;
            for (auto& sch : cmp.value()["schemes"].items())
            {
                p.insert(sch.value()["placement"].get<std::string>());
                f.insert(sch.value()["faults"].get<std::string>());
            }
            cmp.value()["paired"] = p.size() == 1 && f.size() == 1;
        }
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    // Fix the time resolution (ns, ns-3's default) before building anything: until it is
    // fixed, ns-3 records every Time object in a global set (a tree insertion per Time member
    // of every device, queue and queue pair).
    Time::SetResolution(Time::NS);
    std::string which = "all";
    std::string scaleName = "quick";
    uint32_t seed = 1;
    std::string out;
    bool overwrite = false;
    bool plots = true;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Measures the MRC paper's claims C1-C12 and the fault-free parity C13, MRC "
              "against the baseline, and writes "
              "claims.csv, figures.csv, claims.md, run.json and a PNG per claim.");
    cmd.AddValue("claim", "Claims to run: all, or a comma-separated list such as C2,C5", which);
    cmd.AddValue("scale",
                 "tiny (16 GPUs: seconds), quick (32 GPUs, 8 planes: a few minutes; the "
                 "tests run it) or full (1024 GPUs, 8 planes: about two hours of CPU)",
                 scaleName);
    cmd.AddValue("seed", "Random seed", seed);
    bool production = false;
    uint32_t productionGpus = 131072;
    cmd.AddValue("production",
                 "Add production-scale rows to C2, C3 and C4, measured with the flow-level model "
                 "(--model=fluid) on the paper's fabric: the job time one fault costs a 1 GiB "
                 "hierarchical all-reduce job (minutes at 131,072 GPUs)",
                 production);
    cmd.AddValue("productionGpus",
                 "GPUs of the production fabric (8 planes; T0s of min(256, GPUs/2) hosts)",
                 productionGpus);
    cmd.SetRange("seed", 1, 4294967086); // MRG32k3a's seeds
    cmd.AddValue("out", "Results directory (default results/claims-<time>)", out);
    cmd.AddValue("overwrite", "Clear --out first if it is not empty", overwrite);
    cmd.AddValue("plots", "Draw the PNGs (needs /usr/bin/python3 and matplotlib)", plots);
    std::string mutantList;
    cmd.AddValue("mutant",
                 "Run the suite on a mutant model (MrcMutant, comma-separated): a mechanism "
                 "broken on purpose, to show which verdicts can fail (none: the real model)",
                 mutantList);
    bool listMutants = false;
    cmd.AddValue("listMutants",
                 "Print, per claim, the mutants its checks must reject, and exit",
                 listMutants);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    if (listMutants)
    {
        for (const auto& e : CLAIMS)
        {
            std::cout << e.id << " " << (e.mutants[0] ? e.mutants : "-") << "\n";
        }
        return 0;
    }
    {
        std::vector<const MrcMutant::Entry*> parsed;
        std::string err;
        if (!MrcMutant::Parse(mutantList, parsed, err))
        {
            std::cerr << "error: --mutant: " << err << std::endl;
            return 1;
        }
        if (mutantList == "none")
        {
            mutantList.clear();
        }
        if (!parsed.empty() && production)
        {
            std::cerr << "error: --mutant acts at packet level only; --production's flow-level "
                         "rows take their failover costs from packet-level measurements (drop "
                         "--production=1)"
                      << std::endl;
            return 1;
        }
        Config::SetDefault("ns3::MrcSchemeHelper::Mutants", StringValue(mutantList));
    }
    if (!MrcCommandLine::CheckSeed(seed))
    {
        return 1;
    }
    if (productionGpus < 16 || productionGpus > (1u << 20)
        || productionGpus % std::min(256u, productionGpus / 2) != 0)
    {
        std::cerr << "error: --productionGpus must be between 16 and 1048576 and a multiple of "
                     "min(256, GPUs / 2) (got "
                  << productionGpus << ")" << std::endl;
        return 1;
    }
    Context ctx;
    ctx.seed = seed;
    ctx.production = production;
    ctx.productionGpus = productionGpus;
    if (!GetScale(scaleName, ctx.scale))
    {
        std::cerr << "error: --scale must be tiny, quick or full (got '" << scaleName << "')"
                  << std::endl;
        return 1;
    }
    std::vector<const Entry*> selected;
    {
        std::string list = which == "all" ? std::string() : which;
        std::istringstream is(list);
        std::string id;
        while (std::getline(is, id, ','))
        {
            const Entry* found = nullptr;
            for (const auto& e : CLAIMS)
            {
                found = (id == e.id || id == std::string("c") + (e.id + 1)) ? &e : found;
            }
            if (!found)
            {
                std::cerr << "error: --claim must be all or a comma-separated list of C1 to C13 "
                             "(got '"
                          << id << "')" << std::endl;
                return 1;
            }
            if (std::find(selected.begin(), selected.end(), found) != selected.end())
            {
                std::cerr << "error: --claim names " << found->id << " twice" << std::endl;
                return 1;
            }
            selected.push_back(found);
        }
        if (which == "all")
        {
            for (const auto& e : CLAIMS)
            {
                selected.push_back(&e);
            }
        }
        if (selected.empty())
        {
            std::cerr << "error: --claim must be all or a comma-separated list of C1 to C13"
                      << std::endl;
            return 1;
        }
    }
    if (out.empty())
    {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
        out = std::string("results/claims-") + stamp;
    }
    MrcInterrupt::Install();
    MrcResultsDir dir;
    std::string openError;
    if (!dir.Open(out, "claims", overwrite, openError))
    {
        std::cerr << "error: --out: " << openError << std::endl;
        return 1;
    }
    dir.SetCommandLine(argc, argv);
    std::ostringstream command;
    command << "./ns3 run \"claims";
    for (int i = 1; i < argc; ++i)
    {
        command << " " << argv[i];
    }
    command << "\"";
    std::vector<ClaimReport> reports;
    const auto start = std::chrono::steady_clock::now();
    // Every file is rewritten (through a temporary name) as each claim finishes, so a long run
    // that is stopped keeps what it measured; run.json says whether the run is complete.
    // done: the last write, after the plots (run.json "complete": true).
    auto write = [&](double wall, const std::string& reason, bool done)
    {
        const bool complete = reports.size() == selected.size() && reason.empty();
        nlohmann::ordered_json claimsJson = nlohmann::ordered_json::object();
        for (const auto& r : reports)
        {
            claimsJson[r.id] = {{"verdict", r.Verdict()},
                                {"kind", r.kind},
                                {"must_reject", r.mutants},
                                {"wall_time_s", r.wall},
                                {"simulations", r.runs},
                                {"claim", r.claim},
                                {"baseline", r.baselineName}};
        }
        std::string err;
        const bool ok
            = dir.WriteFile("claims.csv", ClaimsCsv(reports), err)
           && dir.WriteFile("figures.csv", FiguresCsv(reports), err)
           && dir.WriteFile(
               "claims.md",
               ClaimsMd(reports, ctx.scale, seed, command.str(), wall, selected.size(), mutantList),
               err)
           && dir.WriteRunJson(
               "claims",
               MRC_VERSION,
               seed,
               cmd.GetValues(),
               {{"wall_time_s", std::to_string(wall)},
                {"ns3_version",
                 nlohmann::ordered_json(std::string("ns-") + MRC_NS3_VERSION).dump()},
                {"simulations", std::to_string(ctx.runs)},
                {"timers_scaled", "false"},
                {"claims_done", std::to_string(reports.size())},
                {"claims_planned", std::to_string(selected.size())},
                {"mutants", nlohmann::ordered_json(mutantList).dump()},
                {"pairing", PairingJson(ctx.pairing).dump()},
                {"claims", claimsJson.dump()}},
               done,
               reason.empty()
                   ? (complete ? std::string("plots not made yet") : std::string("running"))
                   : reason,
               err);
        if (!ok)
        {
            std::cerr << "error: --out: cannot write the results into '" << out << "': " << err
                      << std::endl;
        }
        return ok;
    };
    auto elapsed = [&start]()
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    try
    {
        for (const Entry* e : selected)
        {
            std::cerr << "[" << e->id << "] running (scale " << ctx.scale.name << ")" << std::endl;
            const uint32_t runsBefore = ctx.runs;
            const auto t0 = std::chrono::steady_clock::now();
            ctx.claim = e->id;
            ClaimReport r = e->run(ctx);
            r.mutants.clear();
            std::istringstream ms(e->mutants);
            for (std::string m; std::getline(ms, m, ',');)
            {
                r.mutants.push_back(m);
            }
            r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            r.runs = ctx.runs - runsBefore;
            std::cerr << "[" << e->id << "] " << r.Verdict() << " (" << std::fixed
                      << std::setprecision(1) << r.wall << " s)" << std::endl;
            reports.push_back(std::move(r));
            if (!write(elapsed(), "", false))
            {
                return 1;
            }
        }
        if (plots)
        {
            const int rc
                = MrcInterrupt::RunChild({"/usr/bin/python3",
                                          std::string(MRC_SOURCE_DIR) + "/analysis/plot_claims.py",
                                          "--in-run",
                                          out});
            MrcInterrupt::Check("plotting");
            if (rc != 0)
            {
                std::cerr << "warning: the plots could not be made (/usr/bin/python3 "
                          << MRC_SOURCE_DIR << "/analysis/plot_claims.py '" << out
                          << "' exited with " << rc << ")" << std::endl;
            }
        }
    }
    catch (const MrcInterrupted& e)
    {
        write(elapsed(), e.what(), false);
        std::cerr << "claims: " << e.what() << "; the claims finished so far are in " << out
                  << " (run.json: \"complete\": false)" << std::endl;
        return MrcInterrupt::ExitStatus();
    }
    {
        std::string err;
        if (!dir.ReloadManifest(err) || !write(elapsed(), "", true) || !dir.SetComplete(err))
        {
            if (!err.empty())
            {
                std::cerr << "error: --out: " << err << std::endl;
            }
            return 1;
        }
    }

    // The table.
    std::cout << "\n"
              << std::left << std::setw(5) << "claim" << std::setw(16) << "verdict"
              << "statement\n";
    for (const auto& c : reports)
    {
        std::cout << std::left << std::setw(5) << c.id << std::setw(16) << c.Verdict() << c.claim
                  << "\n";
        for (const auto& r : c.rows)
        {
            if (r.check >= 0)
            {
                std::cout << "       " << (r.check ? "pass " : "FAIL ") << r.metric
                          << (r.unit.empty() ? "" : " (" + r.unit + ")") << ": mrc " << Md(r.mrc)
                          << ", baseline " << Md(r.baseline) << "; " << r.threshold << "\n";
            }
        }
    }
    std::cout << "\nresults: " << out << "/{claims.csv,figures.csv,claims.md,run.json}"
              << std::endl;
    return 0;
}
