/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRAINING_JOB_H
#define MRC_TRAINING_JOB_H

#include "ns3/mrc-collective.h"
#include "ns3/mrc-job-records.h"
#include "ns3/mrc-job.h"
#include "ns3/mrc-queue-pair.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

class MrcClosTopology;

/**
 * @ingroup mrc
 * @brief One communication operation of a job program (MrcJobProgram): a collective over all
 * the job's ranks, or one point-to-point message.
 */
struct MrcProgramOp
{
    bool p2p = false;                                         //!< a single message src -> dst
    MrcCollective::Type type = MrcCollective::RING_ALLREDUCE; //!< algorithm (collectives)
    uint64_t bytes = 0;                                       //!< size, as MrcCollective means it
    uint32_t src = 0;                                         //!< p2p: sending rank
    uint32_t dst = 0;                                         //!< p2p: receiving rank
};

/**
 * @ingroup mrc
 * @brief One node of a rank's program: a compute delay or the rank's part in an operation.
 */
struct MrcProgramNode
{
    bool compute = true;          //!< a compute delay (else: the rank's part in op)
    Time duration{};              //!< compute: how long
    uint32_t op = 0;              //!< operation: index into MrcJobProgram::ops
    std::vector<uint32_t> deps{}; //!< nodes of the same rank (indices) that must end first
    uint64_t sourceId = 0;        //!< identifier in the source (a trace's node id), for messages
};

/**
 * @ingroup mrc
 * @brief What every rank of a job does in one step, as a dependency graph per rank (a Chakra
 * execution trace, for instance). Every rank taking part in an operation has exactly one node
 * for it: all ranks for a collective, src and dst for a p2p op.
 */
struct MrcJobProgram
{
    std::vector<MrcProgramOp> ops{};                  //!< operations
    std::vector<std::vector<MrcProgramNode>> ranks{}; //!< per rank, its nodes
    uint32_t chunks = 1;                              //!< chunks of every collective
    uint32_t qpsPerPeer = 1;                          //!< queue pairs per peer
};

/**
 * @ingroup mrc
 * @brief A synchronous data-parallel training job: steps of compute followed by collectives,
 * decomposed into RDMA Writes on MRC queue pairs, with a barrier at the end of every step.
 *
 * Step s starts for every rank at once. Rank r computes for ComputeTime + its extra compute
 * (SetRankExtraCompute) + a draw uniform in [0, ComputeJitter), then runs the step's collectives
 * in order, like NCCL operations on one stream: it enters collective c+1 once its own part of
 * collective c is over (every transfer it sends has its send completion, every transfer it
 * receives has its receive completion). The step ends when the last rank has finished its last
 * collective; step s+1 starts at that instant.
 *
 * A transfer is posted (MrcQueuePair::PostWriteImm, the immediate naming the transfer) when
 * (1) its source rank is in the transfer's collective, (2) if WaitForReceiver, its destination
 * rank is too (NCCL's receiver-ready rendezvous: a rank still computing has not posted its
 * buffers), and (3) every dependency has been *received*: its receive completion fired at its
 * destination, i.e. the data is available there. The transfer's end time is its sender's send
 * completion (every byte acknowledged), which is also when it counts for the barrier.
 *
 * Queue pairs: Install creates one connected pair per (source rank, destination rank, qp index)
 * with MrcL4Protocol::ConnectPair; the source side sends, the other side receives. They persist
 * across collectives and steps, like NCCL connections. The job takes the queue pairs' completion
 * callbacks (observers can use their SendComplete / RecvComplete traces).
 *
 * Failures: a transfer whose send completion is not SUCCESS (the QP exhausted its retries) is
 * recorded with that status and counted (GetFailedTransfers, MrcStepRecord::failures). With
 * AbortOnFailure (the default) the job then fails at once, as NCCL aborts a communicator whose
 * QP went to the error state: no further step runs, IsFailed() is true, JobFailed and then
 * JobComplete fire. Without it the failed transfer's dependents are released at that moment as
 * if it had been received (the collective proceeds with stale data, as an elastic runtime
 * would) and the step ends normally. Later posts on a failed QP fail at once.
 *
 * Instead of collectives, a job can replay a transfer list (SetTransferList): step s runs the
 * list's step s mod (number of list steps), as one "collective" named "replay".
 * Or a job can run a program (SetProgram): every step, after its compute phase, each rank runs
 * its node graph: a node starts once every node it depends on has ended. Compute nodes run one
 * at a time per rank, in the order they become ready (ties: lower index first), like kernels on
 * one GPU stream; operation nodes run alongside compute, each entering its operation as a rank
 * enters a collective above (gating its transfers) and ending when the rank's part is over.
 * The step ends when every rank's every node has ended.
 *
 * Hot path: per transfer, one post and two completions, each O(1) plus its dependents; no
 * lookups by key and no string formatting.
 */
