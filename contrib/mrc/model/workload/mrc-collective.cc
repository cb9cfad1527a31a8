/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-collective.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

namespace
{

/**
 * Append the C chunks of one logical transfer to a DAG; empty chunks are skipped and stand for
 * their dependencies.
 * @param out the DAG
 * @param src sending rank
 * @param dst receiving rank
 * @param bytes size of the logical transfer
 * @param round its round
 * @param chunks C
 * @param qps Q
 * @param deps per chunk, the ids chunk k depends on
 * @param self per chunk, set to the ids standing for chunk k (its own id, or its deps if empty)
 */
void
AddChunks(std::vector<MrcTransfer>& out,
          uint32_t src,
          uint32_t dst,
          uint64_t bytes,
          uint32_t round,
          uint32_t chunks,
          uint32_t qps,
          const std::vector<uint32_t>* deps,
          std::vector<uint32_t>* self)
{
    for (uint32_t k = 0; k < chunks; ++k)
    {
        const uint64_t b = MrcCollective::Share(bytes, chunks, k);
        if (b == 0)
        {
            if (self != nullptr)
            {
                self[k] = deps != nullptr ? deps[k] : std::vector<uint32_t>();
            }
            continue;
        }
        const auto id = static_cast<uint32_t>(out.size());
        out.push_back({id,
                       src,
                       dst,
                       b,
                       round,
                       k,
                       k % qps,
                       deps != nullptr ? deps[k] : std::vector<uint32_t>()});
        if (self != nullptr)
        {
            self[k] = {id};
        }
    }
}

/**
 * A ring algorithm: in every round rank i sends one segment to rank i+1; round r's chunk k
 * depends on the sender's receive of chunk k in round r-1.
 * @tparam SegFn uint32_t(uint32_t rank, uint32_t round): the segment a rank sends in a round
 * @param n ranks
 * @param bytes buffer size split into n segments
 * @param chunks C
 * @param qps Q
 * @param rounds rounds
 * @param seg the segment schedule
 * @return the DAG
 */
template<typename SegFn>
std::vector<MrcTransfer>
BuildRing(uint32_t n, uint64_t bytes, uint32_t chunks, uint32_t qps, uint32_t rounds, SegFn seg)
{
    std::vector<MrcTransfer> out;
    if (n < 2)
    {
        return out;
    }
    out.reserve(static_cast<std::size_t>(rounds) * n * chunks);
    // For every (rank, chunk), the ids standing for what the rank received in the last round.
    std::vector<std::vector<uint32_t>> prev(static_cast<std::size_t>(n) * chunks);
    std::vector<std::vector<uint32_t>> cur(prev.size());
    for (uint32_t r = 0; r < rounds; ++r)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t dst = (i + 1) % n;
            const uint32_t from = (i + n - 1) % n; // whose round r-1 send rank i received
            AddChunks(out,
                      i,
                      dst,
                      MrcCollective::Share(bytes, n, seg(i, r)),
                      r,
                      chunks,
                      qps,
                      r == 0 ? nullptr : &prev[static_cast<std::size_t>(from) * chunks],
                      &cur[static_cast<std::size_t>(i) * chunks]);
        }
        std::swap(prev, cur);
    }
    return out;
}

/**
 * Check the common arguments.
 * @param chunks C
 * @param qps Q
 */
void
CheckArgs(uint32_t chunks, uint32_t qps)
{
    NS_ABORT_MSG_IF(chunks == 0, "MrcCollective: chunks must be >= 1");
    NS_ABORT_MSG_IF(qps == 0, "MrcCollective: qpsPerPeer must be >= 1");
}

} // namespace

const MrcNameTable<MrcCollective::Type>&
MrcCollective::TypeNames()
{
    static const MrcNameTable<Type> names{{RING_ALLREDUCE, "ring-allreduce"},
                                          {ALLGATHER, "allgather"},
                                          {REDUCE_SCATTER, "reduce-scatter"},
                                          {ALLTOALL, "alltoall"},
                                          {SENDRECV, "sendrecv"},
                                          {BROADCAST, "broadcast"},
                                          {HIERARCHICAL_ALLREDUCE, "hierarchical-allreduce"}};
    return names;
}

bool
MrcCollective::ParseType(const std::string& name, Type& type)
{
    return TypeNames().Parse(name, type);
}

const char*
MrcCollective::TypeName(Type type)
{
    return TypeNames().GetName(type).c_str();
}

std::string
MrcCollective::AcceptedTypes()
{
    return TypeNames().GetNames();
}

