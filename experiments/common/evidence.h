/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EVIDENCE_H
#define MRC_EVIDENCE_H

/**
 * @file
 * @brief What the claims suite (`claims`) and the paper's figures (`paper`) share: reports of
 * measured rows, checks that decide a verdict (each with its threshold's source), rows of ours
 * against the paper's values with a computed agreement, figures, and the program around them
 * (options, results directory, mutants, interruption, plots).
 */

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
class MrcCommandLine;

namespace evidence
{

/**
 * Thrown where a run's fabric cannot be built with the model's attributes as the command line
 * left them (`--ns3::Type::Name=value`). The suites check every fabric of their scale before
 * anything runs (claims::CheckModelAttributes); this is the guard for a fabric that check does
 * not list. RunSuite reports it in one line, marks the results directory incomplete with the
 * reason and exits with status 1.
 */
class BadInput : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/** One measured metric. */
struct Row
{
    std::string metric;    //!< what
    std::string unit;      //!< unit ("" for a count or ratio)
    double mrc;            //!< MRC's value (NaN: not applicable)
    double baseline;       //!< the baseline's value (NaN: not applicable)
    std::string threshold; //!< the check, as text ("" for an informational row)
    int check;             //!< 1 passed, 0 failed, -1 informational
    std::string source;    //!< where the threshold comes from (paper, physical, ours: why)
};

/** One of ours against the paper's. */
struct Agreement
{
    std::string setup;  //!< the panel or configuration ("18a: RoCE, DCQCN, 1 QP")
    std::string metric; //!< what
    double ours;        //!< our value
    std::string unit;   //!< its unit
    std::string paper;  //!< the paper's statement or value, as printed or read
    std::string rule;   //!< how agreement is decided
    int agrees;         //!< 1 yes, 0 no, -1 not decidable
};

/** One line or bar series of a figure. */
struct Series
{
    std::string name;      //!< legend
    std::vector<double> x; //!< x values (bar: category index)
    std::vector<double> y; //!< y values
};

/** A figure panel, drawn by analysis/plot_claims.py from figures.csv. */
struct Figure
{
    std::string kind = "line";           //!< line, step (staircase), bar or cdf (x ignored)
    std::string title;                   //!< title
    std::string xlabel;                  //!< x label
    std::string ylabel;                  //!< y label
    bool logx = false;                   //!< log x axis
    bool logy = false;                   //!< log y axis
    std::vector<std::string> categories; //!< bar: category names
    std::vector<Series> series;          //!< data
};

/** What one claim or figure measured. */
struct Report
{
    std::string id;           //!< C1 .. C13, or F18 ..
    std::string claim;        //!< the claim or figure, quoted
    std::string baselineName; //!< what the baseline column is
    /**
     * What kind of evidence the checks are: "mechanism" (a transport or fabric mechanism, each
     * check rejected by the mutants listed), "structural" (topology arithmetic or traffic
     * locality, which no transport mutant changes) or "measured" (no check: information)
     */
    std::string kind = "mechanism";
    std::vector<std::string> mutants;  //!< the mutants its checks must reject (MrcMutant)
    std::vector<Row> rows;             //!< metrics and checks
    std::vector<Agreement> agreements; //!< ours against the paper's (paper program)
    std::vector<Figure> figures;       //!< figures (one image per report, a panel each)
    std::vector<std::string> notes;    //!< what is scaled, how it was measured
    std::vector<std::string> scaling;  //!< time compressions (paper program; run.json)
    double wall = 0;                   //!< wall seconds
    uint32_t runs = 0;                 //!< simulations run

