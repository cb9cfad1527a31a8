/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Tests of the training workload: collective decomposition, placement, step barriers,
 * concurrent jobs, failures, the JSON workload file and the CSV transfer list.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

using mrctest::MakeNet;
using mrctest::Net;

/**
 * Create a job.
 * @param id job id
 * @param hosts host of every rank
 * @param steps steps
 * @param compute compute time
 * @param jitter compute jitter
 * @return the job (records kept)
 */
Ptr<MrcTrainingJob>
MakeJob(uint32_t id, const std::vector<uint32_t>& hosts, uint32_t steps, Time compute, Time jitter)
{
    Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
    job->SetAttribute("JobId", UintegerValue(id));
    job->SetAttribute("Steps", UintegerValue(steps));
    job->SetAttribute("ComputeTime", TimeValue(compute));
    job->SetAttribute("ComputeJitter", TimeValue(jitter));
    job->SetAttribute("KeepRecords", BooleanValue(true));
    job->SetRanks(hosts);
    return job;
}

/**
 * @param s a string
 * @param part another
 * @return whether s contains part
 */
bool
Has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

/** Every collective type. */
const MrcCollective::Type g_types[] = {MrcCollective::RING_ALLREDUCE,
                                       MrcCollective::ALLGATHER,
                                       MrcCollective::REDUCE_SCATTER,
                                       MrcCollective::ALLTOALL,
                                       MrcCollective::SENDRECV,
                                       MrcCollective::BROADCAST};

} // namespace

/**
 * @ingroup mrc-tests
 * @brief Every rank sends and receives exactly what the algorithm's formulas say, for several
 * N, uneven sizes, chunk and queue pair counts; the DAGs are well formed.
 */
class MrcCollectiveBytesTestCase : public TestCase
{
public:
    MrcCollectiveBytesTestCase()
        : TestCase("decomposition: per-rank bytes sent and received match the formulas exactly")
    {
    }

private:
    void DoRun() override
    {
        // Hand-computed: ring all-reduce of 10 bytes over 3 ranks, segments 4, 3, 3.
        const uint64_t sent[] = {13, 14, 13};
        const uint64_t recv[] = {13, 13, 14};
        for (uint32_t r = 0; r < 3; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(MrcCollective::BytesSent(MrcCollective::RING_ALLREDUCE, 3, 10, r),
                                  sent[r],
                                  "hand-computed send, rank " << r);
            NS_TEST_ASSERT_MSG_EQ(
                MrcCollective::BytesReceived(MrcCollective::RING_ALLREDUCE, 3, 10, r),
                recv[r],
                "hand-computed receive, rank " << r);
        }
        NS_TEST_ASSERT_MSG_EQ(MrcCollective::Share(10, 3, 0), 4u, "remainder goes first");
        NS_TEST_ASSERT_MSG_EQ(MrcCollective::Share(10, 3, 2), 3u, "then the quotient");

        for (uint32_t n : {2U, 3U, 5U, 8U})
        {
            for (uint64_t bytes : {1ULL, 7ULL, 1000ULL, 12345ULL, 1048579ULL})
            {
                for (uint32_t chunks : {1U, 3U})
                {
                    for (uint32_t qps : {1U, 2U})
                    {
                        for (auto type : g_types)
                        {
                            Check(type, n, bytes, chunks, qps);
                        }
                    }
                }
            }
        }
        // Hierarchical all-reduce: groups of G (G = 1 and G = N leave one kind of stage).
        for (const auto& ng : std::vector<std::pair<uint32_t, uint32_t>>{
                 {4, 2}, {6, 3}, {8, 4}, {6, 1}, {6, 6}, {12, 4}})
        {
            for (uint64_t bytes : {1ULL, 1000ULL, 1048579ULL})
            {
                for (uint32_t chunks : {1U, 3U})
                {
                    Check(MrcCollective::HIERARCHICAL_ALLREDUCE,
                          ng.first,
                          bytes,
                          chunks,
                          2,
                          ng.second);
                }
            }
        }
    }