double
MrcCollective::BusBandwidthFactor(Type type, uint32_t nRanks)
{
    const double n = std::max<uint32_t>(nRanks, 1);
    switch (type)
    {
        case RING_ALLREDUCE:
        case HIERARCHICAL_ALLREDUCE:
            return 2 * (n - 1) / n;
        case ALLGATHER:
        case REDUCE_SCATTER:
        case ALLTOALL:
            return (n - 1) / n;
        case SENDRECV:
        case BROADCAST:
            return 1;
    }
    return 1;
}

double
MrcCollective::AlgorithmBandwidth(
    Type type, uint32_t nRanks, uint64_t bytes, double seconds, double& busbw)
{
    const double algbw = seconds > 0 ? double(bytes) * 8 / seconds : 0;
    busbw = algbw * BusBandwidthFactor(type, nRanks);
    return algbw;
}

uint64_t
MrcCollective::Share(uint64_t bytes, uint32_t parts, uint32_t i)
{
    return bytes / parts + (i < bytes % parts ? 1 : 0);
}

std::vector<MrcTransfer>
MrcCollective::Build(Type type,
                     uint32_t nRanks,
                     uint64_t bytes,
                     uint32_t chunks,
                     uint32_t qpsPerPeer,
                     uint32_t groupSize)
{
    switch (type)
    {
        case HIERARCHICAL_ALLREDUCE:
            return HierarchicalAllReduce(nRanks, groupSize, bytes, chunks, qpsPerPeer);
        case RING_ALLREDUCE:
            return RingAllReduce(nRanks, bytes, chunks, qpsPerPeer);
        case ALLGATHER:
            return AllGather(nRanks, bytes, chunks, qpsPerPeer);
        case REDUCE_SCATTER:
            return ReduceScatter(nRanks, bytes, chunks, qpsPerPeer);
        case ALLTOALL:
            return AllToAll(nRanks, bytes, chunks, qpsPerPeer);
        case SENDRECV:
            return SendRecv(nRanks, bytes, chunks, qpsPerPeer);
        case BROADCAST:
            return Broadcast(nRanks, bytes, chunks, qpsPerPeer);
    }
    NS_ABORT_MSG("MrcCollective: unknown type " << static_cast<int>(type));
    return {};
}

std::vector<MrcTransfer>
MrcCollective::RingAllReduce(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    const uint32_t n = nRanks;
    return BuildRing(n,
                     bytes,
                     chunks,
                     qpsPerPeer,
                     Rounds(RING_ALLREDUCE, n),
                     [n](uint32_t i, uint32_t r) -> uint32_t
                     {
                         if (r + 1 < n)
                         {
                             return (i + 2 * n - r - 1) % n; // reduce-scatter
                         }
                         return (i + 2 * n - (r - (n - 1))) % n; // all-gather
                     });
}

std::vector<MrcTransfer>
MrcCollective::AllGather(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    const uint32_t n = nRanks;
    return BuildRing(n,
                     bytes,
                     chunks,
                     qpsPerPeer,
                     Rounds(ALLGATHER, n),
                     [n](uint32_t i, uint32_t r) -> uint32_t
                     {
                         return (i + n - r) % n;
                     });
}

std::vector<MrcTransfer>
MrcCollective::ReduceScatter(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    const uint32_t n = nRanks;
    return BuildRing(n,
                     bytes,
                     chunks,
                     qpsPerPeer,
                     Rounds(REDUCE_SCATTER, n),
                     [n](uint32_t i, uint32_t r) -> uint32_t
                     {
                         return (i + 2 * n - r - 1) % n;
                     });
}

std::vector<MrcTransfer>
MrcCollective::AllToAll(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    std::vector<MrcTransfer> out;
    const uint32_t n = nRanks;
    for (uint32_t s = 1; s < n; ++s)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t j = (i + s) % n;
            AddChunks(out, i, j, Share(bytes, n, j), s - 1, chunks, qpsPerPeer, nullptr, nullptr);
        }
    }
    return out;
}

std::vector<MrcTransfer>
MrcCollective::Broadcast(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    std::vector<MrcTransfer> out;
    std::vector<std::vector<uint32_t>> prev(chunks);
    std::vector<std::vector<uint32_t>> cur(chunks);
    for (uint32_t i = 0; i + 1 < nRanks; ++i)
    {
        AddChunks(out,
                  i,
                  i + 1,
                  bytes,
                  i,
                  chunks,
                  qpsPerPeer,
                  i == 0 ? nullptr : prev.data(),
                  cur.data());
        std::swap(prev, cur);
    }
    return out;
}

std::vector<MrcTransfer>
MrcCollective::SendRecv(uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i + 1 < nRanks; i += 2)
    {
        pairs.emplace_back(i, i + 1);
    }
    return SendRecv(pairs, bytes, chunks, qpsPerPeer);
}

