/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLAIMS_SCENARIO_H
#define MRC_CLAIMS_SCENARIO_H

/**
 * @file
 * @brief The runs the claims are measured from: a training job, or a set of point-to-point
 * flows, on one scheme's fabric, with a fault schedule, returning what the claims need.
 */

#include "ns3/mrc-module.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace claims
{

/** The three ways of running the same job compared by the claims. */
enum Scheme : uint8_t
{
    MRC = 0,        //!< MRC on P planes of planeRate links (SRv6 spray, trimming, NSCC)
    ROCE,           //!< RoCE as deployed on one plane of P x planeRate links (ECMP, PFC, DCQCN)
    ROCE_MULTIPLANE //!< RoCE on MRC's P planes: one single-path QP per NIC port (no multipath)
};

/**
 * @param s a scheme
 * @return its name in tables ("mrc", "roce", "roce-multiplane")
 */
const char* SchemeName(Scheme s);

/** A fabric, in MRC's terms; the single-plane RoCE fabric is derived from it. */
struct FabricSpec
{
    uint32_t hosts = 32;                  //!< hosts (one NIC each)
    uint32_t planes = 8;                  //!< planes (NIC ports)
    uint32_t hostsPerT0 = 8;              //!< hosts per T0
    uint32_t t1 = 8;                      //!< T1s per plane
    std::string planeRate = "100Gbps";    //!< MRC link rate; the single plane runs at P x this
    uint32_t baselineHostsPerT0 = 0;      //!< ROCE only: hosts per T0 (0: hostsPerT0)
    uint32_t baselineT1 = 0;              //!< ROCE only: T1s (0: t1)
    bool trim = true;                     //!< MRC: switches trim (false: drop)
    std::string uplinkRate;               //!< T0-T1 link rate ("": the fabric's)
    std::string dcqcnProfile = "default"; //!< RoCE: DCQCN profile (MrcDcqcn::GetProfile)
    std::string mutants;                  //!< this run's mutants (MrcMutant), besides --mutant's
    bool realModel = false;               //!< ignore --mutant (for a physical best case)
    bool pfc = true;                      //!< RoCE: lossless data class
    double detectionUs = 150000;          //!< RoCE: BFD-like detection (deployed)
    double reconvergenceUs = 2000000;     //!< RoCE: BGP-like reconvergence (deployed)
    uint32_t evSetSize = 0;               //!< MRC: EVs per queue pair (0: the model's default)
    uint32_t evMinActive = 0;             //!< MRC: EvMinActive (0: the model's default)
    /** MrcClusterPreset whose latencies (cables, switches, NICs) the fabric takes ("": none) */
    std::string latencies;
};

/**
 * One scheduled fault (MrcFaultInjector::Schedule), the same for every scheme. Its target is
 * a position of MRC's fabric; one made with `anyFabric` is the same position on a fabric that
 * lacks its plane, in plane 0 (the single-plane baseline's only plane), so that MRC's plane p
 * and the baseline's plane are the same position of the fault.
 */
struct FaultSpec
{
    double atUs;             //!< when (absolute simulated time, the same for every scheme)
    MrcFaultAction action;   //!< what
    MrcFaultTargetId target; //!< where, on MRC's fabric
    double durationUs;       //!< duration (0: until the end)
    double rate = 0;         //!< nic_rx_loss: the loss probability
    bool anyFabric = false;  //!< in plane 0 of a fabric without the target's plane

    /**
     * @param planes the planes of the fabric the fault is applied to
     * @return the target there
     */
    MrcFaultTargetId TargetOn(uint32_t planes) const;
};

/** What runs on the fabric besides the traffic: faults. */
struct FaultPlan
{
    std::vector<FaultSpec> faults; //!< scheduled faults
    /** Random loss on one T0-T1 cable: plane, T0, T1 (within pod), rate, from, to. */
    struct Lossy
    {
        uint32_t plane = 0; //!< plane
        uint32_t t0 = 0;    //!< T0
        uint32_t t1 = 0;    //!< T1
        double rate = 0;    //!< frame loss probability (0: no lossy cable)
        double fromUs = 0;  //!< loss starts
        double toUs = 0;    //!< loss ends
    } lossy;                //!< the lossy cable
};

/** A synchronous training job. */
struct JobSpec
{
    MrcCollective::Type collective = MrcCollective::RING_ALLREDUCE; //!< collective per step
    uint64_t bytes = 4 << 20;                                       //!< its size
    uint32_t steps = 4;                                             //!< steps
    double computeUs = 20;                                          //!< compute per step
    double jitterUs = 2;                                            //!< compute jitter
    std::string placement = "random"; //!< contiguous, interleaved or random
    uint32_t ranks = 0;               //!< ranks (0: every host)
    uint32_t jobs = 1;                //!< identical jobs sharing the fabric (disjoint hosts)
    uint32_t onlyJob = UINT32_MAX;    //!< place every job but run only this one (alone runs)
    uint32_t qpsPerPeer = 0;          //!< queue pairs between two ranks (0: the job's default)
    uint32_t chunks = 0;              //!< chunks per transfer (0: qpsPerPeer, at least 1)
    double stopUs = 3.6e9;            //!< simulated time limit (steps not done by then: failed)
};

/** What a training run produced. */
struct TrainingResult
{
    std::vector<double> stepUs;    //!< step durations, all jobs
    std::vector<double> jobMeanUs; //!< mean step per job (NaN for a job not run)
    std::vector<double> flowGbps;  //!< throughput of every successful transfer
    uint32_t stepsDone = 0;        //!< steps completed
    uint32_t stepsPlanned = 0;     //!< steps planned
    uint64_t failedQps = 0;        //!< QPs in error
    uint64_t failedJobs = 0;       //!< failed jobs
    uint64_t retx = 0;             //!< retransmitted packets
    uint64_t spurious = 0;         //!< retransmissions found unnecessary (the original arrived)
    uint64_t retxBytes = 0;        //!< retransmitted payload bytes (approximate: packets x MTU)
    uint64_t timeouts = 0;         //!< RTO expiries
    uint64_t retirements = 0;      //!< EV transitions to ASSUMED_BAD
    uint64_t pauses = 0;           //!< PFC pauses sent
    uint64_t flaps = 0;            //!< link-down events seen
    uint64_t hostBytes = 0;        //!< bytes the hosts' NIC ports sent
    uint64_t uplinkBytes = 0;      //!< bytes T0s sent up to T1s
    uint64_t qps = 0;              //!< sending queue pairs
    uint64_t evsTotal = 0;         //!< EVs of every queue pair
    uint64_t evsRetiredAtEnd = 0;  //!< of those, ASSUMED_BAD at the end
    uint64_t evsRetiredEver = 0;   //!< distinct EVs that were ASSUMED_BAD at some time
    std::vector<std::vector<uint32_t>> placement; //!< per job, its hosts
    std::string placementDigest; //!< SHA-256 of the placement (equal across schemes)
    std::string faultDigest;     //!< SHA-256 of the faults scheduled (planes as "*")
    double simUs = 0;            //!< simulated time at the end
    double wall = 0;             //!< wall seconds
};

/**
 * Check the model's attributes as the command line left them (`--ns3::Type::Name=value`) on
 * the given fabrics (the default FabricSpec and every fabric the suite's scale builds), for every
 * scheme: a value no fabric can be built with (Tiers, BlockBits, the queues' limits, a
 * SwitchRadix too small for the T0s, ...) is reported in one line before anything runs. Each
 * run checks its fabric again where it builds it (evidence::BadInput).
 * @param fabrics the fabrics, at packet level
 * @param fluidFabrics fabrics the suite builds at flow level (MRC and RoCE)
 * @return true if every scheme's fabric can be built; false after printing "error: ..."
 */
bool CheckModelAttributes(const std::vector<FabricSpec>& fabrics,
                          const std::vector<FabricSpec>& fluidFabrics = {});

/**
 * Run a training job.
 * @param scheme scheme
 * @param fab fabric
 * @param job job
 * @param faults faults (targets must exist on the scheme's fabric)
 * @param seed seed
 * @return the result
 */
TrainingResult RunTraining(Scheme scheme,
                           const FabricSpec& fab,
                           const JobSpec& job,
                           const FaultPlan& faults,
                           uint32_t seed);

/**
 * Run the same training at flow level (MrcFluidNetwork, MrcFluidJob): for the production-scale
 * rows. Fills steps, flows, completion, failures, flaps, simulated and wall time; the packet
 * counters stay 0. MRC or ROCE only; a lossy cable is not modelled (aborts).
 * @param scheme MRC or ROCE
 * @param fab fabric
 * @param job job (hierarchical-allreduce groups ranks by fab.hostsPerT0)
 * @param faults faults
 * @param seed seed
 * @return the result
 */
TrainingResult RunFluidTraining(Scheme scheme,
                                const FabricSpec& fab,
                                const JobSpec& job,
                                const FaultPlan& faults,
                                uint32_t seed);

/** One point-to-point message. */
struct FlowSpec
{
    uint32_t src;     //!< sender
    uint32_t dst;     //!< receiver
    uint64_t bytes;   //!< message size
    double startUs;   //!< posted at
    uint32_t qps = 1; //!< queue pairs carrying it (the bytes split evenly)
    /** MRC: the OCP API's explicit EV mode, plane:path pairs for each of its QPs ("": random) */
    std::string evs;
    std::string backupEvs; //!< MRC, with evs: the backup EVs (plane:path pairs)
};

/** A run of point-to-point flows. */
struct FlowRun
{
    std::vector<FlowSpec> flows; //!< the flows
    std::vector<uint32_t> watch; //!< flows whose received bytes are sampled every binUs
    double binUs = 5;            //!< sampling bin
    double stopUs = 60e6;        //!< simulated time limit
    /**
     * At this time (us, > 0), take the busiest T0-T1 uplink of flow 0's T0 in plane 0 (the one
     * with the most bytes sent so far: on RoCE the flow's own path) and apply busyAction to it;
     * its name goes to FlowResult::downedLink.
     */
    double busyUplinkAtUs = 0;
    /** "down" (permanently) or "lossy" (FaultPlan::lossy's rate until its toUs) */
    std::string busyAction = "down";
    /**
     * Take down, for good, the T0-T1 uplink that flow 0's last packet is sprayed onto, the
     * moment that packet is first sent: a failure that takes a message's tail (its name goes
     * to FlowResult::downedLink, the time to FlowResult::tailFailUs).
     */
    bool failTail = false;
    /** failTail: the message whose last packet it is (with serialMessages) */
    uint32_t failTailMessage = 0;
    /**
     * Flow 0 as this many messages of its bytes, each posted when the previous completes (as a
     * latency test posts its writes); 0 or 1: one message
     */
    uint32_t serialMessages = 0;
    /** Record flow 0's last send per plane from this time on (FlowResult::lastUsePerPlaneUs) */
    double watchSendsFromUs = 0;
    /** ... until this time */
    double watchSendsUntilUs = 1e18;
    /** FlowResult's EV changes (badEvs, heldEvs, goodEvs) and last sends per plane from every
     * QP of flow 0, not its first only (evs0 stays the first's) */
    bool traceAllQps = false;
    int32_t queueT0 = -1;   //!< sample this T0's (plane 0) port queue every bin (-1: none)
    uint32_t queuePort = 0; //!< ... this port (0..HostsPerT0-1: the host links)
};

/** What a flow run produced. */
struct FlowResult
{
    std::vector<double> fctUs;                         //!< per flow (NaN: not completed)
    std::vector<std::vector<uint64_t>> samples;        //!< per watched flow: bytes received per bin
    std::vector<uint64_t> queueSamples;                //!< queueT0's data backlog, per bin
    std::vector<std::pair<double, uint8_t>> evChanges; //!< (time us, new state) on watched flows
    /** An EV state change of flow 0. */
    struct EvChange
    {
        double us;      //!< when
        uint16_t ev;    //!< EV slot
        uint16_t plane; //!< its plane then
        uint16_t path;  //!< its path index in the plane then (two tiers: the T1)
        uint8_t cause;  //!< MrcPathSelector::Cause
    };

    std::vector<EvChange> badEvs;          //!< to ASSUMED_BAD, flow 0
    std::vector<EvChange> heldEvs;         //!< to SKIP on a suspected loss, flow 0
    std::vector<EvChange> goodEvs;         //!< ASSUMED_BAD to GOOD, flow 0
    std::vector<MrcPathSelector::Ev> evs0; //!< flow 0's EVs at the end
    uint64_t retirements = 0;              //!< EV transitions to ASSUMED_BAD, all flows
    std::vector<uint64_t> retireCauses
        = std::vector<uint64_t>(16, 0);    //!< those transitions by MrcPathSelector::Cause
    uint64_t timeouts = 0;                 //!< RTO expiries
    uint64_t retx = 0;                     //!< retransmissions
    uint64_t spurious = 0;                 //!< retransmissions found unnecessary
    uint64_t trims = 0;                    //!< trimmed packets
    std::map<std::string, uint64_t> drops; //!< packets lost (MrcClosTopology::GetDropsByReason)
    uint64_t pauses = 0;                   //!< PFC pauses sent
    uint64_t failedQps = 0;                //!< QPs in error
    std::string downedLink;                //!< the uplink chosen by busyUplinkAtUs
    int32_t downedT1 = -1;                 //!< its T1 index (within the pod)
    double firstLossUs = NAN;              //!< busyAction lossy: its first lost data frame
    double tailFailUs = NAN;               //!< failTail: when the tail's uplink went down
    std::vector<double> messageUs;         //!< flow 0: each message's completion time, us
    double baseRttUs = NAN;                //!< the fabric's base RTT (a full frame, across T1)
    std::vector<double> lastUsePerPlaneUs; //!< flow 0's last data send per plane after
                                           //!< watchSendsFromUs (or busyUplinkAtUs); NaN: none
    double deadPathLastUseUs = NAN;        //!< busyUplinkAtUs: flow 0's last send on the chosen
                                           //!< uplink's path after that time (NaN: none)
    std::string flowDigest;                //!< SHA-256 of the flows (equal across schemes)
    std::string faultDigest;               //!< SHA-256 of the faults scheduled (planes as "*")
    double wall = 0;                       //!< wall seconds
};

/**
 * Run point-to-point flows (one QP pair each).
 * @param scheme MRC or ROCE
 * @param fab fabric
 * @param run flows and sampling
 * @param faults faults
 * @param seed seed
 * @return the result
 */
FlowResult RunFlows(Scheme scheme,
                    const FabricSpec& fab,
                    const FlowRun& run,
                    const FaultPlan& faults,
                    uint32_t seed);

/** @name Statistics, as the analysis scripts compute them (MrcStats) */
/// @{
/** @copydoc MrcStats::Mean */
inline double
Mean(const std::vector<double>& v)
{
    return MrcStats::Mean(v);
}

/** @copydoc MrcStats::Quantile */
inline double
Quantile(const std::vector<double>& v, double q)
{
    return MrcStats::Quantile(v, q);
}

/** @copydoc MrcStats::Cov */
inline double
Cov(const std::vector<double>& v)
{
    return MrcStats::Cov(v);
}

/** @copydoc MrcStats::Jain */
inline double
Jain(const std::vector<double>& v)
{
    return MrcStats::Jain(v);
}

/// @}

} // namespace claims
} // namespace ns3

#endif /* MRC_CLAIMS_SCENARIO_H */