    /**
     * Check one decomposition.
     * @param type algorithm
     * @param n ranks
     * @param bytes size
     * @param chunks chunks
     * @param qps queue pairs per peer
     * @param group hierarchical-allreduce: ranks per group
     */
    void Check(MrcCollective::Type type,
               uint32_t n,
               uint64_t bytes,
               uint32_t chunks,
               uint32_t qps,
               uint32_t group = 0)
    {
        const auto dag = MrcCollective::Build(type, n, bytes, chunks, qps, group);
        std::vector<uint64_t> sent(n, 0);
        std::vector<uint64_t> recv(n, 0);
        uint32_t maxRound = 0;
        const std::string what = std::string(MrcCollective::TypeName(type))
                               + " N=" + std::to_string(n) + " G=" + std::to_string(group)
                               + " bytes=" + std::to_string(bytes) + " C=" + std::to_string(chunks)
                               + " Q=" + std::to_string(qps);
        for (std::size_t i = 0; i < dag.size(); ++i)
        {
            const MrcTransfer& t = dag[i];
            NS_TEST_ASSERT_MSG_EQ(t.id, i, what << ": ids are dense");
            NS_TEST_ASSERT_MSG_GT(t.bytes, 0u, what << ": no empty transfer");
            NS_TEST_ASSERT_MSG_LT(t.srcRank, n, what);
            NS_TEST_ASSERT_MSG_LT(t.dstRank, n, what);
            NS_TEST_ASSERT_MSG_NE(t.srcRank, t.dstRank, what);
            NS_TEST_ASSERT_MSG_LT(t.chunk, chunks, what);
            NS_TEST_ASSERT_MSG_EQ(t.qp, t.chunk % qps, what << ": chunks round-robin over QPs");
            for (uint32_t d : t.deps)
            {
                NS_TEST_ASSERT_MSG_LT(d, t.id, what << ": dependencies come first");
                NS_TEST_ASSERT_MSG_EQ(dag[d].dstRank, t.srcRank, what << ": a local receive");
            }
            sent[t.srcRank] += t.bytes;
            recv[t.dstRank] += t.bytes;
            maxRound = std::max(maxRound, t.round);
        }
        uint64_t total = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(sent[r],
                                  MrcCollective::BytesSent(type, n, bytes, r, group),
                                  what << ": bytes sent by rank " << r);
            NS_TEST_ASSERT_MSG_EQ(recv[r],
                                  MrcCollective::BytesReceived(type, n, bytes, r, group),
                                  what << ": bytes received by rank " << r);
            total += sent[r];
        }
        uint64_t expected = 0;
        switch (type)
        {
            case MrcCollective::RING_ALLREDUCE:
                expected = 2 * (n - 1) * bytes;
                break;
            case MrcCollective::ALLGATHER:
            case MrcCollective::REDUCE_SCATTER:
            case MrcCollective::ALLTOALL:
                expected = (n - 1) * bytes;
                break;
            case MrcCollective::SENDRECV:
                expected = 2 * (n / 2) * bytes;
                break;
            case MrcCollective::BROADCAST:
                expected = (n - 1) * bytes;
                break;
            case MrcCollective::HIERARCHICAL_ALLREDUCE:
                // Reduce-scatter and all-gather in every group, all-reduce of each segment.
                expected = 2 * (n / group) * (group - 1) * bytes + 2 * (n / group - 1) * bytes;
                break;
        }
        NS_TEST_ASSERT_MSG_EQ(total, expected, what << ": total bytes exact");
        if (bytes >= static_cast<uint64_t>(n) * chunks)
        {
            NS_TEST_ASSERT_MSG_EQ(
                maxRound + 1, MrcCollective::Rounds(type, n, group), what << ": rounds");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief Algorithm and bus bandwidth as NCCL-tests reports them, against hand-computed values.
 */
class MrcBusBandwidthTestCase : public TestCase
{
public:
    MrcBusBandwidthTestCase()
        : TestCase("NCCL-tests' algbw and busbw: factors per collective, hand-computed values")
    {
    }

private:
    void DoRun() override
    {
        double busbw = 0;
        // 1 GiB all-reduce over 64 ranks in 50 ms: 171.8 Gb/s algorithm, x 126/64 on the bus.
        const double algbw = MrcCollective::AlgorithmBandwidth(
            MrcCollective::RING_ALLREDUCE, 64, uint64_t(1) << 30, 0.05, busbw);
        NS_TEST_ASSERT_MSG_EQ_TOL(algbw, 171.79869184e9, 1e3, "bytes x 8 / seconds");
        NS_TEST_ASSERT_MSG_EQ_TOL(busbw, 171.79869184e9 * 126 / 64, 1e3, "x 2 (N - 1) / N");
        // 8 ranks: all-gather, reduce-scatter, all-to-all 7/8; send/recv, broadcast 1.
        const std::pair<MrcCollective::Type, double> f[]
            = {{MrcCollective::ALLGATHER, 7.0 / 8},
               {MrcCollective::REDUCE_SCATTER, 7.0 / 8},
               {MrcCollective::ALLTOALL, 7.0 / 8},
               {MrcCollective::SENDRECV, 1},
               {MrcCollective::BROADCAST, 1},
               {MrcCollective::HIERARCHICAL_ALLREDUCE, 14.0 / 8},
               {MrcCollective::RING_ALLREDUCE, 14.0 / 8}};
        for (const auto& [type, factor] : f)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(MrcCollective::BusBandwidthFactor(type, 8),
                                      factor,
                                      1e-12,
                                      MrcCollective::TypeName(type));
        }
        NS_TEST_ASSERT_MSG_EQ(
            MrcCollective::BusBandwidthFactor(MrcCollective::RING_ALLREDUCE, 1), 0.0, "alone");
        // 64 MB all-to-all over 64 ranks in 1.6 ms: 320 Gb/s x 63/64 = 315 Gb/s.
        MrcCollective::AlgorithmBandwidth(MrcCollective::ALLTOALL, 64, 64000000, 0.0016, busbw);
        NS_TEST_ASSERT_MSG_EQ_TOL(busbw, 315e9, 1, "all-to-all");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Ring all-reduce: 2(N-1) rounds to the ring successor, chunk k of round r depends on
 * exactly chunk k of round r-1 received by the sender; type names.
 */
class MrcRingStructureTestCase : public TestCase
{
public:
    MrcRingStructureTestCase()
        : TestCase("ring all-reduce: 2(N-1) rounds, successor sends, per-chunk pipelining deps")
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = 5;
        const uint32_t c = 3;
        const auto dag = MrcCollective::RingAllReduce(n, 1000003, c, 2);
        NS_TEST_ASSERT_MSG_EQ(dag.size(), 2 * (n - 1) * n * c, "one transfer per round/rank/chunk");
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, const MrcTransfer*> at;
        for (const auto& t : dag)
        {
            NS_TEST_ASSERT_MSG_EQ(t.dstRank, (t.srcRank + 1) % n, "to the ring successor");
            NS_TEST_ASSERT_MSG_EQ(at.count({t.round, t.srcRank, t.chunk}), 0u, "unique");
            at[{t.round, t.srcRank, t.chunk}] = &t;
        }
        std::set<uint32_t> rounds;
        for (const auto& t : dag)
        {
            rounds.insert(t.round);
            if (t.round == 0)
            {
                NS_TEST_ASSERT_MSG_EQ(t.deps.size(), 0u, "round 0 starts at once");
                continue;
            }
            const MrcTransfer* prev = at[{t.round - 1, (t.srcRank + n - 1) % n, t.chunk}];
            NS_TEST_ASSERT_MSG_EQ(t.deps.size(), 1u, "exactly one dependency");
            NS_TEST_ASSERT_MSG_EQ(t.deps[0], prev->id, "chunk k of round r-1, received here");
            // The sender forwards (or reduces into) the segment it just received.
            uint64_t mine = 0;
            uint64_t theirs = 0;
            for (uint32_t k = 0; k < c; ++k)
            {
                mine += at[{t.round, t.srcRank, k}]->bytes;
                theirs += at[{t.round - 1, (t.srcRank + n - 1) % n, k}]->bytes;
            }
            NS_TEST_ASSERT_MSG_EQ(mine, theirs, "same segment size as received");
        }
        NS_TEST_ASSERT_MSG_EQ(rounds.size(), 2 * (n - 1), "2(N-1) rounds");
        NS_TEST_ASSERT_MSG_EQ(
            MrcCollective::Rounds(MrcCollective::RING_ALLREDUCE, n), 2 * (n - 1), "Rounds()");

        // Tiny buffer: 1-byte segments leave chunk 1 empty; those are dropped, deps stay sound.
        const auto tiny = MrcCollective::RingAllReduce(4, 6, 2, 1);
        for (const auto& t : tiny)
        {
            NS_TEST_ASSERT_MSG_GT(t.bytes, 0u, "no empty chunk");
            for (uint32_t d : t.deps)
            {
                NS_TEST_ASSERT_MSG_EQ(tiny[d].chunk, t.chunk, "same chunk");
                NS_TEST_ASSERT_MSG_EQ(tiny[d].round + 1, t.round, "previous round");
                NS_TEST_ASSERT_MSG_EQ(tiny[d].dstRank, t.srcRank, "received by the sender");
            }
        }

        MrcCollective::Type type;
        for (auto t : g_types)
        {
            NS_TEST_ASSERT_MSG_EQ(MrcCollective::ParseType(MrcCollective::TypeName(t), type),
                                  true,
                                  "name round trip");
            NS_TEST_ASSERT_MSG_EQ(type, t, "same type");
        }
        NS_TEST_ASSERT_MSG_EQ(MrcCollective::ParseType("allreduce", type), false, "unknown");
        NS_TEST_ASSERT_MSG_EQ(Has(MrcCollective::AcceptedTypes(), "reduce-scatter"), true, "list");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Placement policies over free hosts.
 */
class MrcPlacementTestCase : public TestCase
{
public:
    MrcPlacementTestCase()
        : TestCase("placement: contiguous, interleaved, random; jobs that do not fit")
    {
    }

private:
    void DoRun() override
    {
        std::string err;
        std::vector<bool> used(8, false);
        used[2] = true;
        auto h = MrcTrainingJob::Place(MrcTrainingJob::CONTIGUOUS, 4, 8, used, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ((h == std::vector<uint32_t>{3, 4, 5, 6}), true, "first free block");

        used.assign(8, false);
        h = MrcTrainingJob::Place(MrcTrainingJob::INTERLEAVED, 4, 8, used, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ((h == std::vector<uint32_t>{0, 2, 4, 6}), true, "every other host");
        h = MrcTrainingJob::Place(MrcTrainingJob::INTERLEAVED, 4, 8, used, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ((h == std::vector<uint32_t>{1, 3, 5, 7}), true, "the others");
        h = MrcTrainingJob::Place(MrcTrainingJob::INTERLEAVED, 1, 8, used, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ(h.empty(), true, "full");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "do not fit"), true, "message: " << err);

        used.assign(8, false);
        used[1] = used[3] = used[5] = used[7] = true;
        h = MrcTrainingJob::Place(MrcTrainingJob::CONTIGUOUS, 2, 8, used, nullptr, err);
        NS_TEST_ASSERT_MSG_EQ(h.empty(), true, "fragmented");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "no block of 2"), true, "message: " << err);

        auto draw = [](int64_t stream)
        {
            Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
            rng->SetStream(stream);
            std::vector<bool> u(16, false);
            u[0] = true;
            std::string e;
            return MrcTrainingJob::Place(MrcTrainingJob::RANDOM, 6, 16, u, rng, e);
        };
        const auto a = draw(5);
        const auto b = draw(5);
        const auto c = draw(6);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same stream, same placement");
        NS_TEST_ASSERT_MSG_EQ((a != c), true, "another stream, another placement");
        NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(a.begin(), a.end()).size(), 6u, "distinct");
        NS_TEST_ASSERT_MSG_EQ(std::set<uint32_t>(a.begin(), a.end()).count(0), 0u, "free only");

        MrcTrainingJob::Placement p;
        NS_TEST_ASSERT_MSG_EQ(MrcTrainingJob::ParsePlacement("interleaved", p), true, "known");
        NS_TEST_ASSERT_MSG_EQ(MrcTrainingJob::AcceptedPlacements(),
                              "contiguous, interleaved, random",
                              "the names messages list");
        NS_TEST_ASSERT_MSG_EQ(p, MrcTrainingJob::INTERLEAVED, "parsed");
        NS_TEST_ASSERT_MSG_EQ(MrcTrainingJob::ParsePlacement("packed", p), false, "unknown");
    }
};

/**
 * @ingroup mrc-tests
 * @brief Synchronous steps: step k+1 starts when the last transfer of step k ended; transfers
 * wait for their dependencies' receive completions; a straggler delays everyone.
 */
class MrcBarrierTestCase : public TestCase
{
public:
    MrcBarrierTestCase()
        : TestCase("step barrier: next step after every transfer ended; a straggler delays all")
    {
    }

private:
    /**
     * Run a 4-rank ring all-reduce job.
     * @param steps steps
     * @param jitter compute jitter
     * @param straggler extra compute time of rank 2
     * @param job set to the finished job
     * @param waitForReceiver the WaitForReceiver attribute
     */
    void Run(uint32_t steps,
             Time jitter,
             Time straggler,
             Ptr<MrcTrainingJob>& job,
             bool waitForReceiver = true)
    {
        Net n = MakeNet(2, 2, 2, 2);
        job = MakeJob(7, {0, 1, 2, 3}, steps, MicroSeconds(20), jitter);
        job->SetAttribute("WaitForReceiver", BooleanValue(waitForReceiver));
        job->AddCollective(MrcCollective::RING_ALLREDUCE, 40000, 2, 2);
        if (straggler.IsStrictlyPositive())
        {
            job->SetRankExtraCompute(2, straggler);
        }
        job->Install(n.fabric);
        job->AssignStreams(100);
        job->Start(MicroSeconds(1));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        const Time compute = MicroSeconds(20);
        const Time jitter = MicroSeconds(10);
        Ptr<MrcTrainingJob> job;
        Run(3, jitter, Seconds(0), job);
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "all steps done");
        NS_TEST_ASSERT_MSG_EQ(job->GetStepsCompleted(), 3u, "3 steps");
        NS_TEST_ASSERT_MSG_EQ(job->GetTransfersPerStep(), 2u * 3 * 4 * 2, "2(N-1) N C");
        NS_TEST_ASSERT_MSG_EQ(job->GetNQueuePairs(), 4u * 2, "one pair per (src, dst, qp)");
        const auto& steps = job->GetStepRecords();
        const auto& recs = job->GetTransferRecords();
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 3u * 48, "every transfer recorded");
        const auto dag = MrcCollective::RingAllReduce(4, 40000, 2, 2);
        std::map<std::pair<uint32_t, uint32_t>, const MrcTransferRecord*> byId;
        for (const auto& r : recs)
        {
            byId[{r.step, r.transfer}] = &r;
        }
        std::set<int64_t> computeSpans;
        for (uint32_t k = 0; k < 3; ++k)
        {
            const MrcStepRecord& s = steps[k];
            NS_TEST_ASSERT_MSG_EQ(s.step, k, "in order");
            NS_TEST_ASSERT_MSG_EQ(s.job, 7u, "job id");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(s.computeEnd - s.start, compute, "compute");
            NS_TEST_ASSERT_MSG_LT(s.computeEnd - s.start, compute + jitter, "jitter < bound");
            computeSpans.insert((s.computeEnd - s.start).GetTimeStep());
            if (k > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(s.start, steps[k - 1].end, "next step at the barrier");
            }
            Time last = Seconds(0);
            uint32_t lastSrc = 0;
            for (const auto& r : recs)
            {
                if (r.step != k)
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_GT_OR_EQ(r.start, s.start + compute, "after both computes");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(r.end, s.end, "inside the step");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(r.received, r.end, "received before acknowledged");
                NS_TEST_ASSERT_MSG_EQ(r.status, MrcQueuePair::SUCCESS, "ok");
                if (k > 0)
                {
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(
                        r.start, steps[k - 1].end, "not before every transfer of step k-1 ended");
                }
                for (uint32_t d : dag[r.transfer].deps)
                {
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(r.start,
                                                byId.at(std::make_pair(k, d))->received,
                                                "posted after its dependency was received");
                }
                if (r.end >= last)
                {
                    last = r.end;
                    lastSrc = r.srcRank;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(last, s.end, "the step ends with its last transfer");
            NS_TEST_ASSERT_MSG_EQ(s.slowestRank, lastSrc, "the slowest rank sent it");
            NS_TEST_ASSERT_MSG_EQ(s.transfers, 48u, "transfers in the step");
        }
        NS_TEST_ASSERT_MSG_GT(computeSpans.size(), 1u, "jitter differs between steps");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(
                job->GetBytesSent(r),
                3 * MrcCollective::BytesSent(MrcCollective::RING_ALLREDUCE, 4, 40000, r),
                "bytes sent");
            NS_TEST_ASSERT_MSG_EQ(
                job->GetBytesReceived(r),
                3 * MrcCollective::BytesReceived(MrcCollective::RING_ALLREDUCE, 4, 40000, r),
                "bytes received");
        }
        // Same stream, same run.
        Ptr<MrcTrainingJob> again;
        Run(3, jitter, Seconds(0), again);
        NS_TEST_ASSERT_MSG_EQ(again->GetStepRecords()[2].end, steps[2].end, "deterministic");

        // A straggler: rank 2 computes 200 us longer.
        Ptr<MrcTrainingJob> base;
        Ptr<MrcTrainingJob> slow;
        const Time extra = MicroSeconds(200);
        Run(2, Seconds(0), Seconds(0), base);
        Run(2, Seconds(0), extra, slow);
        const MrcStepRecord& b0 = base->GetStepRecords()[0];
        const MrcStepRecord& s0 = slow->GetStepRecords()[0];
        const MrcStepRecord& s1 = slow->GetStepRecords()[1];
        const Time comm = b0.end - b0.computeEnd;
        NS_TEST_ASSERT_MSG_EQ(s0.computeEnd - s0.start, compute + extra, "slowest compute");
        NS_TEST_ASSERT_MSG_GT(s0.end, s0.computeEnd, "the step ends after the straggler");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(s0.end - s0.computeEnd,
                                    comm * 1.1,
                                    "communication after the straggler: no longer than usual");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(
            s0.end - s0.computeEnd, comm / 2, "most of the collective waits for the straggler");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(
            s1.start - s0.start, compute + extra, "everyone's next step is delayed");
        NS_TEST_ASSERT_MSG_EQ(s1.start, s0.end, "barrier");
        for (const auto& r : slow->GetTransferRecords())
        {
            if (r.step == 0 && (r.srcRank == 2 || r.dstRank == 2))
            {
                NS_TEST_ASSERT_MSG_GT_OR_EQ(
                    r.start, s0.computeEnd, "transfers to or from the straggler wait for it");
            }
        }

        // Without the receiver rendezvous, rank 1 writes into the straggler while it computes;
        // the straggler's receive role ends before it enters the collective.
        Ptr<MrcTrainingJob> eager;
        Run(2, Seconds(0), extra, eager, false);
        NS_TEST_ASSERT_MSG_EQ(eager->IsComplete(), true, "complete");
        const MrcStepRecord& e0 = eager->GetStepRecords()[0];
        uint32_t early = 0;
        for (const auto& r : eager->GetTransferRecords())
        {
            if (r.step == 0 && r.dstRank == 2 && r.start < e0.computeEnd)
            {
                ++early;
            }
            const bool sentWhileComputing
                = r.srcRank == 2 && r.start < e0.computeEnd && r.step == 0;
            NS_TEST_ASSERT_MSG_EQ(sentWhileComputing, false, "a rank sends only after its compute");
        }
        NS_TEST_ASSERT_MSG_GT(early, 0u, "rank 1 wrote to the computing straggler");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(
                eager->GetBytesReceived(r),
                2 * MrcCollective::BytesReceived(MrcCollective::RING_ALLREDUCE, 4, 40000, r),
                "bytes received");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief Two jobs on disjoint hosts at once: both finish every step with exact byte counts;
 * a rank runs its collectives in order.
 */
class MrcTwoJobsTestCase : public TestCase
{
public:
    MrcTwoJobsTestCase()
        : TestCase("two concurrent jobs on disjoint hosts: all steps, exact bytes, stream order")
    {
    }

private:
    void DoRun() override
    {
        Net n = MakeNet(2, 4, 2, 2);
        std::vector<bool> used;
        std::string err;
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(3);
        const auto hostsA = MrcTrainingJob::Place(MrcTrainingJob::CONTIGUOUS, 4, 8, used, rng, err);
        const auto hostsB = MrcTrainingJob::Place(MrcTrainingJob::RANDOM, 3, 8, used, rng, err);
        NS_TEST_ASSERT_MSG_EQ(hostsB.size(), 3u, "placed: " << err);
        std::set<uint32_t> all(hostsA.begin(), hostsA.end());
        all.insert(hostsB.begin(), hostsB.end());
        NS_TEST_ASSERT_MSG_EQ(all.size(), 7u, "disjoint");

        Ptr<MrcTrainingJob> a = MakeJob(1, hostsA, 2, MicroSeconds(5), MicroSeconds(2));
        a->AddCollective(MrcCollective::RING_ALLREDUCE, 100003, 3, 2);
        Ptr<MrcTrainingJob> b = MakeJob(2, hostsB, 3, MicroSeconds(3), Seconds(0));
        b->AddCollective(MrcCollective::ALLTOALL, 50001, 2, 1);
        b->AddCollective(MrcCollective::ALLGATHER, 30001, 1, 1);
        a->Install(n.fabric);
        b->Install(n.fabric);
        a->AssignStreams(10);
        b->AssignStreams(11);
        uint32_t jobsDone = 0;
        for (auto& j : {a, b})
        {
            j->TraceConnectWithoutContext(
                "JobComplete",
                MakeCallback(+[](uint32_t* d, uint32_t, uint32_t, uint64_t)
                             {
                                 ++*d;
                             })
                    .Bind(&jobsDone));
            j->Start(Seconds(0));
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(jobsDone, 2u, "both jobs completed");
        NS_TEST_ASSERT_MSG_EQ(a->GetStepsCompleted(), 2u, "job A steps");
        NS_TEST_ASSERT_MSG_EQ(b->GetStepsCompleted(), 3u, "job B steps");
        NS_TEST_ASSERT_MSG_EQ(a->GetFailedTransfers() + b->GetFailedTransfers(), 0u, "no failure");
        for (uint32_t r = 0; r < 4; ++r)
        {
            const auto t = MrcCollective::RING_ALLREDUCE;
            NS_TEST_ASSERT_MSG_EQ(a->GetBytesSent(r),
                                  2 * MrcCollective::BytesSent(t, 4, 100003, r),
                                  "A sent, rank " << r);
            NS_TEST_ASSERT_MSG_EQ(a->GetBytesReceived(r),
                                  2 * MrcCollective::BytesReceived(t, 4, 100003, r),
                                  "A received, rank " << r);
        }
        for (uint32_t r = 0; r < 3; ++r)
        {
            const uint64_t s = MrcCollective::BytesSent(MrcCollective::ALLTOALL, 3, 50001, r)
                             + MrcCollective::BytesSent(MrcCollective::ALLGATHER, 3, 30001, r);
            const uint64_t v = MrcCollective::BytesReceived(MrcCollective::ALLTOALL, 3, 50001, r)
                             + MrcCollective::BytesReceived(MrcCollective::ALLGATHER, 3, 30001, r);
            NS_TEST_ASSERT_MSG_EQ(b->GetBytesSent(r), 3 * s, "B sent, rank " << r);
            NS_TEST_ASSERT_MSG_EQ(b->GetBytesReceived(r), 3 * v, "B received, rank " << r);
        }
        // Job B: a rank starts its all-gather only once its own all-to-all part is over.
        for (uint32_t k = 0; k < 3; ++k)
        {
            for (uint32_t r = 0; r < 3; ++r)
            {
                Time firstGather = Seconds(1);
                Time a2aDone = Seconds(0);
                for (const auto& rec : b->GetTransferRecords())
                {
                    if (rec.step != k)
                    {
                        continue;
                    }
                    NS_TEST_ASSERT_MSG_EQ(rec.srcHost, hostsB[rec.srcRank], "host of the rank");
                    if (rec.collective == 1 && rec.srcRank == r)
                    {
                        firstGather = std::min(firstGather, rec.start);
                        NS_TEST_ASSERT_MSG_EQ(std::string(rec.collectiveType), "allgather", "name");
                    }
                    if (rec.collective == 0 && rec.srcRank == r)
                    {
                        a2aDone = std::max(a2aDone, rec.end);
                    }
                    if (rec.collective == 0 && rec.dstRank == r)
                    {
                        a2aDone = std::max(a2aDone, rec.received);
                    }
                }
                NS_TEST_ASSERT_MSG_GT_OR_EQ(firstGather, a2aDone, "collectives in stream order");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Failed transfers (retry exhaustion) fail the job (AbortOnFailure, the default), or are
 * recorded and counted while the steps go on; nothing hangs.
 */
class MrcFailedTransferTestCase : public TestCase
{
public:
    MrcFailedTransferTestCase()
        : TestCase("failed transfers: the job fails, or (AbortOnFailure=false) steps still end")
    {
    }

private:
    void DoRun() override
    {
        Aborting();
        Elastic();
    }

    /**
     * Single-path QPs with a small retry budget, both uplinks of T0 0 dead from 1 us, and a
     * two-rank job of 3 steps of send/recv (2 chunks) on top.
     * @param n set to the network
     * @param abort the job's AbortOnFailure
     * @return the installed job, not started
     */
    static Ptr<MrcTrainingJob> DeadFabricJob(Net& n, bool abort)
    {
        n = MakeNet(1,
                    1,
                    2,
                    2,
                    "ns3::MrcSinglePath",
                    32,
                    1,
                    {{"RetryLimit", 3}, {"AckTimeoutExponent", 4}});
        for (uint32_t j = 0; j < 2; ++j)
        {
            Simulator::Schedule(
                MicroSeconds(1), &MrcChannel::SetUp, n.fabric->GetUplink(0, 0, j), false);
        }
        Ptr<MrcTrainingJob> job = MakeJob(3, {0, 1}, 3, MicroSeconds(2), Seconds(0));
        job->SetAttribute("AbortOnFailure", BooleanValue(abort));
        job->AddCollective(MrcCollective::SENDRECV, 20000, 2, 1);
        job->Install(n.fabric);
        return job;
    }

    /** The default: the first failed transfer fails the job. */
    void Aborting()
    {
        Net n;
        Ptr<MrcTrainingJob> job = DeadFabricJob(n, true);
        uint32_t failed = 0;
        uint32_t completed = 0;
        job->TraceConnectWithoutContext("JobFailed",
                                        MakeBoundCallback(
                                            +[](uint32_t* k, uint32_t, uint32_t, uint64_t)
                                            {
                                                ++*k;
                                            },
                                            &failed));
        job->TraceConnectWithoutContext("JobComplete",
                                        MakeBoundCallback(
                                            +[](uint32_t* k, uint32_t, uint32_t, uint64_t)
                                            {
                                                ++*k;
                                            },
                                            &completed));
        job->Start(Seconds(0));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFailed(), true, "the job failed");
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), false, "and did not complete its steps");
        NS_TEST_ASSERT_MSG_EQ(job->GetStepsCompleted(), 0u, "no step ended");
        NS_TEST_ASSERT_MSG_EQ(failed, 1u, "JobFailed fired once");
        NS_TEST_ASSERT_MSG_EQ(completed, 1u, "JobComplete fired once, for the end");
        NS_TEST_ASSERT_MSG_EQ(job->GetFailedTransfers(), 1u, "the first failure ended it");
        NS_TEST_ASSERT_MSG_GT(job->GetFailureTime(), Time(0), "failure time recorded");
        Simulator::Destroy();
    }

    /** AbortOnFailure=false: failures are counted and the steps go on. */
    void Elastic()
    {
        Net n;
        Ptr<MrcTrainingJob> job = DeadFabricJob(n, false);
        job->Start(Seconds(0));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "no hang");
        NS_TEST_ASSERT_MSG_EQ(job->GetFailedTransfers(), 12u, "2 ranks x 2 chunks x 3 steps");
        NS_TEST_ASSERT_MSG_EQ(job->GetTransfersCompleted(), 12u, "all accounted for");
        for (const auto& r : job->GetTransferRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(r.status, MrcQueuePair::RETRY_EXCEEDED, "status recorded");
        }
        for (const auto& s : job->GetStepRecords())
        {
            NS_TEST_ASSERT_MSG_EQ(s.failures, 4u, "per step");
            NS_TEST_ASSERT_MSG_LT(s.end, MilliSeconds(1), "the QPs gave up quickly");
        }
        NS_TEST_ASSERT_MSG_EQ(job->GetBytesSent(0), 0u, "nothing delivered");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief The JSON workload file: a valid file and one-line errors naming line and field.
 */
class MrcJsonWorkloadTestCase : public TestCase
{
public:
    MrcJsonWorkloadTestCase()
        : TestCase("JSON workload: parse, and errors naming the line, the path and the values")
    {
    }

private:
    /**
     * Parse a text that must fail.
     * @param text the JSON
     * @return the message
     */
    std::string Fail(const std::string& text)
    {
        std::vector<MrcJobSpec> specs;
        std::string err;
        const bool ok = MrcWorkloadFile::Parse(text, "w.json", specs, err);
        NS_TEST_EXPECT_MSG_EQ(ok, false, "must fail: " << text);
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line: " << err);
        return err;
    }

    void DoRun() override
    {
        const std::string good = R"({
  "jobs": [
    {"name": "llm", "ranks": 6, "placement": "interleaved", "steps": 10,
     "compute_us": 200, "jitter_us": 10.5,
     "collectives": [{"type": "ring-allreduce", "bytes": 67108864, "chunks": 4,
                      "qps_per_peer": 2},
                     {"type": "sendrecv", "bytes": 100, "pairs": [[0, 5], [1, 2]]}]},
    // a second job
    {"ranks": 2, "collectives": [{"type": "alltoall", "bytes": 1000}]}
  ]
})";
        std::vector<MrcJobSpec> specs;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(MrcWorkloadFile::Parse(good, "w.json", specs, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(specs.size(), 2u, "two jobs");
        const MrcJobSpec& s = specs[0];
        NS_TEST_ASSERT_MSG_EQ(s.name, "llm", "name");
        NS_TEST_ASSERT_MSG_EQ(s.ranks, 6u, "ranks");
        NS_TEST_ASSERT_MSG_EQ(s.placement, MrcTrainingJob::INTERLEAVED, "placement");
        NS_TEST_ASSERT_MSG_EQ(s.steps, 10u, "steps");
        NS_TEST_ASSERT_MSG_EQ(s.compute, MicroSeconds(200), "compute");
        NS_TEST_ASSERT_MSG_EQ(s.jitter, NanoSeconds(10500), "jitter");
        NS_TEST_ASSERT_MSG_EQ(s.collectives.size(), 2u, "collectives");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[0].type, MrcCollective::RING_ALLREDUCE, "type");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[0].bytes, 67108864u, "bytes");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[0].chunks, 4u, "chunks");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[0].qpsPerPeer, 2u, "qps");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[1].pairs.size(), 2u, "pairs");
        NS_TEST_ASSERT_MSG_EQ(s.collectives[1].pairs[0].second, 5u, "pair");
        NS_TEST_ASSERT_MSG_EQ(s.ranksLine, 3u, "line of ranks");
        NS_TEST_ASSERT_MSG_EQ(specs[1].name, "job1", "default name");
        NS_TEST_ASSERT_MSG_EQ(specs[1].steps, 1u, "default steps");
        NS_TEST_ASSERT_MSG_EQ(specs[1].placement, MrcTrainingJob::CONTIGUOUS, "default");

        // Syntax error: the line of the offending byte.
        err = Fail("{\n  \"jobs\": [\n    {\"ranks\": 4,, \"steps\": 1}\n  ]\n}");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "w.json:3: JSON syntax error"), true, err);
        err = Fail("");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "w.json:1: JSON"), true, err);

        // Semantic errors: line of the key, JSON path, accepted values.
        err = Fail(R"({"jobs": [
  {"ranks": 4,
   "collectives": [
     {"type": "alltoall", "bytes": 10},
     {"type": "allgather",
      "bytes": -5}]}]})");
        NS_TEST_ASSERT_MSG_EQ(err,
                              "w.json:6: jobs[0].collectives[1].bytes: must be a whole number "
                              "from 1 to 4611686018427387904 (got -5)",
                              "file:line: path: message");
        err = Fail(R"({"jobs": [{"ranks": 4, "collectives": [{"type": "ring", "bytes": 0}]}]})");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "w.json:1: jobs[0].collectives[0].type: unknown type"), true, err);
        NS_TEST_ASSERT_MSG_EQ(Has(err, MrcCollective::AcceptedTypes()), true, err);
        err = Fail(
            R"({"jobs": [{"ranks": 4, "collectives": [{"type": "alltoall", "bytes": 0}]}]})");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "jobs[0].collectives[0].bytes: must be a whole number from 1 to"), true, err);
        err = Fail(R"({"jobs": [
 {"ranks": 2, "collectives": [{"type": "alltoall", "bytes": 8}]},
 {"ranks": 2, "placement": "packed",
  "collectives": [{"type": "alltoall", "bytes": 8}]}]})");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "w.json:3: jobs[1].placement: unknown placement \"packed\""), true, err);
        NS_TEST_ASSERT_MSG_EQ(Has(err, "contiguous, interleaved, random"), true, err);
        err = Fail(R"({"jobs": [{"ranks": 2, "collectives": [
  {"type": "alltoall", "bytes": 8, "chunks": 0}]}]})");
        NS_TEST_ASSERT_MSG_EQ(Has(err,
                                  "w.json:2: jobs[0].collectives[0].chunks: must be a "
                                  "whole number from 1 to 4096 (got 0)"),
                              true,
                              err);
        err = Fail(R"({"jobs": [
  {"steps": 2, "collectives": [{"type": "alltoall", "bytes": 8}]}]})");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "w.json:2: jobs[0]: missing \"ranks\""), true, err);
        err = Fail(R"({"jobs": [{"ranks": 2,
  "compute_ms": 2, "collectives": [{"type": "alltoall", "bytes": 8}]}]})");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "w.json:2: jobs[0].compute_ms: unknown key (accepted: name"), true, err);
        err = Fail(R"({"jobs": [{"ranks": 2, "compute_us": -1,
  "collectives": [{"type": "alltoall", "bytes": 8}]}]})");
        NS_TEST_ASSERT_MSG_EQ(Has(err,
                                  "jobs[0].compute_us: must be a number from 0 to 1000000000000 "
                                  "(microseconds; got -1)"),
                              true,
                              err);
        err = Fail(R"({"jobs": [{"ranks": 2,
  "collectives": [{"type": "ring-allreduce", "bytes": 1099511627776}]}]})");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "4 GiB message limit: use at least 129 chunks"), true, err);
        err = Fail(R"({"jobs": [{"ranks": 2, "collectives": [
  {"type": "sendrecv", "bytes": 8, "pairs": [[0, 1], [1, 2]]}]}]})");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "jobs[0].collectives[0].pairs[1]: must be [a, b]"), true, err);
        err = Fail(R"({"jobs": []})");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "jobs: \"jobs\" must be a non-empty array"), true, err);
        err = Fail(R"([1, 2])");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "must be a JSON object"), true, err);
        err = Fail(R"({"jobs": [{"ranks": 2}]})");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "exactly one of \"collectives\""), true, err);

        // Ranks larger than the free hosts: found at placement time, with the job's line.
        const std::string big = R"({"jobs": [
  {"ranks": 5, "collectives": [{"type": "alltoall", "bytes": 8}]},
  {"ranks": 4,
   "collectives": [{"type": "alltoall", "bytes": 8}]}]})";
        NS_TEST_ASSERT_MSG_EQ(MrcWorkloadFile::Parse(big, "w.json", specs, err), true, err);
        Net n = MakeNet(1, 4, 2, 1);
        MrcWorkloadFile wf;
        std::vector<Ptr<MrcTrainingJob>> jobs;
        NS_TEST_ASSERT_MSG_EQ(wf.CreateJobs(specs, n.stack, 8, jobs, err), false, "too big");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "w.json:3: jobs[1].ranks: 4 ranks do not fit: 3 of 8 hosts"), true, err);
        NS_TEST_ASSERT_MSG_EQ(jobs.empty(), true, "nothing created");
        Simulator::Destroy();

        std::string missing;
        NS_TEST_ASSERT_MSG_EQ(
            MrcWorkloadFile::LoadFile("/nonexistent/w.json", specs, missing), false, "no file");
        NS_TEST_ASSERT_MSG_EQ(Has(missing, "/nonexistent/w.json: cannot read"), true, missing);
    }
};