std::vector<MrcTransfer>
MrcCollective::SendRecv(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                        uint64_t bytes,
                        uint32_t chunks,
                        uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    std::vector<MrcTransfer> out;
    for (const auto& p : pairs)
    {
        NS_ABORT_MSG_IF(p.first == p.second,
                        "MrcCollective: sendrecv pair (" << p.first << ", " << p.second
                                                         << ") names one rank twice");
        AddChunks(out, p.first, p.second, bytes, 0, chunks, qpsPerPeer, nullptr, nullptr);
        AddChunks(out, p.second, p.first, bytes, 0, chunks, qpsPerPeer, nullptr, nullptr);
    }
    return out;
}

std::string
MrcCollective::CheckGroupSize(uint32_t nRanks, uint32_t groupSize)
{
    if (groupSize == 0 || nRanks % groupSize != 0)
    {
        return "the group size (" + std::to_string(groupSize)
             + ") must be at least 1 and divide the ranks (" + std::to_string(nRanks) + ")";
    }
    return "";
}

std::vector<MrcTransfer>
MrcCollective::HierarchicalAllReduce(
    uint32_t nRanks, uint32_t groupSize, uint64_t bytes, uint32_t chunks, uint32_t qpsPerPeer)
{
    CheckArgs(chunks, qpsPerPeer);
    const std::string err = CheckGroupSize(nRanks, groupSize);
    NS_ABORT_MSG_IF(!err.empty(), "MrcCollective: hierarchical-allreduce: " << err);
    const uint32_t g = groupSize;
    const uint32_t groups = nRanks / g;
    std::vector<MrcTransfer> out;
    // Per rank, the ids of its receives in the last round of the previous stage.
    std::vector<std::vector<uint32_t>> lastRecv(nRanks);
    uint32_t roundBase = 0;
    // Append a sub-DAG over the given ranks; its first-round sends wait for the sender's
    // receives of the previous stage.
    auto append = [&out, &lastRecv, &roundBase](const std::vector<MrcTransfer>& sub,
                                                const std::vector<uint32_t>& ranks,
                                                std::vector<std::vector<uint32_t>>& nextRecv)
    {
        const auto base = static_cast<uint32_t>(out.size());
        uint32_t lastRound = 0;
        for (const auto& t : sub)
        {
            lastRound = std::max(lastRound, t.round);
        }
        for (const auto& t : sub)
        {
            MrcTransfer x = t;
            x.id = base + t.id;
            x.srcRank = ranks[t.srcRank];
            x.dstRank = ranks[t.dstRank];
            x.round = roundBase + t.round;
            for (auto& d : x.deps)
            {
                d += base;
            }
            if (t.deps.empty())
            {
                const auto& before = lastRecv[x.srcRank];
                x.deps.insert(x.deps.end(), before.begin(), before.end());
            }
            if (t.round == lastRound)
            {
                nextRecv[x.dstRank].push_back(x.id);
            }
            out.push_back(std::move(x));
        }
    };
    auto advance
        = [&lastRecv, &roundBase](std::vector<std::vector<uint32_t>>& nextRecv, uint32_t rounds)
    {
        if (rounds == 0)
        {
            return;
        }
        for (uint32_t r = 0; r < nextRecv.size(); ++r)
        {
            lastRecv[r] = std::move(nextRecv[r]);
            nextRecv[r].clear();
        }
        roundBase += rounds;
    };
    std::vector<std::vector<uint32_t>> next(nRanks);
    // The ranks of every group, and the DAGs every group runs (the same for all of them).
    std::vector<std::vector<uint32_t>> members(groups, std::vector<uint32_t>(g));
    for (uint32_t b = 0; b < groups; ++b)
    {
        for (uint32_t i = 0; i < g; ++i)
        {
            members[b][i] = b * g + i;
        }
    }
    // 1. Reduce-scatter within every group: local rank i ends with segment i.
    if (g > 1)
    {
        const auto rs = ReduceScatter(g, bytes, chunks, qpsPerPeer);
        for (uint32_t b = 0; b < groups; ++b)
        {
            append(rs, members[b], next);
        }
    }
    advance(next, g > 1 ? Rounds(REDUCE_SCATTER, g) : 0);
    // 2. All-reduce of segment i across the groups, among the ranks with local index i.
    for (uint32_t i = 0; i < g && groups > 1; ++i)
    {
        std::vector<uint32_t> ranks(groups);
        for (uint32_t b = 0; b < groups; ++b)
        {
            ranks[b] = b * g + i;
        }
        append(RingAllReduce(groups, Share(bytes, g, i), chunks, qpsPerPeer), ranks, next);
    }
    advance(next, groups > 1 ? Rounds(RING_ALLREDUCE, groups) : 0);
    // 3. All-gather within every group.
    if (g > 1)
    {
        const auto ag = AllGather(g, bytes, chunks, qpsPerPeer);
        for (uint32_t b = 0; b < groups; ++b)
        {
            append(ag, members[b], next);
        }
    }
    return out;
}