class MrcTrainingJob : public MrcJob
{
public:
    /** Placement policies: how job ranks map to fabric hosts. */
    enum Placement : uint8_t
    {
        CONTIGUOUS = 0, //!< the first block of consecutive free hosts, rank r on the r-th
        INTERLEAVED,    //!< spread evenly over the free hosts (stride = free hosts / ranks)
        RANDOM          //!< a random subset of the free hosts, in random rank order
    };

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcTrainingJob();
    ~MrcTrainingJob() override;

    /** @return the placement policies' names ("contiguous", "interleaved", "random") */
    static const MrcNameTable<Placement>& PlacementNames();
    /**
     * Parse a placement policy name (PlacementNames).
     * @param name a name
     * @param policy set when the name is known
     * @return false for an unknown name
     */
    static bool ParsePlacement(const std::string& name, Placement& policy);
    /**
     * @param policy a policy
     * @return its name (a static string)
     */
    static const char* PlacementName(Placement policy);
    /** @return the placement names, for messages: "contiguous, interleaved, random" */
    static std::string AcceptedPlacements();
    /**
     * Choose hosts for a job's ranks among the hosts not used yet.
     * @param policy the policy
     * @param nRanks ranks to place (>= 1)
     * @param nHosts hosts in the fabric
     * @param used per host, whether another job holds it; the chosen hosts are marked (resized
     * to nHosts if shorter)
     * @param rng random source for RANDOM (may be null otherwise)
     * @param error set to a one-line message on failure
     * @return the host of every rank, or an empty vector if the ranks do not fit
     */
    static std::vector<uint32_t> Place(Placement policy,
                                       uint32_t nRanks,
                                       uint32_t nHosts,
                                       std::vector<bool>& used,
                                       Ptr<UniformRandomVariable> rng,
                                       std::string& error);

    /**
     * Add a collective to every step (run in the order added).
     * @param type algorithm
     * @param bytes size, as MrcCollective defines it for the type
     * @param chunks chunks per logical transfer (>= 1)
     * @param qpsPerPeer queue pairs between two ranks the chunks are spread over (>= 1)
     * @param groupSize hierarchical-allreduce: ranks per group (divides the ranks)
     */
    void AddCollective(MrcCollective::Type type,
                       uint64_t bytes,
                       uint32_t chunks = 1,
                       uint32_t qpsPerPeer = 1,
                       uint32_t groupSize = 0);
    /**
     * Add a pairwise exchange between given rank pairs to every step.
     * @param pairs rank pairs; each exchanges `bytes` both ways
     * @param bytes bytes each side sends
     * @param chunks chunks
     * @param qpsPerPeer queue pairs per peer
     */
    void AddSendRecv(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                     uint64_t bytes,
                     uint32_t chunks = 1,
                     uint32_t qpsPerPeer = 1);
    /**
     * Replay a transfer list instead of collectives: step s runs list step s mod its size.
     * @param list the list (ranks must be < the job's ranks)
     */
    void SetTransferList(const MrcTransferList& list);
    /**
     * Run a program instead of collectives (every step).
     * @param program the program (one node list per rank; must match the job's ranks at
     * Install)
     */
    void SetProgram(const MrcJobProgram& program);

    /**
     * Build the step plans and create the queue pairs. Call once, after SetRanks and the
     * collectives, with the stack installed on the fabric (MrcStackHelper::Install).
     * @param fabric the fabric the ranks' hosts belong to
     */
    void Install(Ptr<MrcClosTopology> fabric);
    /**
     * Start step 0.
     * @param at absolute simulation time (>= now)
     */
    void Start(Time at) override;