    /**
     * Add a row with a check.
     * @param metric what
     * @param unit unit
     * @param mrc MRC's value
     * @param baseline the baseline's
     * @param threshold the check as text
     * @param pass whether it passed
     * @param source where the threshold comes from: "paper: ...", "physical: ...", or
     *        "ours: <the reason>"
     */
    void Check(const std::string& metric,
               const std::string& unit,
               double mrc,
               double baseline,
               const std::string& threshold,
               bool pass,
               const std::string& source);
    /**
     * Add an informational row.
     * @param metric what
     * @param unit unit
     * @param mrc MRC's value
     * @param baseline the baseline's
     */
    void Info(const std::string& metric, const std::string& unit, double mrc, double baseline);
    /**
     * Add a row of ours against the paper's.
     * @param setup panel or configuration
     * @param metric what
     * @param ours our value
     * @param unit its unit
     * @param paper the paper's statement
     * @param rule how agreement is decided
     * @param agrees the decision (1, 0, or -1 for not decidable)
     */
    void Agree(const std::string& setup,
               const std::string& metric,
               double ours,
               const std::string& unit,
               const std::string& paper,
               const std::string& rule,
               int agrees);
    /**
     * @return reproduced (every check passed), partly (some), not reproduced (none), or
     *         measured (no check); a structural report holds or does not hold instead
     */
    std::string Verdict() const;
};

/** What a comparison ran, to show that the schemes were paired. */
struct PairRecord
{
    std::string claim;     //!< the claim or figure
    std::string label;     //!< the comparison (the same for the schemes compared)
    std::string scheme;    //!< the scheme
    std::string placement; //!< placement (training) or flows (point-to-point) digest
    std::string faults;    //!< fault-schedule digest
};

/** @name Formatting */
/// @{
/** @param x a value  @return it for a CSV ("" for NaN) */
std::string Num(double x);
/** @param s text  @return it quoted for CSV when needed */
std::string Csv(const std::string& s);
/** @param x a value  @return it for a Markdown table (4 significant digits, "-" for NaN) */
std::string Md(double x);
/// @}

/** One claim or figure of a suite, with the mutants its checks must reject. */
struct Entry
{
    std::string id;              //!< C2, F18, ...
    std::function<Report()> run; //!< measures it
    std::string mutants;         //!< comma-separated; "a+b": a and b together
};

/** A suite program: claims or paper. */
struct Suite
{
    std::string program;             //!< claims or paper
    std::string usage;               //!< --help text
    std::string selectOption;        //!< claim or figure
    std::string selectHelp;          //!< its help
    std::vector<Entry> entries;      //!< everything it can run, in order
    std::string scales;              //!< accepted --scale values, comma-separated
    std::string scale;               //!< --scale (default set by the program)
    std::string scaleHelp;           //!< its help
    uint32_t seed = 1;               //!< --seed
    uint32_t jobs = 1;               //!< --jobs (default MRC_JOBS, else the CPU count)
    std::string checksFile;          //!< claims.csv or checks.csv
    std::string mdFile;              //!< claims.md or paper.md
    std::string title;               //!< the Markdown page's title
    std::string plotFormats = "png"; //!< the figures' formats (plot_claims.py --format)
    /** More options (registered before parsing). */
    std::function<void(MrcCommandLine&)> addOptions;
    /** Called after parsing: set up for the scale and seed; false (after one line) to stop. */
    std::function<bool(const std::string& mutants)> setup;
    /** The Markdown page's description of the run (fabric, jobs, scaling). */
    std::function<std::string()> describe;
    /** Every run's digests so far. */
    std::function<const std::vector<PairRecord>&()> pairing;
    /** Simulations run so far. */
    std::function<uint32_t()> simulations;
    /** Tell the program which entry runs now (for its pairing records). */
    std::function<void(const std::string& id)> current;
};

/**
 * Run a suite program: parse the options (--<select>, --scale, --seed, --out, --overwrite,
 * --plots, --mutant, --listMutants and the suite's own), run the selected entries, and write
 * the checks, figures.csv, agreements.csv (if any), the Markdown page, run.json and the
 * manifest into the results directory (docs/results.md), rewriting them after each entry so a
 * stopped run keeps what it measured; then draw the plots.
 * @param suite the suite
 * @param argc argc
 * @param argv argv
 * @return the exit status
 */
int RunSuite(Suite& suite, int argc, char* argv[]);

} // namespace evidence
} // namespace ns3

#endif /* MRC_EVIDENCE_H */
