/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLUID_JOB_H
#define MRC_FLUID_JOB_H

#include "ns3/mrc-collective.h"
#include "ns3/mrc-fluid-network.h"
#include "ns3/mrc-job-records.h"
#include "ns3/mrc-job.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A synchronous training job at flow level (--model=fluid): the same steps, compute
 * phases, jitter draws, collectives and records as MrcTrainingJob, with every collective run as
 * flow groups of an MrcFluidNetwork instead of RDMA Writes.
 *
 * Step s starts for every rank at once; rank r computes for ComputeTime + its extra compute + a
 * draw uniform in [0, ComputeJitter) (the same draws, from the same stream, as MrcTrainingJob).
 * The step's collectives then run in order, the first once the last rank has finished computing;
 * the step ends when the last collective ends (the barrier).
 *
 * Each collective becomes stages of flow groups (MrcFluidNetwork), with the α-β cost of its
 * rounds: a ring algorithm of R rounds over segments of S bytes in C chunks moves
 * (R + C - 1) S / C bytes over every ring edge at the rate of its slowest edge (one group of all
 * edges) and pays (R + C - 1) one-way latencies plus one for the last acknowledgement, each the
 * mean over the ring's edges (the critical path goes round the ring, one edge per round);
 * parallel transfers (alltoall, sendrecv) pay two latencies of their slowest edge:
 * - ring-allreduce (R = 2(N-1), S = bytes/N), reduce-scatter and allgather (R = N-1): one group
 *   of the N ring edges i -> i+1;
 * - broadcast: one group of the chain 0 -> 1 -> ... -> N-1, R = N-1, S = bytes;
 * - alltoall: one group of every ordered pair, bytes/N each, one round;
 * - sendrecv: one group of both directions of every pair, bytes each, one round;
 * - hierarchical-allreduce (groups of G ranks): a reduce-scatter group per rank group, then an
 *   all-reduce group of segment i across the groups for every local index i, then an
 *   all-gather group per rank group; a stage starts when the previous one has ended
 *   everywhere (every cross-group ring has a member in every rank group).
 * Every edge of a group yields one transfer record (bytes: what the edge carried), so flows.csv,
 * steps.csv and the analysis read the same columns as at packet level.
 *
 * A group that fails (the baseline's retries exhausted) fails the job, as NCCL aborts.
 * Transfer lists and Chakra programs are packet-level only.
 */
class MrcFluidJob : public MrcJob
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFluidJob();
    ~MrcFluidJob() override;

    /**
     * Add a collective to every step.
     * @param type algorithm
     * @param bytes size, as MrcCollective defines it
     * @param chunks chunks (pipelining of ring rounds)
     * @param groupSize hierarchical-allreduce: ranks per group (divides the ranks)
     */
    void AddCollective(MrcCollective::Type type,
                       uint64_t bytes,
                       uint32_t chunks = 1,
                       uint32_t groupSize = 0);
    /**
     * Add a pairwise exchange between given rank pairs to every step.
     * @param pairs rank pairs
     * @param bytes bytes each side sends
     */
    void AddSendRecv(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint64_t bytes);
    /**
     * Attach to a network (built).
     * @param network the network
     */
    void Install(Ptr<MrcFluidNetwork> network);
    /**
     * Start step 0.
     * @param at absolute time (>= now)
     */
    void Start(Time at) override;

    /** @return transfer records per step */
    uint32_t GetTransfersPerStep() const override;

private:
    void DoDispose() override;

    /** One flow group of a stage. */
    struct GroupPlan
    {
        std::vector<MrcFluidNetwork::Edge> edges;             //!< host edges
        std::vector<std::pair<uint32_t, uint32_t>> rankEdges; //!< the same, as ranks
        double bytes;                                         //!< bytes per edge
        uint64_t recordBytes;                                 //!< bytes per edge in the records
        uint32_t latencies;                                   //!< one-way latencies it pays
        bool chained;            //!< rounds go round a ring (mean latency)
        uint32_t recordBase = 0; //!< id of its first record within the collective
        Time latency{};          //!< one latency (Install)
    };

    /** One stage: groups that run together. */
    struct Stage
    {
        uint32_t collective;           //!< its collective's index
        const char* name;              //!< the collective's type name
        std::vector<GroupPlan> groups; //!< its groups
    };

    /** A collective as added. */
    struct Spec
    {
        MrcCollective::Type type;                         //!< algorithm
        uint64_t bytes;                                   //!< size
        uint32_t chunks;                                  //!< chunks
        uint32_t groupSize;                               //!< hierarchical: ranks per group
        std::vector<std::pair<uint32_t, uint32_t>> pairs; //!< sendrecv pairs (custom)
        bool customPairs;                                 //!< pairs given
    };

    /**
     * A ring (or chain) group over ranks.
     * @param ranks the ranks, in ring order
     * @param ring close the ring (last -> first); false: a chain
     * @param rounds R
     * @param segment S
     * @param chunks C
     * @param recordBytes bytes per edge in the records
     * @return the group
     */
    GroupPlan Ring(const std::vector<uint32_t>& ranks,
                   bool ring,
                   uint32_t rounds,
                   uint64_t segment,
                   uint32_t chunks,
                   uint64_t recordBytes) const;
    /** Start a step. */
    void StartStep();
    /** Every rank has computed: run the collectives. */
    void ComputeDone();
    /** Start the next stage (or end the step). */
    void NextStage();
    /**
     * A group ended.
     * @param stageGroup index of the group in its stage
     * @param id the network's group id
     * @param ok success
     */
    void GroupDone(uint32_t stageGroup, uint32_t id, bool ok);
    /** End the step. */
    void EndStep();
    std::vector<Spec> m_specs;   //!< collectives
    std::vector<Stage> m_stages; //!< one step's stages
    Ptr<MrcFluidNetwork> m_net;  //!< the network
    uint32_t m_stage;            //!< current stage
    uint32_t m_groupsLeft;       //!< groups of the stage still running
    Time m_stageStart;           //!< current stage's start
    uint32_t m_perStep;          //!< records per step
    EventId m_event;             //!< pending compute end or step start
};

} // namespace ns3

#endif /* MRC_FLUID_JOB_H */
