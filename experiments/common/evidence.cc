/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "evidence.h"

#include "ns3/mrc-module.h"

#include "ns3/core-module.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

namespace ns3
{
namespace evidence
{

void
Report::Check(const std::string& metric,
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
Report::Info(const std::string& metric, const std::string& unit, double mrc, double baseline)
{
    rows.push_back(Row{metric, unit, mrc, baseline, "", -1, ""});
}

void
Report::Agree(const std::string& setup,
              const std::string& metric,
              double ours,
              const std::string& unit,
              const std::string& paper,
              const std::string& rule,
              int agrees)
{
    agreements.push_back(Agreement{setup, metric, ours, unit, paper, rule, agrees});
}

std::string
Report::Verdict() const
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
    // A structural claim's checks are arithmetic or placement, which no transport mutant can
    // change: they hold or not, and are not counted as a reproduced mechanism.
    const bool structural = kind == "structural";
    if (passed == checks)
    {
        return structural ? "holds" : "reproduced";
    }
    if (passed > 0)
    {
        return "partly";
    }
    return structural ? "does not hold" : "not reproduced";
}

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

namespace
{

/**
 * @param reports the reports
 * @param idColumn the first column's name (claim or figure)
 * @return the checks and information rows as CSV
 */
std::string
ChecksCsv(const std::vector<Report>& reports, const std::string& idColumn)
{
    std::ostringstream os;
    os << idColumn << ",metric,unit,mrc,baseline,threshold,check,verdict,threshold_source\n";
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
 * @param reports the reports
 * @return ours against the paper's, as CSV
 */
std::string
AgreementsCsv(const std::vector<Report>& reports)
{
    std::ostringstream os;
    os << "figure,setup,metric,ours,unit,paper,rule,agrees\n";
    for (const auto& c : reports)
    {
        for (const auto& a : c.agreements)
        {
            os << c.id << "," << Csv(a.setup) << "," << Csv(a.metric) << "," << Num(a.ours) << ","
               << Csv(a.unit) << "," << Csv(a.paper) << "," << Csv(a.rule) << ","
               << (a.agrees < 0 ? "n/a" : (a.agrees ? "yes" : "no")) << "\n";
        }
    }
    return os.str();
}

/**
 * @param reports the reports
 * @param idColumn the first column's name (claim or figure)
 * @return figures.csv (one row per point)
 */
std::string
FiguresCsv(const std::vector<Report>& reports, const std::string& idColumn)
{
    std::ostringstream os;
    os << idColumn << ",panel,kind,title,xlabel,ylabel,logx,logy,categories,series,x,y\n";
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
 * @param records every run's digests
 * @return per entry and comparison, each scheme's placement and fault digests, and whether
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

/**
 * The Markdown page.
 * @param suite the suite
 * @param reports the reports so far
 * @param command the command line
 * @param wall wall seconds
 * @param planned entries selected
 * @param mutants the mutants in force ("" for the real model)
 * @return the page
 */
std::string
Markdown(const Suite& suite,
         const std::vector<Report>& reports,
         const std::string& command,
         double wall,
         std::size_t planned,
         const std::string& mutants)
{
    std::ostringstream os;
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M", std::localtime(&now));
    os << "# " << suite.title << "\n\n";
    if (reports.size() < planned)
    {
        os << "**Partial: " << reports.size() << " of " << planned
           << " so far; the run is still going, or was stopped.**\n\n";
    }
    if (!mutants.empty())
    {
        os << "**Mutant model: `" << mutants
           << "`** (MrcMutant: a mechanism broken on purpose; the verdicts below are of that "
              "model, not of MRC).\n\n";
    }
    os << "Command: `" << command << "`; scale `" << suite.scale << "`, seed " << suite.seed << ", "
       << date << ", wall time " << std::fixed << std::setprecision(0) << wall << " s. "
       << suite.describe() << "\n\n"
       << "Verdicts are computed from the checks: all pass, *reproduced*; some, *partly*; "
          "none, *not reproduced*; no check (information only), *measured*. A structural claim "
          "(arithmetic or placement, which no transport mutant changes) *holds* or *does not "
          "hold*. Each threshold "
          "states where it comes from. The schemes of a comparison run the same placement, jobs "
          "and fault schedule (absolute times; `pairing` in run.json).\n\n"
       << "| " << suite.selectOption << " | statement | verdict | checks passed |\n"
       << "| --- | --- | --- | --- |\n";
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
           << std::setprecision(1) << c.wall << " s. Evidence: " << c.kind;
        if (!c.mutants.empty())
        {
            os << "; the checks must reject the mutants ";
            for (std::size_t i = 0; i < c.mutants.size(); ++i)
            {
                os << (i ? ", " : "") << "`" << c.mutants[i] << "`";
            }
        }
        os << ".\n\n";
        if (!c.agreements.empty())
        {
            os << "| setup | metric | ours | paper | agreement rule | agrees |\n"
               << "| --- | --- | --- | --- | --- | --- |\n";
            for (const auto& a : c.agreements)
            {
                os << "| " << a.setup << " | " << a.metric << " | " << Md(a.ours)
                   << (a.unit.empty() ? "" : " " + a.unit) << " | " << a.paper << " | " << a.rule
                   << " | " << (a.agrees < 0 ? "n/a" : (a.agrees ? "yes" : "**no**")) << " |\n";
            }
            os << "\n";
        }
        os << "| metric | unit | MRC | baseline | check | result | threshold from |\n"
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
        if (!c.scaling.empty())
        {
            os << "\nTime compression:";
            for (const auto& s : c.scaling)
            {
                os << " " << s;
            }
            os << "\n";
        }
        if (!c.figures.empty())
        {
            os << "\n![" << c.id << "](" << c.id << ".png)\n";
        }
    }
    return os.str();
}

} // namespace

int
RunSuite(Suite& suite, int argc, char* argv[])
{
    // Fix the time resolution (ns, ns-3's default) before building anything: until it is
    // fixed, ns-3 records every Time object in a global set.
    Time::SetResolution(Time::NS);
    std::string which = "all";
    std::string out;
    bool overwrite = false;
    bool plots = true;
    std::string mutantList;
    bool listMutants = false;
    MrcCommandLine cmd(suite.program + ".cc");
    cmd.Usage(suite.usage);
    cmd.AddValue(suite.selectOption, suite.selectHelp, which);
    cmd.AddValue("scale", suite.scaleHelp, suite.scale);
    cmd.AddValue("seed", "Random seed", suite.seed);
    cmd.SetRange("seed", 1, 4294967086); // MRG32k3a's seeds
    if (!cmd.AddJobs("Simulations run at once, in worker processes, where a figure or claim has "
                     "independent runs (default MRC_JOBS, else the CPU count; the results do "
                     "not depend on it)",
                     suite.jobs))
    {
        return 1;
    }
    cmd.AddValue("out", "Results directory (default results/" + suite.program + "-<time>)", out);
    cmd.AddValue("overwrite",
                 "Replace a previous run's files in --out (only those its manifest lists)",
                 overwrite);
    cmd.AddValue("plots", "Draw the figures (needs /usr/bin/python3 and matplotlib)", plots);
    cmd.AddValue("mutant",
                 "Run on a mutant model (MrcMutant, comma-separated): a mechanism broken on "
                 "purpose, to show which verdicts can fail (none: the real model)",
                 mutantList);
    cmd.AddValue("listMutants",
                 "Print, per " + suite.selectOption
                     + ", the mutants its checks must reject, and exit",
                 listMutants);
    if (suite.addOptions)
    {
        suite.addOptions(cmd);
    }
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }
    if (listMutants)
    {
        for (const auto& e : suite.entries)
        {
            std::cout << e.id << " " << (e.mutants.empty() ? "-" : e.mutants) << "\n";
        }
        return 0;
    }
    if (!MrcCommandLine::CheckSeed(suite.seed))
    {
        return 1;
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
        Config::SetDefault("ns3::MrcSchemeHelper::Mutants", StringValue(mutantList));
    }
    if (("," + suite.scales + ",").find("," + suite.scale + ",") == std::string::npos)
    {
        std::string names = suite.scales;
        std::replace(names.begin(), names.end(), ',', ' ');
        std::cerr << "error: --scale must be one of " << names << " (got '" << suite.scale << "')"
                  << std::endl;
        return 1;
    }
    if (!suite.setup(mutantList))
    {
        return 1;
    }
    std::string known;
    for (const auto& e : suite.entries)
    {
        known += (known.empty() ? "" : ", ") + e.id;
    }
    std::vector<const Entry*> selected;
    {
        std::istringstream is(which == "all" ? std::string() : which);
        std::string id;
        while (std::getline(is, id, ','))
        {
            const Entry* found = nullptr;
            for (const auto& e : suite.entries)
            {
                std::string lower = e.id;
                std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
                // C2 or c2; F18 or 18 for figures
                found = (id == e.id || id == lower || "F" + id == e.id) ? &e : found;
            }
            if (!found)
            {
                std::cerr << "error: --" << suite.selectOption
                          << " must be all or a comma-separated list of " << known << " (got '"
                          << id << "')" << std::endl;
                return 1;
            }
            if (std::find(selected.begin(), selected.end(), found) != selected.end())
            {
                std::cerr << "error: --" << suite.selectOption << " names " << found->id << " twice"
                          << std::endl;
                return 1;
            }
            selected.push_back(found);
        }
        if (which == "all")
        {
            for (const auto& e : suite.entries)
            {
                selected.push_back(&e);
            }
        }
        if (selected.empty())
        {
            std::cerr << "error: --" << suite.selectOption
                      << " must be all or a comma-separated list of " << known << std::endl;
            return 1;
        }
    }
    if (out.empty())
    {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", std::localtime(&now));
        out = "results/" + suite.program + "-" + stamp;
    }
    MrcInterrupt::Install();
    MrcResultsDir dir;
    std::string openError;
    if (!dir.Open(out, suite.program, overwrite, openError))
    {
        std::cerr << "error: --out: " << openError << std::endl;
        return 1;
    }
    dir.SetCommandLine(argc, argv);
    std::ostringstream command;
    command << "./ns3 run \"" << suite.program;
    for (int i = 1; i < argc; ++i)
    {
        command << " " << argv[i];
    }
    command << "\"";
    std::vector<Report> reports;
    const auto start = std::chrono::steady_clock::now();
    // Every file is rewritten (through a temporary name) as each entry finishes, so a long run
    // that is stopped keeps what it measured; run.json says whether the run is complete.
    // done: the last write, after the plots (run.json "complete": true).
    auto write = [&](double wall, const std::string& reason, bool done)
    {
        const bool complete = reports.size() == selected.size() && reason.empty();
        nlohmann::ordered_json entries = nlohmann::ordered_json::object();
        bool anyAgreement = false;
        for (const auto& r : reports)
        {
            nlohmann::ordered_json scaling = r.scaling;
            entries[r.id] = {{"verdict", r.Verdict()},
                             {"kind", r.kind},
                             {"must_reject", r.mutants},
                             {"wall_time_s", r.wall},
                             {"simulations", r.runs},
                             {"claim", r.claim},
                             {"baseline", r.baselineName},
                             {"time_compression", scaling}};
            anyAgreement = anyAgreement || !r.agreements.empty();
        }
        std::string err;
        bool ok = dir.WriteFile(suite.checksFile, ChecksCsv(reports, suite.selectOption), err)
               && dir.WriteFile("figures.csv", FiguresCsv(reports, suite.selectOption), err);
        if (ok && anyAgreement)
        {
            ok = dir.WriteFile("agreements.csv", AgreementsCsv(reports), err);
        }
        ok = ok
          && dir.WriteFile(
              suite.mdFile,
              Markdown(suite, reports, command.str(), wall, selected.size(), mutantList),
              err)
          && dir.WriteRunJson(
              suite.program,
              MRC_VERSION,
              suite.seed,
              cmd.GetValues(),
              {{"wall_time_s", std::to_string(wall)},
               {"ns3_version", nlohmann::ordered_json(std::string("ns-") + MRC_NS3_VERSION).dump()},
               {"simulations", std::to_string(suite.simulations())},
               {"timers_scaled", "false"},
               {"claims_done", std::to_string(reports.size())},
               {"claims_planned", std::to_string(selected.size())},
               {"mutants", nlohmann::ordered_json(mutantList).dump()},
               {"pairing", PairingJson(suite.pairing()).dump()},
               {"claims", entries.dump()}},
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
            std::cerr << "[" << e->id << "] running (scale " << suite.scale << ")" << std::endl;
            const uint32_t runsBefore = suite.simulations();
            const auto t0 = std::chrono::steady_clock::now();
            suite.current(e->id);
            Report r = e->run();
            r.id = e->id;
            r.mutants.clear();
            std::istringstream ms(e->mutants);
            for (std::string m; std::getline(ms, m, ',');)
            {
                r.mutants.push_back(m);
            }
            r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            r.runs = suite.simulations() - runsBefore;
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
            const std::string script = std::string(MRC_SOURCE_DIR) + "/analysis/plot_claims.py";
            const int rc = MrcInterrupt::RunChild(
                {"/usr/bin/python3", script, "--in-run", "--format", suite.plotFormats, out});
            MrcInterrupt::Check("plotting");
            if (rc != 0)
            {
                std::cerr << "warning: the plots could not be made (/usr/bin/python3 " << script
                          << " '" << out << "' exited with " << rc << ")" << std::endl;
            }
        }
    }
    catch (const BadInput& e)
    {
        const std::string reason = std::string("error: ") + e.what();
        write(elapsed(), reason, false);
        std::cerr << reason << " (what finished before is in " << out
                  << ", run.json: \"complete\": false)" << std::endl;
        return 1;
    }
    catch (const MrcInterrupted& e)
    {
        write(elapsed(), e.what(), false);
        std::cerr << suite.program << ": " << e.what() << "; what finished so far is in " << out
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
    std::cout << "\n"
              << std::left << std::setw(6) << suite.selectOption.substr(0, 5) << std::setw(16)
              << "verdict"
              << "statement\n";
    for (const auto& c : reports)
    {
        std::cout << std::left << std::setw(6) << c.id << std::setw(16) << c.Verdict() << c.claim
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
        for (const auto& a : c.agreements)
        {
            std::cout << "       " << (a.agrees < 0 ? "n/a  " : (a.agrees ? "agree" : "DIFF "))
                      << " " << a.setup << ": " << a.metric << " ours " << Md(a.ours) << " "
                      << a.unit << ", paper " << a.paper << "\n";
        }
    }
    std::cout << "\nresults: " << out << "/{" << suite.checksFile << ",figures.csv," << suite.mdFile
              << ",run.json}" << std::endl;
    return 0;
}

} // namespace evidence
} // namespace ns3