    /**
     * @param rank a rank
     * @return bytes it sent successfully (send completions with SUCCESS)
     */
    uint64_t GetBytesSent(uint32_t rank) const;
    /**
     * @param rank a rank
     * @return bytes it received (receive completions)
     */
    uint64_t GetBytesReceived(uint32_t rank) const;
    /** @return connected queue pair pairs created by Install */
    uint32_t GetNQueuePairs() const;
    /** @return transfers per step of plan 0 (the generated collectives, or replay step 0) */
    uint32_t GetTransfersPerStep() const override;

private:
    void DoDispose() override;

    /** A collective added by AddCollective / AddSendRecv. */
    struct CollectiveSpec
    {
        MrcCollective::Type type;                         //!< algorithm
        uint64_t bytes;                                   //!< size
        uint32_t chunks;                                  //!< chunks
        uint32_t qps;                                     //!< queue pairs per peer
        bool customPairs;                                 //!< sendrecv with explicit pairs
        std::vector<std::pair<uint32_t, uint32_t>> pairs; //!< those pairs
        uint32_t groupSize;                               //!< hierarchical: ranks per group
    };

    /** A transfer in a step plan. */
    struct Xfer
    {
        uint32_t src;        //!< source rank
        uint32_t dst;        //!< destination rank
        uint64_t bytes;      //!< length
        uint32_t conn;       //!< connection index
        uint32_t collective; //!< collective index
        uint32_t id;         //!< id within its collective DAG
        uint32_t conds;      //!< conditions before posting: deps + gates
        uint32_t depBegin;   //!< first dependent in Plan::dependents
        uint32_t depEnd;     //!< one past the last dependent
    };

    /** A program node, compiled. */
    struct PNode
    {
        uint32_t rank;       //!< its rank
        uint32_t op;         //!< collective index, or NO_NODE for compute
        Time duration;       //!< compute time
        uint32_t deps;       //!< nodes it waits for
        uint32_t childBegin; //!< first child in Plan::children
        uint32_t childEnd;   //!< one past the last
    };

    /** Everything one step runs, precomputed. */
    struct Plan
    {
        std::vector<Xfer> xfers;          //!< transfers
        std::vector<uint32_t> dependents; //!< transfers released by each transfer (CSR)
        std::vector<uint32_t> gateBegin;  //!< per (rank, collective), into gates (CSR)
        std::vector<uint32_t> gates;      //!< transfers gated by a rank entering a collective
        std::vector<uint32_t> involve;    //!< per (rank, collective): send + receive roles
        std::vector<const char*> names;   //!< type name of each collective
        uint32_t nCollectives;            //!< collectives
        // A program (empty otherwise): nodes of all ranks, rank r's in [nodeBegin[r],
        // nodeBegin[r+1]).
        std::vector<PNode> nodes;        //!< program nodes
        std::vector<uint32_t> nodeBegin; //!< per rank, its first node (n + 1 entries)
        std::vector<uint32_t> children;  //!< nodes released by each node (CSR)
        std::vector<uint32_t> opNode;    //!< per (rank, collective), its node (or NO_NODE)
    };

    /** A connected queue pair pair. */
    struct Conn
    {
        Ptr<MrcQueuePair> tx;      //!< sending side (on the source rank's host)
        Ptr<MrcQueuePair> rx;      //!< receiving side
        std::deque<uint32_t> fifo; //!< posted transfers, in send completion order
    };

