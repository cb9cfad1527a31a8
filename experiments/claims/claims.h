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

#include "../common/evidence.h"
#include "claims-scenario.h"

#include <deque>
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

/**
 * @param s the scale
 * @return C6's fabric: the scale's, with its permutation's hosts and non-blocking T0s
 */
FabricSpec PermutationFabric(const Scale& s);

/**
 * @param fab the training fabric
 * @return C11's fabric: the same hosts under T0s of min(hosts / 2, 256) host ports (the
 * baseline's T0s of the same switch bandwidth: 1/planes as many ports)
 */
FabricSpec LargeT0Fabric(const FabricSpec& fab);

/**
 * @param s the scale
 * @return the packet-level fabrics the suite builds at this scale before any variant of a
 * single run (for CheckModelAttributes)
 */
std::vector<FabricSpec> ScaleFabrics(const Scale& s);

using evidence::Figure;               //!< a figure panel
using evidence::PairRecord;           //!< a run's digests
using evidence::Row;                  //!< a measured metric
using evidence::Series;               //!< a series of a figure
using ClaimReport = evidence::Report; //!< what a claim measured

/** A training run to be run ahead of its use, in a worker process (Context::Prefetch). */
struct TrainingRequest
{
    std::string label; //!< as for Context::Training
    Scheme scheme;     //!< scheme
    FabricSpec fab;    //!< fabric
    JobSpec job;       //!< job
    FaultPlan faults;  //!< faults
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
    uint32_t jobs = 1;                           //!< --jobs: worker processes of Prefetch
    /** Results of Prefetch, by label and scheme, until Training takes them (in order). */
    std::map<std::string, std::deque<TrainingResult>> prefetched;

    /**
     * Run independent training runs ahead, up to `jobs` at a time, each in a forked worker
     * process whose result comes back through a pipe. A later Training call with the same
     * label and scheme takes its result instead of simulating, so the program's runs, their
     * order, their records and what it prints are those of a sequential run (every run sets
     * its seed and builds its world from scratch). A worker that fails leaves its run to
     * Training, which then runs it in this process. With jobs 1 this does nothing.
     * @param requests the runs, in the order Training will ask for them
     */
    void Prefetch(const std::vector<TrainingRequest>& requests);

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
     * Run the production job at flow level, recorded in pairing under label.
     * @param key cache key (empty: do not cache)
     * @param label the comparison (the same for the schemes compared)
     * @param scheme MRC or ROCE
     * @param faults faults
     * @return the result
     */
    const TrainingResult& Production(const std::string& key,
                                     const std::string& label,
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
