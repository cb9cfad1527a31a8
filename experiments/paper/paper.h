/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PAPER_H
#define MRC_PAPER_H

/**
 * @file
 * @brief The paper program: the MRC paper's testbed experiments, figure by figure
 * (../shared/PAPER.md), each a function that builds the paper's setup, runs every scheme,
 * and reports ours against the paper's values and checks that mutants must fail.
 */

#include "claims.h"

#include <string>
#include <vector>

namespace ns3
{
namespace paper
{

using claims::Context;
using claims::FabricSpec;
using claims::FaultPlan;
using claims::FaultSpec;
using claims::FlowResult;
using claims::FlowRun;
using claims::FlowSpec;
using evidence::Figure;
using evidence::Report;
using evidence::Series;

/** The size of every figure's runs, by --scale. */
struct Scale
{
    std::string name;            //!< quick or full
    double runUs;                //!< a long-lived flow's run (the paper's tens of seconds)
    double phaseUs;              //!< a phase between two events of a figure (the paper's seconds)
    double binUs;                //!< throughput sampling bin (the paper's 1 s)
    uint32_t seeds;              //!< seeds of the figures whose result varies with the run (Fig 20)
    std::vector<uint64_t> sizes; //!< Figs 16-17: collective sizes, bytes
    std::vector<uint32_t> roceQps; //!< Fig 16: RoCE's queue pairs per peer (the last the most)
    std::vector<uint32_t> mrcQps;  //!< Fig 16: MRC's (the first 1)
    std::vector<double> losses;    //!< Fig 16: NIC receive loss probabilities (0 first)
    uint32_t iterations;           //!< Figs 16-17: iterations per size (the first a warm-up)
    double collectiveStopUs;       //!< Figs 16-17: simulated time limit of one size's run
    std::vector<uint64_t> sendrecvSizes;       //!< Fig 15, flow level: message sizes, bytes
    std::vector<uint64_t> sendrecvPacketSizes; //!< Fig 15, packet level on Cluster B
    uint32_t sendrecvFluidHosts;               //!< Fig 15, flow level: GPUs
};

/**
 * @param name quick or full
 * @param s set to the scale
 * @return false for an unknown name
 */
bool GetScale(const std::string& name, Scale& s);

/**
 * @param cluster B, C or D (MrcClusterPreset)
 * @return the cluster as a claims fabric description
 */
FabricSpec Cluster(const std::string& cluster);

/**
 * @return Fig 22's calibration fabric: a 128-host leaf-spine of 100G (8 T0s of 16 hosts, 16 T1s),
 * one plane
 */
FabricSpec CalibrationLeafSpine();

/**
 * @param scale the scale
 * @return Fig 15's flow-level fabric: scale.sendrecvFluidHosts GPUs on 8 planes of 100G, T0s of
 * min(256, GPUs / 2) hosts, as many T1s, Cluster B's latencies
 */
FabricSpec SendrecvFluidFabric(const Scale& scale);

/** @name What the figures share (paper-series.cc) */
/// @{
/**
 * @param samples bytes per bin
 * @param binUs the bin
 * @param fromUs start of the window
 * @param toUs its end
 * @return the mean rate over the bins inside the window, Gb/s (NaN if none)
 */
double MeanGbps(const std::vector<uint64_t>& samples, double binUs, double fromUs, double toUs);
/**
 * @param name the series' name
 * @param samples bytes per bin
 * @param binUs the bin
 * @return a throughput-over-time series (x: ms, y: Gb/s)
 */
Series Timeline(const std::string& name, const std::vector<uint64_t>& samples, double binUs);
/**
 * @param a one series of bins
 * @param b another
 * @return their sum, bin by bin
 */
std::vector<uint64_t> Sum(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);
/**
 * @param r a run of long-lived flows
 * @return how many finished before the run's end (the rates of those are not a long-lived
 * flow's; must be 0)
 */
double Finished(const FlowResult& r);
/// @}

/** @name The figures (paper-cluster-*.cc) */
/// @{
Report Figure9(Context& ctx, const Scale& scale);
Report Figure10(Context& ctx, const Scale& scale);
Report Figure11(Context& ctx, const Scale& scale);
Report Figure12(Context& ctx, const Scale& scale);
Report Figure14(Context& ctx, const Scale& scale);
Report Figure15(Context& ctx, const Scale& scale);
Report Figure16(Context& ctx, const Scale& scale);
Report Figure17(Context& ctx, const Scale& scale);
Report Figure18(Context& ctx, const Scale& scale);
Report Figure19(Context& ctx, const Scale& scale);
Report Figure20(Context& ctx, const Scale& scale);
Report Figure21(Context& ctx, const Scale& scale);
Report Figure22(Context& ctx, const Scale& scale);
/// @}

} // namespace paper
} // namespace ns3

#endif /* MRC_PAPER_H */