    /**
     * Turn DAGs into a plan.
     * @param dags one DAG per collective
     * @param names type name of each
     * @param connOf connection of each (source rank, destination rank, qp index), filled as
     * connections are created
     * @param fabric the fabric, whose hosts carry the stack that creates connections
     * @return the plan
     */
    Plan MakePlan(const std::vector<std::vector<MrcTransfer>>& dags,
                  const std::vector<const char*>& names,
                  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& connOf,
                  const MrcClosTopology& fabric);
    /**
     * Compile the program into m_plans[0].
     * @param connOf as MakePlan
     * @param fabric the fabric
     */
    void InstallProgram(std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& connOf,
                        const MrcClosTopology& fabric);
    /**
     * A program node can start.
     * @param node the node
     */
    void NodeReady(uint32_t node);
    /**
     * Start a rank's next ready compute node, if it is idle.
     * @param rank the rank
     */
    void RunCompute(uint32_t rank);
    /**
     * A compute node ended.
     * @param rank its rank
     * @param node the node
     */
    void ComputeNodeDone(uint32_t rank, uint32_t node);
    /**
     * A program node ended: release its children; the rank may be done.
     * @param node the node
     */
    void NodeDone(uint32_t node);
    /**
     * A rank is done with the step.
     * @param rank the rank
     */
    void RankDone(uint32_t rank);
    /** Start the current step. */
    void StartStep();
    /**
     * A rank ended its compute phase.
     * @param rank the rank
     */
    void ComputeDone(uint32_t rank);
    /**
     * A rank moves to a collective (skipping collectives it has no part in).
     * @param rank the rank
     * @param c the collective (nCollectives: the rank is done with the step)
     */
    void Enter(uint32_t rank, uint32_t c);
    /**
     * One of a rank's roles in a collective is over.
     * @param rank the rank
     * @param c the collective
     */
    void RoleDone(uint32_t rank, uint32_t c);
    /**
     * One condition of a transfer is met.
     * @param t the transfer
     */
    void Satisfy(uint32_t t);
    /** Post every ready transfer (not reentrant: nested calls return at once). */
    void Drain();
    /**
     * A transfer's data is available at its destination (or it failed): release dependents.
     * @param t the transfer
     */
    void Release(uint32_t t);
    /**
     * Send completion on a connection.
     * @param conn connection index
     * @param c the completion
     */
    void OnSendComplete(uint32_t conn, const MrcCompletion& c);
    /**
     * Receive completion on a connection.
     * @param conn connection index
     * @param c the completion
     */
    void OnRecvComplete(uint32_t conn, const MrcCompletion& c);
    /** The last rank finished: close the step. */
    void EndStep();
    /** A transfer failed and AbortOnFailure is set: the job fails. */
    void Fail();

    // attributes
    bool m_waitForReceiver; //!< WaitForReceiver
    bool m_qpPerPort;       //!< QpPerPort attribute

    // configuration
    std::vector<CollectiveSpec> m_specs;  //!< collectives of every step
    MrcTransferList m_replay;             //!< transfer list to replay
    bool m_hasReplay;                     //!< replay instead of collectives
    MrcJobProgram m_program;              //!< program to run
    bool m_hasProgram;                    //!< run the program
    bool m_started;                       //!< Start done
    std::vector<Plan> m_plans;            //!< one (collectives) or one per list step
    std::vector<Conn> m_conns;            //!< connections
    EventId m_startEvent;                 //!< next step start
    std::vector<EventId> m_computeEvents; //!< per rank, end of compute

    // the running step
    const Plan* m_plan;                //!< plan of the current step
    bool m_running;                    //!< a step is in progress
    bool m_abortOnFailure;             //!< AbortOnFailure attribute
    std::vector<uint32_t> m_conds;     //!< per transfer, unmet conditions
    std::vector<uint8_t> m_state;      //!< per transfer, State flags
    std::vector<Time> m_postedAt;      //!< per transfer, post time
    std::vector<Time> m_receivedAt;    //!< per transfer, receive completion
    std::vector<uint32_t> m_rankAt;    //!< per rank, current collective (COMPUTING before)
    std::vector<uint32_t> m_left;      //!< per (rank, collective), roles not yet over
    std::vector<uint32_t> m_ready;     //!< transfers ready to post
    std::vector<uint32_t> m_nodeDeps;  //!< program: per node, unmet deps
    std::vector<uint32_t> m_nodesLeft; //!< program: per rank, nodes not ended
    std::vector<uint8_t> m_entered;    //!< program: per (rank, collective)
    std::vector<std::deque<uint32_t>> m_computeQ; //!< program: per rank, ready compute
    std::vector<uint8_t> m_computeBusy;           //!< program: per rank, computing
    bool m_draining;                              //!< Drain() is running
    uint32_t m_ranksDone;                         //!< ranks done with the step
    uint32_t m_immParity;                         //!< step parity bit carried in immediates

    // results
    std::vector<uint64_t> m_bytesSent;                             //!< per rank
    std::vector<uint64_t> m_bytesReceived;                         //!< per rank
    TracedCallback<uint32_t, uint32_t, uint64_t> m_jobFailedTrace; //!< JobFailed
};

} // namespace ns3

#endif /* MRC_TRAINING_JOB_H */