uint32_t
MrcCollective::Rounds(Type type, uint32_t nRanks, uint32_t groupSize)
{
    if (nRanks < 2)
    {
        return 0;
    }
    switch (type)
    {
        case HIERARCHICAL_ALLREDUCE:
        {
            const uint32_t g = std::max(1u, groupSize);
            return 2 * Rounds(REDUCE_SCATTER, g) + Rounds(RING_ALLREDUCE, nRanks / g);
        }
        case RING_ALLREDUCE:
            return 2 * (nRanks - 1);
        case ALLGATHER:
        case REDUCE_SCATTER:
        case ALLTOALL:
        case BROADCAST:
            return nRanks - 1;
        case SENDRECV:
            return 1;
    }
    return 0;
}

uint64_t
MrcCollective::BytesSent(
    Type type, uint32_t nRanks, uint64_t bytes, uint32_t rank, uint32_t groupSize)
{
    const uint32_t n = nRanks;
    if (n < 2 || rank >= n)
    {
        return 0;
    }
    switch (type)
    {
        case HIERARCHICAL_ALLREDUCE:
        {
            const uint32_t g = std::max(1u, groupSize);
            const uint32_t i = rank % g;
            return BytesSent(REDUCE_SCATTER, g, bytes, i)
                 + BytesSent(RING_ALLREDUCE, n / g, Share(bytes, g, i), rank / g)
                 + BytesSent(ALLGATHER, g, bytes, i);
        }
        case RING_ALLREDUCE:
            return 2 * bytes - Share(bytes, n, rank) - Share(bytes, n, (rank + 1) % n);
        case ALLGATHER:
            return bytes - Share(bytes, n, (rank + 1) % n);
        case REDUCE_SCATTER:
        case ALLTOALL:
            return bytes - Share(bytes, n, rank);
        case SENDRECV:
            return (rank ^ 1u) < n ? bytes : 0;
        case BROADCAST:
            return rank + 1 < n ? bytes : 0;
    }
    return 0;
}

uint64_t
MrcCollective::BytesReceived(
    Type type, uint32_t nRanks, uint64_t bytes, uint32_t rank, uint32_t groupSize)
{
    const uint32_t n = nRanks;
    if (n < 2 || rank >= n)
    {
        return 0;
    }
    switch (type)
    {
        case HIERARCHICAL_ALLREDUCE:
        {
            const uint32_t g = std::max(1u, groupSize);
            const uint32_t i = rank % g;
            return BytesReceived(REDUCE_SCATTER, g, bytes, i)
                 + BytesReceived(RING_ALLREDUCE, n / g, Share(bytes, g, i), rank / g)
                 + BytesReceived(ALLGATHER, g, bytes, i);
        }
        case RING_ALLREDUCE:
            return 2 * bytes - Share(bytes, n, (rank + n - 1) % n) - Share(bytes, n, rank);
        case ALLGATHER:
            return bytes - Share(bytes, n, rank);
        case REDUCE_SCATTER:
            return bytes - Share(bytes, n, (rank + n - 1) % n);
        case ALLTOALL:
            return static_cast<uint64_t>(n - 1) * Share(bytes, n, rank);
        case SENDRECV:
            return (rank ^ 1u) < n ? bytes : 0;
        case BROADCAST:
            return rank > 0 ? bytes : 0;
    }
    return 0;
}

uint64_t
MrcCollective::MaxTransferBytes(
    Type type, uint32_t nRanks, uint64_t bytes, uint32_t chunks, uint32_t groupSize)
{
    if (nRanks < 2 || chunks == 0)
    {
        return 0;
    }
    if (type == HIERARCHICAL_ALLREDUCE)
    {
        const uint32_t g = std::max(1u, groupSize);
        // Within a group a segment is bytes / g; across groups (g = 1) bytes / groups.
        return Share(Share(bytes, g > 1 ? g : nRanks, 0), chunks, 0);
    }
    if (type == SENDRECV || type == BROADCAST)
    {
        return Share(bytes, chunks, 0);
    }
    return Share(Share(bytes, nRanks, 0), chunks, 0);
}

} // namespace ns3
