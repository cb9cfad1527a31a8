/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLAIMS_H
#define MRC_CLAIMS_H

/**
 * @file
 * @brief The claims suite: one function per claim of the MRC paper, each measuring MRC against
 * the baseline and returning rows whose checks (thresholds written next to the claim) give the
 * verdict.
 */

#include "claims-scenario.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace claims
{

/** The size of every run, by --scale. */
struct Scale
{
    std::string name;       //!< tiny, quick or full
    FabricSpec fabric;      //!< the training fabric (MRC's terms)
    JobSpec job;            //!< the training job (latency-bound: many small ring transfers)
    JobSpec bwJob;          //!< C10, C12: a bandwidth-bound job (megabyte ring transfers)
    uint32_t permHosts;     //!< C6: permutation hosts
    uint32_t permPerT0;     //!< C6: hosts per T0
    uint64_t permBytes;     //!< C6: bytes per host
    uint64_t longBytes;     //!< C4, C5, C8: bytes of the long flow
    uint32_t flapRuns;      //!< C2: runs with a train of flaps (different draws)
    uint32_t flapsPerRun;   //!< C2: flaps expected per run (sets the flap rate)
    uint32_t incastSenders; //!< C9: incast fan-in
    uint64_t incastBytes;   //!< C9: bytes per incast sender
};

/**
 * @param name tiny, quick or full
 * @param scale set when the name is known
 * @return false for an unknown name
 */
bool GetScale(const std::string& name, Scale& scale);

/** One measured metric of a claim. */
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

/** One line or bar series of a figure. */
struct Series
{
    std::string name;      //!< legend
    std::vector<double> x; //!< x values (bar: category index)
    std::vector<double> y; //!< y values
};

/** A claim's figure, drawn by analysis/plot_claims.py from figures.csv. */
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

/** What a claim's measurement produced. */
struct ClaimReport
{
    std::string id;           //!< C1 .. C13
    std::string claim;        //!< the claim, quoted
    std::string baselineName; //!< what the baseline column is
    /**
     * What kind of evidence the checks are: "mechanism" (a transport or fabric mechanism, each
     * check rejected by the mutants listed), "structural" (topology arithmetic or traffic
     * locality, which no transport mutant changes) or "measured" (no check: information)
     */
    std::string kind = "mechanism";
    std::vector<std::string> mutants; //!< the mutants its checks must reject (MrcMutant)
    std::vector<Row> rows;            //!< metrics
    std::vector<Figure> figures;      //!< figures (one PNG per claim, a panel each)
    std::vector<std::string> notes;   //!< what is scaled, how it was measured
    double wall = 0;                  //!< wall seconds
    uint32_t runs = 0;                //!< simulations run

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
     * @return reproduced (every check passed), partly (some), not reproduced (none), or
     *         measured (no check)
     */
    std::string Verdict() const;
};

/** What a comparison ran, to show that the schemes were paired. */
struct PairRecord
{
    std::string claim;     //!< the claim
    std::string label;     //!< the comparison (the same for the schemes compared)
    std::string scheme;    //!< the scheme
    std::string placement; //!< placement (training) or flows (point-to-point) digest
    std::string faults;    //!< fault-schedule digest
};

/** Results shared between claims (the fault-free training runs). */
struct Context
{
    Scale scale;                                 //!< the scale
    uint32_t seed;                               //!< seed
    std::map<std::string, TrainingResult> cache; //!< by key
    uint32_t runs = 0;                           //!< simulations run
    bool production = false;                     //!< --production: flow-level rows
    uint32_t productionGpus = 131072;            //!< --productionGpus
    std::string claim;                           //!< the claim running
    std::vector<PairRecord> pairing;             //!< every run's digests

    /**
     * Run a training job.
     * @param label the comparison: runs of different schemes with the same label must be
     *        paired (same placement and faults), and a cached run is found by label and scheme
     * @param scheme scheme
     * @param fab fabric
     * @param job job
     * @param faults faults
     * @param cache keep the result for later calls with the same label and scheme
     * @return the result
     */
    const TrainingResult& Training(const std::string& label,
                                   Scheme scheme,
                                   const FabricSpec& fab,
                                   const JobSpec& job,
                                   const FaultPlan& faults,
                                   bool cache = false);
    /**
     * Run point-to-point flows.
     * @param label the comparison (as for Training)
     * @param scheme scheme
     * @param fab fabric
     * @param run flows
     * @param faults faults
     * @return the result
     */
    FlowResult Flows(const std::string& label,
                     Scheme scheme,
                     const FabricSpec& fab,
                     const FlowRun& run,
                     const FaultPlan& faults);
    /**
     * @param scheme MRC or ROCE
     * @return the fault-free reference training run of the scale's job
     */
    const TrainingResult& Reference(Scheme scheme);
    /**
     * @param scheme any scheme
     * @return the fault-free run of the scale's bandwidth-bound job
     */
    const TrainingResult& BandwidthReference(Scheme scheme);
    /**
     * @return the production fabric of --productionGpus GPUs: 8 planes of 100G, T0s of
     * min(256, GPUs / 2) hosts and as many T1s (the paper's, at 131,072)
     */
    FabricSpec ProductionFabric() const;
    /** @return the production job: every GPU, 3 steps of a 1 GiB hierarchical all-reduce */
    JobSpec ProductionJob() const;
    /**
     * Run the production job at flow level.
     * @param key cache key (empty: do not cache)
     * @param scheme MRC or ROCE
     * @param faults faults
     * @return the result
     */
    const TrainingResult& Production(const std::string& key,
                                     Scheme scheme,
                                     const FaultPlan& faults);
};

/** @name The claims (claims-*.cc) */
/// @{
ClaimReport ClaimC1(Context& ctx);
ClaimReport ClaimC2(Context& ctx);
ClaimReport ClaimC3(Context& ctx);
ClaimReport ClaimC4(Context& ctx);
ClaimReport ClaimC5(Context& ctx);
ClaimReport ClaimC6(Context& ctx);
ClaimReport ClaimC7(Context& ctx);
ClaimReport ClaimC8(Context& ctx);
ClaimReport ClaimC9(Context& ctx);
ClaimReport ClaimC10(Context& ctx);
ClaimReport ClaimC11(Context& ctx);
ClaimReport ClaimC12(Context& ctx);
ClaimReport ClaimC13(Context& ctx);
/// @}

/**
 * @param us microseconds
 * @return a short human text ("17.0 us", "4.29 s")
 */
std::string FormatUs(double us);

/**
 * The per-bin rate of a sampled flow, Gb/s.
 * @param bytes bytes per bin
 * @param binUs bin width
 * @return Gb/s per bin
 */
std::vector<double> RateGbps(const std::vector<uint64_t>& bytes, double binUs);

} // namespace claims
} // namespace ns3

#endif /* MRC_CLAIMS_H */
