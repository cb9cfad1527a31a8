/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COLLECTIVE_H
#define MRC_COLLECTIVE_H

#include "ns3/mrc-name-table.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief One point-to-point RDMA Write of a collective (or of a replayed trace), and what it
 * waits for.
 *
 * A transfer is posted once every transfer named in deps has been received (its receive
 * completion fired at its destination rank). In a DAG built by MrcCollective, ids are dense and
 * equal to the index in the vector, and every dependency has a smaller id than its dependent.
 */
struct MrcTransfer
{
    uint32_t id;                //!< identifier, unique within its DAG
    uint32_t srcRank;           //!< sending rank
    uint32_t dstRank;           //!< receiving rank
    uint64_t bytes;             //!< message length, > 0
    uint32_t round;             //!< algorithm round (0 for unordered transfers)
    uint32_t chunk;             //!< chunk index within its logical transfer
    uint32_t qp;                //!< queue pair index between srcRank and dstRank
    std::vector<uint32_t> deps; //!< ids of the transfers that must be received first
};

/**
 * @ingroup mrc
 * @brief A transfer list to replay: one DAG per step, as read from a CSV trace.
 *
 * Transfer ids are the trace's row ids; deps name transfers of the same step.
 */
struct MrcTransferList
{
    uint32_t nRanks = 0;                           //!< ranks the list uses (highest rank + 1)
    std::vector<std::vector<MrcTransfer>> steps{}; //!< step k's transfers
};

/**
 * @ingroup mrc
 * @brief Decomposes collectives into the point-to-point transfers NCCL-style algorithms issue.
 *
 * Every algorithm takes the number of ranks N, a size in bytes, a number of chunks C and a number
 * of queue pairs per peer Q. Each logical transfer (one segment sent from one rank to another in
 * one round) is cut into C chunks of sizes as equal as possible; chunk k goes on queue pair
 * k mod Q between the two ranks, and chunk k of round r depends only on chunk k of round r-1, so
 * chunks pipeline along the ring. Whenever a size does not divide evenly, the remainder is
 * spread one byte at a time over the first parts (Share()), so totals are exact. Chunks that
 * would be empty (a segment smaller than C bytes) are not emitted; their dependents inherit
 * their dependencies.
 *
 * What `bytes` means, and what each rank i sends and receives (S(j) = Share(bytes, N, j), the
 * size of segment j; indices mod N):
 *
 * - ring-allreduce: bytes = the buffer reduced on every rank; 2(N-1) rounds;
 *   rank i sends 2 bytes - S(i) - S(i+1) and receives 2 bytes - S(i-1) - S(i).
 * - allgather: bytes = the gathered (output) buffer, rank j contributing segment j; N-1 rounds;
 *   rank i sends bytes - S(i+1) and receives bytes - S(i).
 * - reduce-scatter: bytes = every rank's input buffer, rank j ending with segment j; N-1 rounds;
 *   rank i sends bytes - S(i) and receives bytes - S(i-1).
 * - alltoall: bytes = every rank's send buffer, block j going to rank j; N-1 rounds;
 *   rank i sends bytes - S(i) and receives (N-1) S(i).
 * - sendrecv: bytes = what each rank sends to each partner; 1 round;
 *   a rank sends and receives bytes per pair it belongs to.
 * - broadcast: bytes = the buffer rank 0 holds and every rank ends with; N-1 rounds;
 *   ranks 0 to N-2 send bytes, ranks 1 to N-1 receive bytes.
 * - hierarchical-allreduce: bytes = the buffer reduced on every rank; with groups of G ranks,
 *   2(G-1) + 2(N/G-1) rounds; a reduce-scatter and an all-gather within the group and a ring
 *   all-reduce of one segment across the groups (HierarchicalAllReduce()).
 *
 * Ring algorithms: rank i always sends to rank i+1. Reduce-scatter round r: rank i sends
 * segment i-r-1 (after N-1 rounds rank i holds the reduced segment i). All-gather round r:
 * rank i sends segment i-r (segment i starts at rank i). Ring all-reduce is reduce-scatter
 * followed by all-gather (rounds N-1 .. 2N-3). In every ring round r >= 1, a rank's send of
 * chunk k depends on its receive of chunk k in round r-1 (the segment it forwards or reduces).
 * All-to-all: rank i sends block j (S(j) bytes) to every j != i, round (j-i-1) mod N (the
 * shifted order of NCCL's pairwise exchange), no dependencies. Send/recv: ranks 2i and 2i+1
 * exchange `bytes` both ways (an odd last rank idles), or each given pair exchanges both ways.
 * Broadcast: NCCL's ring broadcast from rank 0, a chain 0 -> 1 -> ... -> N-1 in which rank i
 * (round i) forwards chunk k once it has received chunk k, so chunks pipeline along the chain.
 */
