/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * Chakra execution traces: the wire format (traces written here byte by byte with the published
 * schema's field numbers, not with this module's generated code), the errors, and the replay of
 * a program by MrcTrainingJob with exact timings.
 */

#include "mrc-test-net.h"
#include "ns3/mrc-module.h"

#include "ns3/core-module.h"
#include "ns3/test.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using mrctest::MakeNet;
using mrctest::Net;

/** Chakra's NodeType values (et_def.proto). */
enum : uint64_t
{
    METADATA = 1,
    COMP = 4,
    SEND = 5,
    RECV = 6,
    COLL = 7,
    STORAGE = 8,
};

/** Chakra's CollectiveCommType values. */
enum : int64_t
{
    ALL_REDUCE = 0,
    ALL_GATHER = 2,
    BROADCAST = 5,
    ALL_TO_ALL = 6,
    REDUCE_SCATTER = 7,
    BARRIER = 9,
};

/**
 * Protobuf wire encoding, by hand: a varint.
 * @param out appended to
 * @param v the value
 */
void
Varint(std::string& out, uint64_t v)
{
    while (v >= 0x80)
    {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

/**
 * A varint field.
 * @param out appended to
 * @param field field number
 * @param v value
 */
void
VarintField(std::string& out, uint32_t field, uint64_t v)
{
    Varint(out, static_cast<uint64_t>(field) << 3);
    Varint(out, v);
}

/**
 * A length-delimited field.
 * @param out appended to
 * @param field field number
 * @param bytes contents
 */
void
BytesField(std::string& out, uint32_t field, const std::string& bytes)
{
    Varint(out, (static_cast<uint64_t>(field) << 3) | 2);
    Varint(out, bytes.size());
    out += bytes;
}

/** A Chakra node to encode. */
struct EtNode
{
    uint64_t id;                                        //!< id
    uint64_t type;                                      //!< NodeType
    std::vector<uint64_t> data;                         //!< data_deps
    std::vector<uint64_t> ctrl;                         //!< ctrl_deps
    uint64_t duration;                                  //!< duration_micros
    std::vector<std::pair<std::string, int64_t>> attrs; //!< integer attributes (int64_val)
};

/**
 * Encode one rank's file: a GlobalMetadata, then the nodes, each with a varint length.
 * @param nodes the nodes
 * @return the file's bytes
 */
std::string
EtFile(const std::vector<EtNode>& nodes)
{
    std::string file;
    std::string meta;
    BytesField(meta, 1, "0.0.4"); // version
    Varint(file, meta.size());
    file += meta;
    for (const EtNode& n : nodes)
    {
        std::string m;
        VarintField(m, 1, n.id);
        BytesField(m, 2, "node" + std::to_string(n.id));
        VarintField(m, 3, n.type);
        std::string packed;
        for (uint64_t d : n.ctrl)
        {
            Varint(packed, d);
        }
        if (!packed.empty())
        {
            BytesField(m, 4, packed); // ctrl_deps, packed
        }
        for (uint64_t d : n.data)
        {
            VarintField(m, 5, d); // data_deps, unpacked (both encodings are valid)
        }
        VarintField(m, 7, n.duration);
        for (const auto& [name, v] : n.attrs)
        {
            std::string a;
            BytesField(a, 1, name);
            VarintField(a, 9, static_cast<uint64_t>(v)); // int64_val
            BytesField(m, 10, a);
        }
        Varint(file, m.size());
        file += m;
    }
    return file;
}

/**
 * Parse a trace of several ranks.
 * @param ranks per rank, its nodes
 * @param program set to the program
 * @param error set to the message
 * @return whether it parsed
 */
bool
Parse(const std::vector<std::vector<EtNode>>& ranks, MrcJobProgram& program, std::string& error)
{
    std::vector<std::string> files;
    std::vector<std::string> names;
    for (std::size_t r = 0; r < ranks.size(); ++r)
    {
        files.push_back(EtFile(ranks[r]));
        names.push_back("t." + std::to_string(r) + ".et");
    }
    return MrcChakraTrace::Parse(files, names, program, error);
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

/**
 * A data-parallel rank: forward (10 us), backward of layer 2 (20 us) then its gradient
 * all-reduce, backward of layer 1 (20 us) alongside, then layer 1's all-reduce, and the
 * optimizer step (5 us) after both all-reduces.
 * @param bytes each all-reduce's size
 * @return the nodes
 */
std::vector<EtNode>
DataParallelRank(int64_t bytes)
{
    return {{1, COMP, {}, {}, 10, {}},
            {2, COMP, {1}, {}, 20, {}},
            {3, COLL, {2}, {}, 0, {{"comm_type", ALL_REDUCE}, {"comm_size", bytes}}},
            {4, COMP, {2}, {}, 20, {}},
            {5, COLL, {4}, {3}, 0, {{"comm_type", ALL_REDUCE}, {"comm_size", bytes}}},
            {6, COMP, {3, 5}, {}, 5, {}}};
}

/**
 * @ingroup mrc-tests
 * @brief The decoder reads the schema's wire format into the right program, and every kind of
 * bad trace gives a one-line error naming the file and node.
 */
class MrcChakraParseTestCase : public TestCase
{
public:
    MrcChakraParseTestCase()
        : TestCase("Chakra ET: decoding by the schema's field numbers, matching, errors")
    {
    }

private:
    /**
     * Parse a trace that must fail.
     * @param ranks the trace
     * @return the message
     */
    std::string Fail(const std::vector<std::vector<EtNode>>& ranks)
    {
        MrcJobProgram p;
        std::string err;
        NS_TEST_EXPECT_MSG_EQ(Parse(ranks, p, err), false, "must fail");
        NS_TEST_EXPECT_MSG_EQ(err.find('\n'), std::string::npos, "one line: " << err);
        return err;
    }

    void DoRun() override
    {
#ifdef MRC_EXPECT_CHAKRA
        // Built with protobuf: the decoder plugin must load, or traces silently go unread.
        {
            MrcJobProgram none;
            std::string why;
            MrcChakraTrace::Parse({}, {}, none, why);
            NS_TEST_ASSERT_MSG_EQ(MrcChakraTrace::IsAvailable(), true, why);
        }
#endif
        if (!MrcChakraTrace::IsAvailable())
        {
            MrcJobProgram p;
            std::string err;
            NS_TEST_ASSERT_MSG_EQ(
                MrcChakraTrace::Parse({"x"}, {"x"}, p, err), false, "no protobuf");
            NS_TEST_ASSERT_MSG_EQ(Has(err, "protobuf"), true, err);
            return;
        }
        MrcJobProgram p;
        std::string err;
        const std::vector<EtNode> rank = DataParallelRank(1000000);
        NS_TEST_ASSERT_MSG_EQ(Parse({rank, rank, rank}, p, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.ranks.size(), 3u, "one rank per file");
        NS_TEST_ASSERT_MSG_EQ(p.ops.size(), 2u, "two collectives");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].type, MrcCollective::RING_ALLREDUCE, "ALL_REDUCE");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].bytes, 1000000u, "comm_size");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].p2p, false, "a collective");
        const auto& n = p.ranks[1];
        NS_TEST_ASSERT_MSG_EQ(n.size(), 6u, "every node");
        NS_TEST_ASSERT_MSG_EQ(n[1].compute, true, "COMP");
        NS_TEST_ASSERT_MSG_EQ(n[1].duration, MicroSeconds(20), "duration_micros");
        NS_TEST_ASSERT_MSG_EQ(n[2].compute, false, "COLL");
        NS_TEST_ASSERT_MSG_EQ(n[2].op, 0u, "first collective in issue order");
        NS_TEST_ASSERT_MSG_EQ(n[4].op, 1u, "second");
        NS_TEST_ASSERT_MSG_EQ((n[4].deps == std::vector<uint32_t>{2, 3}),
                              true,
                              "data and control dependencies, as indices");
        NS_TEST_ASSERT_MSG_EQ(n[5].sourceId, 6u, "node id kept");

        // Collectives are matched in issue order, not file order: list them reversed on rank 1.
        std::vector<EtNode> a
            = {{1, COMP, {}, {}, 1, {}},
               {2, COLL, {1}, {}, 0, {{"comm_type", ALL_GATHER}, {"comm_size", 8}}},
               {3, COLL, {2}, {}, 0, {{"comm_type", BROADCAST}, {"comm_size", 9}}}};
        std::vector<EtNode> b
            = {{7, COLL, {9}, {}, 0, {{"comm_type", BROADCAST}, {"comm_size", 9}}},
               {8, COMP, {}, {}, 1, {}},
               {9, COLL, {8}, {}, 0, {{"comm_type", ALL_GATHER}, {"comm_size", 8}}}};
        NS_TEST_ASSERT_MSG_EQ(Parse({a, b}, p, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].type, MrcCollective::ALLGATHER, "first issued");
        NS_TEST_ASSERT_MSG_EQ(p.ops[1].type, MrcCollective::BROADCAST, "second");
        NS_TEST_ASSERT_MSG_EQ(p.ranks[1][0].op, 1u, "rank 1's first node is the broadcast");

        // Messages: the k-th send a -> b with a tag is the k-th receive at b from a with it.
        std::vector<EtNode> s
            = {{1, SEND, {}, {}, 0, {{"comm_dst", 1}, {"comm_size", 100}, {"comm_tag", 3}}},
               {2, SEND, {1}, {}, 0, {{"comm_dst", 1}, {"comm_size", 200}, {"comm_tag", 4}}}};
        std::vector<EtNode> r
            = {{1, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 200}, {"comm_tag", 4}}},
               {2, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 100}, {"comm_tag", 3}}}};
        NS_TEST_ASSERT_MSG_EQ(Parse({s, r}, p, err), true, err);
        NS_TEST_ASSERT_MSG_EQ(p.ops.size(), 2u, "two messages");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].p2p, true, "p2p");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].src, 0u, "from rank 0");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].dst, 1u, "to rank 1");
        NS_TEST_ASSERT_MSG_EQ(p.ops[0].bytes, 100u, "tag 3 is 100 bytes");
        NS_TEST_ASSERT_MSG_EQ(p.ranks[1][1].op, 0u, "matched by tag");

        // Errors.
        err = Fail({{{1, COMP, {}, {}, 1, {}}, {1, COMP, {}, {}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.0.et: node id 1 appears twice"), true, err);
        err = Fail({{{1, COMP, {7}, {}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "node 1 depends on node 7, which the file does not have"), true, err);
        err = Fail({{{1, COMP, {2}, {}, 1, {}}, {2, COMP, {}, {1}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "is on a dependency cycle"), true, err);
        err = Fail({{{1, STORAGE, {}, {}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "node 1 (STORAGE_NODE): node type not supported (accepted:"), true, err);
        err = Fail({{{1, 77, {}, {}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "(node type 77): node type not supported"), true, err);
        err = Fail({{{1, COLL, {}, {}, 0, {{"comm_type", BARRIER}, {"comm_size", 1}}}}});
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "collective BARRIER is not supported (accepted: ALL_REDUCE"), true, err);
        err = Fail({{{1, COLL, {}, {}, 0, {{"comm_type", ALL_REDUCE}}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "comm_size missing (accepted: 1 to 2^62 bytes)"), true, err);
        err = Fail({{{1, COLL, {}, {}, 0, {{"comm_type", ALL_REDUCE}, {"comm_size", 0}}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "comm_size 0"), true, err);
        err = Fail({{{1, COLL, {}, {}, 0, {{"comm_size", 5}}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "no comm_type attribute"), true, err);
        err = Fail({{{1, SEND, {}, {}, 0, {{"comm_dst", 5}, {"comm_size", 5}}}}, {}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "comm_dst 5 (accepted: another rank, 0 to 1"), true, err);
        err = Fail({{{1, SEND, {}, {}, 0, {{"comm_dst", 1}, {"comm_size", 5}}}}, {}});
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "send node 1 to rank 1 (tag 0) has no matching receive"), true, err);
        err = Fail({{}, {{1, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 5}}}}});
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "t.1.et: receive node 1 from rank 0 (tag 0) has no matching send"), true, err);
        err = Fail({{{1, SEND, {}, {}, 0, {{"comm_dst", 1}, {"comm_size", 5}}}},
                    {{1, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 6}}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "expects 6 bytes"), true, err);
        err = Fail({rank, DataParallelRank(999)});
        NS_TEST_ASSERT_MSG_EQ(Has(err,
                                  "t.1.et: node 3 is collective #0 of its rank, ALL_REDUCE of "
                                  "999 bytes, but t.0.et's (node 3) is ALL_REDUCE of 1000000"),
                              true,
                              err);
        err = Fail({rank, {{1, COMP, {}, {}, 1, {}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "t.1.et: 0 collective nodes, but t.0.et has 2"), true, err);
        // Rank 0 receives before it sends, and so does rank 1: a deadlock.
        err = Fail({{{1, RECV, {}, {}, 0, {{"comm_src", 1}, {"comm_size", 5}}},
                     {2, SEND, {1}, {}, 0, {{"comm_dst", 1}, {"comm_size", 5}}}},
                    {{1, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 5}}},
                     {2, SEND, {1}, {}, 0, {{"comm_dst", 0}, {"comm_size", 5}}}}});
        NS_TEST_ASSERT_MSG_EQ(Has(err, "the trace would deadlock"), true, err);
        // Bytes that are not an ET.
        std::string bad = EtFile(rank);
        MrcJobProgram q;
        NS_TEST_ASSERT_MSG_EQ(
            MrcChakraTrace::Parse({bad.substr(0, bad.size() - 3)}, {"cut.et"}, q, err),
            false,
            "truncated");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "cut.et: message 6 at byte"), true, err);
        NS_TEST_ASSERT_MSG_EQ(MrcChakraTrace::Parse({""}, {"empty.et"}, q, err), false, "empty");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "empty.et: empty"), true, err);
        NS_TEST_ASSERT_MSG_EQ(
            MrcChakraTrace::Parse({"\x05\xff\xff\xff\xff\xff"}, {"junk.et"}, q, err),
            false,
            "junk");
        NS_TEST_ASSERT_MSG_EQ(
            Has(err, "junk.et: message 0 at byte 0 is not a Chakra GlobalMetadata"), true, err);
        NS_TEST_ASSERT_MSG_EQ(MrcChakraTrace::Load("/nonexistent/trace", q, err), false, "missing");
        NS_TEST_ASSERT_MSG_EQ(Has(err, "no file /nonexistent/trace.0.et"), true, err);
    }
};

/**
 * @ingroup mrc-tests
 * @brief A job runs a program: compute nodes of a rank run one at a time, operation nodes
 * alongside, dependencies hold, and the step times are exact where the network is not involved.
 */
class MrcChakraReplayTestCase : public TestCase
{
public:
    MrcChakraReplayTestCase()
        : TestCase("Chakra replay: compute stream, overlap, messages, collectives, exact steps")
    {
    }

private:
    /**
     * Run a program on a small fabric.
     * @param trace the trace
     * @param steps steps
     * @return the finished job
     */
    Ptr<MrcTrainingJob> Run(const std::vector<std::vector<EtNode>>& trace, uint32_t steps)
    {
        MrcJobProgram p;
        std::string err;
        NS_ABORT_MSG_IF(!Parse(trace, p, err), err);
        Net n = MakeNet(2, 2, 2, 2);
        Ptr<MrcTrainingJob> job = CreateObject<MrcTrainingJob>();
        job->SetAttribute("Steps", UintegerValue(steps));
        job->SetAttribute("KeepRecords", BooleanValue(true));
        std::vector<uint32_t> hosts;
        for (uint32_t r = 0; r < trace.size(); ++r)
        {
            hosts.push_back(r);
        }
        job->SetRanks(hosts);
        job->SetProgram(p);
        job->Install(n.fabric);
        job->Start(MicroSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(mrctest::RunToEnd(Seconds(10)), true, "the run ends by itself");
        Simulator::Destroy();
        return job;
    }

    void DoRun() override
    {
        if (!MrcChakraTrace::IsAvailable())
        {
            return;
        }
        // Compute only: rank 0 runs 10 then 20 (dependent) and 5 (independent) on one stream:
        // 35 us; rank 1 runs 7. The step lasts exactly 35 us, every step.
        auto job = Run(
            {{{1, COMP, {}, {}, 10, {}}, {2, COMP, {1}, {}, 20, {}}, {3, COMP, {}, {}, 5, {}}},
             {{1, COMP, {}, {}, 7, {}}, {2, METADATA, {1}, {}, 0, {}}}},
            3);
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "done");
        const auto& st = job->GetStepRecords();
        NS_TEST_ASSERT_MSG_EQ(st.size(), 3u, "three steps");
        for (const auto& s : st)
        {
            NS_TEST_ASSERT_MSG_EQ(s.end - s.start, MicroSeconds(35), "one stream: 10 + 20 + 5");
            NS_TEST_ASSERT_MSG_EQ(s.computeEnd, s.end, "compute ends last");
            NS_TEST_ASSERT_MSG_EQ(s.slowestRank, 0u, "rank 0 is the slowest");
        }
        NS_TEST_ASSERT_MSG_EQ(st[1].start, st[0].end, "barrier");

        // A message: rank 0 computes 10 us, sends 100 kB to rank 1, whose compute (15 us)
        // waits for it; rank 1's independent 50 us of compute overlaps the transfer.
        job = Run({{{1, COMP, {}, {}, 10, {}},
                    {2, SEND, {1}, {}, 0, {{"comm_dst", 1}, {"comm_size", 100000}}}},
                   {{1, RECV, {}, {}, 0, {{"comm_src", 0}, {"comm_size", 100000}}},
                    {2, COMP, {1}, {}, 15, {}},
                    {3, COMP, {}, {}, 50, {}}}},
                  1);
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "done");
        const auto& recs = job->GetTransferRecords();
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 1u, "one message");
        const MrcTransferRecord& m = recs[0];
        const MrcStepRecord& s = job->GetStepRecords()[0];
        NS_TEST_ASSERT_MSG_EQ(m.bytes, 100000u, "its size");
        NS_TEST_ASSERT_MSG_EQ(std::string(m.collectiveType), "p2p", "named p2p");
        NS_TEST_ASSERT_MSG_EQ(m.start, s.start + MicroSeconds(10), "posted when the compute ends");
        NS_TEST_ASSERT_MSG_EQ(job->GetBytesReceived(1), 100000u, "received");
        // Rank 1's stream ran the 50 us node first (ready at once), then the 15 us one once
        // both the message had arrived and the stream was free.
        const Time after = std::max(m.received, s.start + MicroSeconds(50));
        NS_TEST_ASSERT_MSG_EQ(s.computeEnd, after + MicroSeconds(15), "compute waits for data");
        NS_TEST_ASSERT_MSG_EQ(s.end, std::max(s.computeEnd, m.end), "step ends with the last node");

        // Data parallel on 4 ranks: every all-reduce's transfers, every byte, both steps.
        job = Run({DataParallelRank(400000),
                   DataParallelRank(400000),
                   DataParallelRank(400000),
                   DataParallelRank(400000)},
                  2);
        NS_TEST_ASSERT_MSG_EQ(job->IsComplete(), true, "done");
        NS_TEST_ASSERT_MSG_EQ(job->GetFailedTransfers(), 0u, "no failure");
        NS_TEST_ASSERT_MSG_EQ(
            job->GetTransfersCompleted(), 2u * 2 * 2 * 3 * 4, "steps x ops x 2(N-1)N");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(
                job->GetBytesReceived(r),
                2 * 2 * MrcCollective::BytesReceived(MrcCollective::RING_ALLREDUCE, 4, 400000, r),
                "rank " << r << " received every byte");
        }
        for (const auto& st2 : job->GetStepRecords())
        {
            // Forward + two backwards + optimizer = 55 us on the stream, and the optimizer
            // waits for the second all-reduce, which waits for the second backward (50 us in).
            NS_TEST_ASSERT_MSG_GT(st2.end - st2.start, MicroSeconds(55), "comm on the path");
            NS_TEST_ASSERT_MSG_EQ(st2.computeEnd, st2.end, "the optimizer ends the step");
        }
        for (const auto& rec : job->GetTransferRecords())
        {
            const MrcStepRecord& s2 = job->GetStepRecords()[rec.step];
            const Time enter = s2.start + MicroSeconds(rec.collective == 0 ? 30 : 50);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(rec.start, enter, "posted after the backward it follows");
        }
    }
};

/**
 * @ingroup mrc-tests
 * @brief The Chakra tests.
 */
class MrcChakraTestSuite : public TestSuite
{
public:
    MrcChakraTestSuite()
        : TestSuite("mrc-chakra", TestSuite::Type::UNIT)
    {
        AddTestCase(new MrcChakraParseTestCase);
        AddTestCase(new MrcChakraReplayTestCase);
    }
};

/** The instance. */
MrcChakraTestSuite g_mrcChakraTestSuite;

} // namespace