/**
 * @ingroup mrc-tests
 * @brief The CSV transfer list: parsing, errors, and replay through a JSON workload file.
 */
class MrcTransferListTestCase : public TestCase
{
public:
    MrcTransferListTestCase()
        : TestCase("CSV transfer list: parse, errors, replay with dependencies")
    {
    }

private:
    /**
     * Parse a list that must fail.
     * @param text the CSV
     * @return the message
     */
    std::string Fail(const std::string& text)
    {
        MrcTransferList list;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(MrcWorkloadFile::ParseTransferList(text, "t.csv", list, err),
                              false,
                              "must fail: " << text);
        return err;
    }

    void DoRun() override
    {
        const std::string csv = "step,src,dst,bytes,deps\n"
                                "0,0,1,30000,\n"
                                "0,1,2,20000,0\n"
                                "0,2,0,10000,1\n"
                                "# step 1\n"
                                "1,2,1,5000,\r\n"
                                "1,1,0,6000,3;2\n";
        MrcTransferList list;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(
            MrcWorkloadFile::ParseTransferList(csv, "t.csv", list, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(list.nRanks, 3u, "ranks");
        NS_TEST_ASSERT_MSG_EQ(list.steps.size(), 2u, "steps");
        NS_TEST_ASSERT_MSG_EQ(list.steps[0].size(), 3u, "step 0");
        NS_TEST_ASSERT_MSG_EQ(list.steps[1].size(), 2u, "step 1");
        NS_TEST_ASSERT_MSG_EQ(list.steps[0][2].deps.size(), 1u, "dep");
        NS_TEST_ASSERT_MSG_EQ(list.steps[0][2].deps[0], 1u, "row 1");
        NS_TEST_ASSERT_MSG_EQ(list.steps[1][1].id, 4u, "row ids count data lines");
        NS_TEST_ASSERT_MSG_EQ((list.steps[1][1].deps == std::vector<uint32_t>{3}),
                              true,
                              "an earlier step's dependency is met by the barrier");

        // The deps column may be left out entirely, header included.
        MrcTransferList shortList;
        NS_TEST_ASSERT_MSG_EQ(
            MrcWorkloadFile::ParseTransferList(
                "step,src,dst,bytes\n0,0,1,100\n0,1,0,200\n", "t.csv", shortList, err),
            true,
            err);
        NS_TEST_ASSERT_MSG_EQ(shortList.steps.at(0).size(), 2u, "four-column list");
        err = Fail("step,src,dst,bytes\n0,0,1,100,0\n");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "t.csv:2: row: expected 4 fields (step,src,dst,bytes), got 5"), true, err);
        err = Fail("step,src,dst,size,deps\n0,0,1,1,\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err,
                                  "t.csv:1: header: expected 'step,src,dst,bytes,deps' or "
                                  "'step,src,dst,bytes' (got 'step,src,dst,size,deps')"),
                              true,
                              err);
        err = Fail("step,src,dst,bytes,deps\n0,0,1,10,\n0,1,0,10,5\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:3: deps: '5' is not an earlier row id"), true, err);
        err = Fail("step,src,dst,bytes,deps\n0,0,1,0,\n");
        NS_TEST_ASSERT_MSG_EQ(
            err,
            "t.csv:2: bytes: must be a whole number from 1 to 4294967295 (got '0')",
            "the one error format");
        err = Fail("step,src,dst,bytes,deps\n0,1,1,10,\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:2: dst: must be another rank than src"), true, err);
        err = Fail("step,src,dst,bytes,deps\n0,1,x,10,\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:2: dst: must be a whole number"), true, err);
        err = Fail("step,src,dst,bytes,deps\n0,0,1\n");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "t.csv:2: row: expected 4 to 5 fields (step,src,dst,bytes,deps), got 3"),
            true,
            err);
        err = Fail("step,src,dst,bytes,deps\n1,0,1,10,\n0,1,0,10,0\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:3: deps: row 0 is in step 1"), true, err);
        err = Fail("step,src,dst,bytes,deps\n-1,0,1,10,\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:2: step:"), true, err);
        err = Fail("step,src,dst,bytes,deps\n");
        NS_TEST_ASSERT_MSG_EQ(err, "t.csv:2: no transfers after the header", "no rows");
        err = Fail("# only a comment\n\n");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.csv:1: header: missing (expected"), true, err);
        // '#' starts a comment anywhere on a line; the row keeps its id.
        MrcTransferList commented;
        NS_TEST_ASSERT_MSG_EQ(
            MrcWorkloadFile::ParseTransferList("step,src,dst,bytes,deps # the header\n"
                                               "0,0,1,100,   # row 0\n"
                                               "  # a comment line: no row id\n"
                                               "0,1,0,200,0#row 1\n",
                                               "t.csv",
                                               commented,
                                               err),
            true,
            err);
        NS_TEST_ASSERT_MSG_EQ(commented.steps.at(0).size(), 2u, "two rows");
        NS_TEST_ASSERT_MSG_EQ(commented.steps[0][1].id, 1u, "comment lines get no row id");
        NS_TEST_ASSERT_MSG_EQ(commented.steps[0][1].deps.size(), 1u, "deps before the comment");

        // Replay through a JSON file naming the list (relative to the JSON's directory).
        const std::string dir = CreateTempDirFilename("");
        SystemPath::MakeDirectories(dir);
        {
            std::ofstream(dir + "/list.csv") << csv;
            std::ofstream(dir + "/w.json")
                << R"({"jobs": [{"name": "trace", "steps": 4, "compute_us": 3,
                                 "transfers": "list.csv"}]})";
        }
        std::vector<MrcJobSpec> specs;
        NS_TEST_ASSERT_MSG_EQ(MrcWorkloadFile::LoadFile(dir + "/w.json", specs, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(specs[0].ranks, 3u, "ranks from the list");
        Net n = MakeNet(1, 2, 2, 2);
        MrcWorkloadFile wf;
        wf.AssignStreams(5);
        std::vector<Ptr<MrcTrainingJob>> jobs;
        NS_TEST_ASSERT_MSG_EQ(wf.CreateJobs(specs, n.stack, 4, jobs, err, 40), true, err);
        Ptr<MrcTrainingJob> job = jobs[0];
        job->SetAttribute("KeepRecords", BooleanValue(true));
        job->AssignStreams(6);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->GetJobId(), 40u, "job id");
        NS_TEST_ASSERT_MSG_EQ(job->GetStepsCompleted(), 4u, "steps 0,1,0,1 of the list");
        const auto& recs = job->GetTransferRecords();
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 10u, "3 + 2 + 3 + 2 transfers");
        std::map<std::pair<uint32_t, uint32_t>, const MrcTransferRecord*> byId;
        for (const auto& r : recs)
        {
            byId[{r.step, r.transfer}] = &r;
            NS_TEST_ASSERT_MSG_EQ(std::string(r.collectiveType), "replay", "type name");
            NS_TEST_ASSERT_MSG_EQ(r.dstHost, job->GetRanks()[r.dstRank], "host");
        }
        for (uint32_t k : {0U, 2U})
        {
            NS_TEST_ASSERT_MSG_EQ(byId.at(std::make_pair(k, 1))->bytes, 20000u, "row 1");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(byId.at(std::make_pair(k, 1))->start,
                                        byId.at(std::make_pair(k, 0))->received,
                                        "1 after 0");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(byId.at(std::make_pair(k, 2))->start,
                                        byId.at(std::make_pair(k, 1))->received,
                                        "2 after 1");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(byId.at(std::make_pair(k + 1, 4))->start,
                                        byId.at(std::make_pair(k + 1, 3))->received,
                                        "4 after 3");
        }
        NS_TEST_ASSERT_MSG_EQ(job->GetBytesSent(0), 2u * 30000, "rank 0 sent");
        NS_TEST_ASSERT_MSG_EQ(job->GetBytesReceived(0), 2u * (10000 + 6000), "rank 0 received");
        NS_TEST_ASSERT_MSG_EQ(job->GetBytesSent(1), 2u * (20000 + 6000), "rank 1 sent");
        Simulator::Destroy();
    }
};

/**
 * @ingroup mrc-tests
 * @brief Workload test suite.
 */
class MrcWorkloadTestSuite : public TestSuite
{
public:
    MrcWorkloadTestSuite()
        : TestSuite("mrc-workload", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcCollectiveBytesTestCase);
        AddTestCase(new MrcBusBandwidthTestCase);
        AddTestCase(new MrcRingStructureTestCase);
        AddTestCase(new MrcPlacementTestCase);
        AddTestCase(new MrcBarrierTestCase);
        AddTestCase(new MrcTwoJobsTestCase);
        AddTestCase(new MrcFailedTransferTestCase);
        AddTestCase(new MrcJsonWorkloadTestCase);
        AddTestCase(new MrcTransferListTestCase);
    }
};

static MrcWorkloadTestSuite g_mrcWorkloadTestSuite; //!< static instance