class MrcCollective
{
public:
    /** Collective algorithms. */
    enum Type : uint8_t
    {
        RING_ALLREDUCE = 0,    //!< ring all-reduce: reduce-scatter + all-gather
        ALLGATHER,             //!< ring all-gather
        REDUCE_SCATTER,        //!< ring reduce-scatter
        ALLTOALL,              //!< all-to-all, every pair at once
        SENDRECV,              //!< pairwise exchange
        BROADCAST,             //!< pipelined chain broadcast from rank 0
        HIERARCHICAL_ALLREDUCE //!< reduce-scatter in groups, all-reduce across, all-gather
    };

    /** @return the collectives' names, as inputs write them ("ring-allreduce", ...) */
    static const MrcNameTable<Type>& TypeNames();
    /**
     * Parse a collective name (TypeNames).
     * @param name a name
     * @param type set to the type when the name is known
     * @return false for an unknown name
     */
    static bool ParseType(const std::string& name, Type& type);
    /**
     * @param type a type
     * @return its name as ParseType accepts it (a static string)
     */
    static const char* TypeName(Type type);
    /** @return the accepted names, comma separated, for error messages */
    static std::string AcceptedTypes();

    /**
     * Build the transfer DAG of a collective (sendrecv: the default 2i <-> 2i+1 pairing).
     * @param type algorithm
     * @param nRanks N
     * @param bytes size, as the class documentation defines it for the type
     * @param chunks C >= 1
     * @param qpsPerPeer Q >= 1
     * @return the transfers, ids dense and in dependency order
     */
    static std::vector<MrcTransfer> Build(Type type,
                                          uint32_t nRanks,
                                          uint64_t bytes,
                                          uint32_t chunks,
                                          uint32_t qpsPerPeer,
                                          uint32_t groupSize = 0);
    /**
     * Hierarchical all-reduce, as collective libraries run it at scale: ranks form groups of
     * G consecutive ranks (the hosts of one T0 under contiguous placement). (1) Ring
     * reduce-scatter within every group: local rank i ends with segment i (Share(bytes, G,
     * i)); (2) ring all-reduce of segment i across the groups, among the N/G ranks with local
     * index i; (3) ring all-gather within every group. A stage's first-round sends from a rank
     * wait for that rank's receives in the last round of the previous stage. G = 1 or G = N
     * leave only the across- or the within-group stages.
     * @param nRanks N
     * @param groupSize G (divides N)
     * @param bytes buffer reduced on every rank
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> HierarchicalAllReduce(
        uint32_t nRanks, uint32_t groupSize, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer);
    /**
     * @param nRanks N
     * @param groupSize G
     * @return an empty string if a hierarchical all-reduce can group N ranks by G, else a
     * one-line reason
     */
    static std::string CheckGroupSize(uint32_t nRanks, uint32_t groupSize);
    /**
     * Ring all-reduce.
     * @param nRanks N
     * @param bytes buffer reduced on every rank
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> RingAllReduce(uint32_t nRanks,
                                                  uint64_t bytes,
                                                  uint32_t chunks,
                                                  uint32_t qpsPerPeer);
    /**
     * Ring all-gather.
     * @param nRanks N
     * @param bytes the gathered buffer (each rank contributes its segment)
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> AllGather(uint32_t nRanks,
                                              uint64_t bytes,
                                              uint32_t chunks,
                                              uint32_t qpsPerPeer);
    /**
     * Ring reduce-scatter.
     * @param nRanks N
     * @param bytes every rank's input buffer
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> ReduceScatter(uint32_t nRanks,
                                                  uint64_t bytes,
                                                  uint32_t chunks,
                                                  uint32_t qpsPerPeer);
    /**
     * All-to-all.
     * @param nRanks N
     * @param bytes every rank's send buffer
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> AllToAll(uint32_t nRanks,
                                             uint64_t bytes,
                                             uint32_t chunks,
                                             uint32_t qpsPerPeer);
    /**
     * Pipelined chain broadcast from rank 0.
     * @param nRanks N
     * @param bytes the buffer
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> Broadcast(uint32_t nRanks,
                                              uint64_t bytes,
                                              uint32_t chunks,
                                              uint32_t qpsPerPeer);
    /**
     * Pairwise exchange, ranks 2i and 2i+1.
     * @param nRanks N
     * @param bytes sent by each rank to its partner
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> SendRecv(uint32_t nRanks,
                                             uint64_t bytes,
                                             uint32_t chunks,
                                             uint32_t qpsPerPeer);
    /**
     * Pairwise exchange between given pairs (each pair exchanges both ways).
     * @param pairs rank pairs (distinct ranks)
     * @param bytes sent by each side of a pair to the other
     * @param chunks C
     * @param qpsPerPeer Q
     * @return the transfers
     */
    static std::vector<MrcTransfer> SendRecv(
        const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
        uint64_t bytes,
        uint32_t chunks,
        uint32_t qpsPerPeer);

    /**
     * Exact split of a size into parts: the first (bytes mod parts) parts get one more byte.
     * @param bytes size
     * @param parts parts (>= 1)
     * @param i part index
     * @return the size of part i
     */
    static uint64_t Share(uint64_t bytes, uint32_t parts, uint32_t i);
    /**
     * @param type algorithm
     * @param nRanks N
     * @param groupSize G (hierarchical-allreduce only)
     * @return rounds of the algorithm (0 for N = 1)
     */
    static uint32_t Rounds(Type type, uint32_t nRanks, uint32_t groupSize = 0);

    /**
     * NCCL-tests' bus-bandwidth factor (nccl-tests, doc/PERFORMANCE.md): the algorithm
     * bandwidth algbw = bytes / time (bytes as this class defines them for the type, which is
     * NCCL-tests' "size") times this factor is the bus bandwidth busbw, comparable with the
     * hardware's link speed whatever the rank count: 2 (N - 1) / N for all-reduce (ring or
     * hierarchical), (N - 1) / N for all-gather, reduce-scatter and all-to-all, 1 for
     * send/recv and broadcast.
     * @param type the collective
     * @param nRanks ranks (at least 1)
     * @return the factor
     */
    static double BusBandwidthFactor(Type type, uint32_t nRanks);
    /**
     * @param type the collective
     * @param nRanks ranks
     * @param bytes its size (as for Build)
     * @param seconds how long it took (> 0)
     * @param busbw set to the bus bandwidth, bit/s (NCCL-tests prints it in GB/s)
     * @return the algorithm bandwidth, bit/s
     */
    static double AlgorithmBandwidth(
        Type type, uint32_t nRanks, uint64_t bytes, double seconds, double& busbw);
    /**
     * Bytes a rank sends in one collective (sendrecv: default pairing).
     * @param type algorithm
     * @param nRanks N
     * @param bytes size
     * @param rank the rank
     * @param groupSize G (hierarchical-allreduce only)
     * @return bytes sent
     */
    static uint64_t BytesSent(
        Type type, uint32_t nRanks, uint64_t bytes, uint32_t rank, uint32_t groupSize = 0);
    /**
     * Bytes a rank receives in one collective (sendrecv: default pairing).
     * @param type algorithm
     * @param nRanks N
     * @param bytes size
     * @param rank the rank
     * @param groupSize G (hierarchical-allreduce only)
     * @return bytes received
     */
    static uint64_t BytesReceived(
        Type type, uint32_t nRanks, uint64_t bytes, uint32_t rank, uint32_t groupSize = 0);
    /**
     * The largest single transfer a collective produces, to check against message limits.
     * @param type algorithm
     * @param nRanks N
     * @param bytes size
     * @param chunks C
     * @param groupSize G (hierarchical-allreduce only)
     * @return bytes of the largest chunk
     */
    static uint64_t MaxTransferBytes(
        Type type, uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t groupSize = 0);
};

} // namespace ns3

#endif /* MRC_COLLECTIVE_H */
