/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Chakra trace decoder: the protobuf code of MrcChakraTrace, built as a plugin
// (libns3-mrc-chakra.so) that MrcChakraTrace::Parse loads on first use, so that programs that
// read no trace do not load protobuf.

#include "mrc-chakra-et.pb.h"
#include "ns3/mrc-chakra-trace.h"

#include "ns3/abort.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <limits>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_map>

namespace ns3
{

namespace
{

/** Largest size accepted for an operation. */
constexpr int64_t MAX_BYTES = int64_t(1) << 62;
/** Largest message (a p2p operation is one message). */
constexpr int64_t MAX_MESSAGE = 0xffffffffLL;

/** A node as read, before matching. */
struct RawNode
{
    uint64_t id = 0;            //!< node id
    int type = 0;               //!< NodeType value
    std::vector<uint64_t> deps; //!< data and control dependencies (ids)
    uint64_t duration = 0;      //!< duration_micros
    bool hasCommType = false;   //!< comm_type present
    int64_t commType = 0;       //!< comm_type
    bool hasSize = false;       //!< comm_size present
    int64_t size = 0;           //!< comm_size
    bool hasPeer = false;       //!< comm_src (receive) or comm_dst (send) present
    int64_t peer = 0;           //!< that rank
    int64_t tag = 0;            //!< comm_tag (0 if absent)
    std::vector<uint32_t> dep;  //!< dependencies as indices
    uint32_t op = 0;            //!< operation, once matched
};

/**
 * An integer attribute value, whatever integer field carries it.
 * @param a the attribute
 * @param v set to the value
 * @return false if the attribute holds no integer (or one beyond int64)
 */
bool
IntValue(const mrc::chakra::AttributeProto& a, int64_t& v)
{
    using A = mrc::chakra::AttributeProto;
    switch (a.value_case())
    {
        case A::kInt32Val:
            v = a.int32_val();
            return true;
        case A::kInt64Val:
            v = a.int64_val();
            return true;
        case A::kUint32Val:
            v = a.uint32_val();
            return true;
        case A::kUint64Val:
            if (a.uint64_val() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            {
                return false;
            }
            v = static_cast<int64_t>(a.uint64_val());
            return true;
        case A::kSint32Val:
            v = a.sint32_val();
            return true;
        case A::kSint64Val:
            v = a.sint64_val();
            return true;
        case A::kFixed32Val:
            v = a.fixed32_val();
            return true;
        case A::kFixed64Val:
            if (a.fixed64_val() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            {
                return false;
            }
            v = static_cast<int64_t>(a.fixed64_val());
            return true;
        case A::kSfixed32Val:
            v = a.sfixed32_val();
            return true;
        case A::kSfixed64Val:
            v = a.sfixed64_val();
            return true;
        default:
            return false;
    }
}

/**
 * @param type a NodeType value
 * @return its name in the schema
 */
std::string
TypeName(int type)
{
    if (mrc::chakra::NodeType_IsValid(type))
    {
        return mrc::chakra::NodeType_Name(static_cast<mrc::chakra::NodeType>(type));
    }
    return "node type " + std::to_string(type);
}

/**
 * @param t a CollectiveCommType value
 * @return its name in the schema
 */
std::string
CommName(int64_t t)
{
    if (t >= 0 && t <= std::numeric_limits<int>::max()
        && mrc::chakra::CollectiveCommType_IsValid(static_cast<int>(t)))
    {
        return mrc::chakra::CollectiveCommType_Name(
            static_cast<mrc::chakra::CollectiveCommType>(t));
    }
    return "comm_type " + std::to_string(t);
}

/**
 * Map a Chakra collective to a module collective.
 * @param t CollectiveCommType value
 * @param type set to the collective
 * @return false if the module has no such collective
 */
bool
MapCollective(int64_t t, MrcCollective::Type& type)
{
    switch (t)
    {
        case mrc::chakra::ALL_REDUCE:
            type = MrcCollective::RING_ALLREDUCE;
            return true;
        case mrc::chakra::ALL_GATHER:
            type = MrcCollective::ALLGATHER;
            return true;
        case mrc::chakra::REDUCE_SCATTER:
            type = MrcCollective::REDUCE_SCATTER;
            return true;
        case mrc::chakra::ALL_TO_ALL:
            type = MrcCollective::ALLTOALL;
            return true;
        case mrc::chakra::BROADCAST:
            type = MrcCollective::BROADCAST;
            return true;
        default:
            return false;
    }
}

/**
 * Decode one rank's file.
 * @param bytes the file
 * @param name its name
 * @param nRanks ranks of the trace
 * @param rank this file's rank
 * @param out set to the nodes, in file order
 * @param error set on failure
 * @return true on success
 */
bool
Decode(const std::string& bytes,
       const std::string& name,
       uint32_t nRanks,
       uint32_t rank,
       std::vector<RawNode>& out,
       std::string& error)
{
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              static_cast<int>(bytes.size()));
    std::unordered_map<uint64_t, uint32_t> index;
    bool first = true;
    for (uint64_t msg = 0;; ++msg)
    {
        const auto at = static_cast<std::size_t>(in.CurrentPosition());
        if (at == bytes.size())
        {
            break;
        }
        uint32_t len = 0;
        if (!in.ReadVarint32(&len)
            || len > bytes.size() - static_cast<std::size_t>(in.CurrentPosition()))
        {
            error = name + ": message " + std::to_string(msg) + " at byte " + std::to_string(at)
                  + " has a bad or truncated length (not a Chakra execution trace?)";
            return false;
        }
        const auto limit = in.PushLimit(static_cast<int>(len));
        bool ok;
        mrc::chakra::Node node;
        if (first)
        {
            mrc::chakra::GlobalMetadata meta;
            ok = meta.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
        }
        else
        {
            ok = node.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
        }
        in.PopLimit(limit);
        if (!ok)
        {
            error = name + ": message " + std::to_string(msg) + " at byte " + std::to_string(at)
                  + " is not a Chakra " + (first ? "GlobalMetadata" : "Node")
                  + " (not an execution trace, or a damaged one)";
            return false;
        }
        if (first)
        {
            first = false;
            continue;
        }
        RawNode r;
        r.id = node.id();
        r.type = static_cast<int>(node.type());
        r.duration = node.duration_micros();
        const std::string what
            = name + ": node " + std::to_string(r.id) + " (" + TypeName(r.type) + ")";
        if (!index.emplace(r.id, static_cast<uint32_t>(out.size())).second)
        {
            error = name + ": node id " + std::to_string(r.id) + " appears twice";
            return false;
        }
        if (out.size() >= std::numeric_limits<int32_t>::max())
        {
            error = name + ": more than 2^31 nodes";
            return false;
        }
        r.deps.assign(node.data_deps().begin(), node.data_deps().end());
        r.deps.insert(r.deps.end(), node.ctrl_deps().begin(), node.ctrl_deps().end());
        const bool send = r.type == mrc::chakra::COMM_SEND_NODE;
        const bool recv = r.type == mrc::chakra::COMM_RECV_NODE;
        for (const auto& a : node.attr())
        {
            int64_t v = 0;
            const bool want = a.name() == "comm_type" || a.name() == "comm_size"
                           || a.name() == "comm_tag" || (send && a.name() == "comm_dst")
                           || (recv && a.name() == "comm_src");
            if (!want)
            {
                continue;
            }
            if (!IntValue(a, v))
            {
                error
                    = what + ": attribute " + a.name() + " holds no integer (or one beyond int64)";
                return false;
            }
            if (a.name() == "comm_type")
            {
                r.hasCommType = true;
                r.commType = v;
            }
            else if (a.name() == "comm_size")
            {
                r.hasSize = true;
                r.size = v;
            }
            else if (a.name() == "comm_tag")
            {
                r.tag = v;
            }
            else
            {
                r.hasPeer = true;
                r.peer = v;
            }
        }
        switch (r.type)
        {
            case mrc::chakra::METADATA_NODE:
                r.duration = 0;
                break;
            case mrc::chakra::COMP_NODE:
            case mrc::chakra::MEM_LOAD_NODE:
            case mrc::chakra::MEM_STORE_NODE:
                if (r.duration > static_cast<uint64_t>(1e12))
                {
                    error = what + ": duration_micros " + std::to_string(r.duration)
                          + " (accepted: up to 10^12)";
                    return false;
                }
                break;
            case mrc::chakra::COMM_COLL_NODE:
            {
                MrcCollective::Type t;
                if (!r.hasCommType)
                {
                    error = what + ": no comm_type attribute";
                    return false;
                }
                if (!MapCollective(r.commType, t))
                {
                    error = what + ": collective " + CommName(r.commType)
                          + " is not supported (accepted: ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, "
                            "ALL_TO_ALL, BROADCAST)";
                    return false;
                }
                break;
            }
            case mrc::chakra::COMM_SEND_NODE:
            case mrc::chakra::COMM_RECV_NODE:
            {
                const char* key = send ? "comm_dst" : "comm_src";
                if (!r.hasPeer)
                {
                    error = what + ": no " + key + " attribute";
                    return false;
                }
                if (r.peer < 0 || r.peer >= nRanks || r.peer == rank)
                {
                    error = what + ": " + key + " " + std::to_string(r.peer)
                          + " (accepted: another rank, 0 to " + std::to_string(nRanks - 1)
                          + ", the trace has one file per rank)";
                    return false;
                }
                break;
            }
            default:
                error = what
                      + ": node type not supported (accepted: METADATA_NODE, COMP_NODE, "
                        "MEM_LOAD_NODE, MEM_STORE_NODE, COMM_SEND_NODE, COMM_RECV_NODE, "
                        "COMM_COLL_NODE)";
                return false;
        }
        if (r.type >= mrc::chakra::COMM_SEND_NODE)
        {
            const int64_t most = r.type == mrc::chakra::COMM_COLL_NODE ? MAX_BYTES : MAX_MESSAGE;
            if (!r.hasSize || r.size < 1 || r.size > most)
            {
                error = what + ": comm_size " + (r.hasSize ? std::to_string(r.size) : "missing")
                      + " (accepted: 1 to " + (most == MAX_BYTES ? "2^62" : "2^32 - 1") + " bytes)";
                return false;
            }
        }
        out.push_back(std::move(r));
    }
    if (first)
    {
        error = name + ": empty (an execution trace starts with its GlobalMetadata)";
        return false;
    }
    for (RawNode& r : out)
    {
        for (uint64_t d : r.deps)
        {
            auto it = index.find(d);
            if (it == index.end())
            {
                error = name + ": node " + std::to_string(r.id) + " depends on node "
                      + std::to_string(d) + ", which the file does not have";
                return false;
            }
            if (out[it->second].id == r.id)
            {
                error = name + ": node " + std::to_string(r.id) + " depends on itself";
                return false;
            }
            r.dep.push_back(it->second);
        }
        std::sort(r.dep.begin(), r.dep.end());
        r.dep.erase(std::unique(r.dep.begin(), r.dep.end()), r.dep.end());
    }
    return true;
}

/**
 * Dependency order of a rank's nodes (ties: file order).
 * @param nodes the nodes
 * @param name the file, for messages
 * @param order set to the node indices in that order
 * @param error set if the nodes have a cycle
 * @return true on success
 */
bool
TopoOrder(const std::vector<RawNode>& nodes,
          const std::string& name,
          std::vector<uint32_t>& order,
          std::string& error)
{
    const std::size_t n = nodes.size();
    std::vector<uint32_t> indeg(n, 0);
    std::vector<std::vector<uint32_t>> kids(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        indeg[i] = static_cast<uint32_t>(nodes[i].dep.size());
        for (uint32_t d : nodes[i].dep)
        {
            kids[d].push_back(static_cast<uint32_t>(i));
        }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (std::size_t i = 0; i < n; ++i)
    {
        if (indeg[i] == 0)
        {
            ready.push(static_cast<uint32_t>(i));
        }
    }
    order.clear();
    while (!ready.empty())
    {
        const uint32_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (uint32_t k : kids[i])
        {
            if (--indeg[k] == 0)
            {
                ready.push(k);
            }
        }
    }
    if (order.size() != n)
    {
        for (std::size_t i = 0; i < n; ++i)
        {
            if (indeg[i] > 0)
            {
                error = name + ": node " + std::to_string(nodes[i].id)
                      + " is on a dependency cycle (or depends on one)";
                return false;
            }
        }
    }
    return true;
}

} // namespace

} // namespace ns3

/**
 * Decode and check a trace held in memory (MrcChakraTrace::Parse's work).
 * @param filesIn per rank, the bytes of its file
 * @param namesIn per rank, the file's name for messages (as many as files)
 * @param programOut set to the program
 * @param errorOut set to a one-line message on failure
 * @return true on success
 */
extern "C" __attribute__((visibility("default"))) bool
MrcChakraParse(const std::vector<std::string>* filesIn,
               const std::vector<std::string>* namesIn,
               ns3::MrcJobProgram* programOut,
               std::string* errorOut)
{
    using namespace ns3;
    const std::vector<std::string>& files = *filesIn;
    const std::vector<std::string>& names = *namesIn;
    MrcJobProgram& program = *programOut;
    std::string& error = *errorOut;
    const auto n = static_cast<uint32_t>(files.size());
    if (n == 0 || files.size() > (1U << 24))
    {
        error
            = "chakra trace: " + std::to_string(files.size()) + " rank files (accepted: 1 to 2^24)";
        return false;
    }
    std::vector<std::vector<RawNode>> nodes(n);
    std::vector<std::vector<uint32_t>> order(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        if (!Decode(files[r], names[r], n, r, nodes[r], error)
            || !TopoOrder(nodes[r], names[r], order[r], error))
        {
            return false;
        }
    }
    MrcJobProgram prog;
    // Collectives: the k-th of every rank, in issue order, is one collective.
    std::vector<std::vector<uint32_t>> coll(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t i : order[r])
        {
            if (nodes[r][i].type == mrc::chakra::COMM_COLL_NODE)
            {
                coll[r].push_back(i);
            }
        }
        if (coll[r].size() != coll[0].size())
        {
            error = names[r] + ": " + std::to_string(coll[r].size()) + " collective nodes, but "
                  + names[0] + " has " + std::to_string(coll[0].size())
                  + " (every rank takes part in every collective)";
            return false;
        }
    }
    for (std::size_t k = 0; k < coll[0].size(); ++k)
    {
        const RawNode& ref = nodes[0][coll[0][k]];
        for (uint32_t r = 0; r < n; ++r)
        {
            RawNode& c = nodes[r][coll[r][k]];
            if (c.commType != ref.commType || c.size != ref.size)
            {
                error = names[r] + ": node " + std::to_string(c.id) + " is collective #"
                      + std::to_string(k) + " of its rank, " + CommName(c.commType) + " of "
                      + std::to_string(c.size) + " bytes, but " + names[0] + "'s (node "
                      + std::to_string(ref.id) + ") is " + CommName(ref.commType) + " of "
                      + std::to_string(ref.size) + " bytes";
                return false;
            }
            c.op = static_cast<uint32_t>(prog.ops.size());
        }
        MrcProgramOp op;
        MapCollective(ref.commType, op.type);
        op.bytes = static_cast<uint64_t>(ref.size);
        prog.ops.push_back(op);
    }
    // Messages: the k-th send a -> b with tag t is the k-th receive at b from a with tag t.
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::queue<uint32_t>> recvs;
    for (uint32_t b = 0; b < n; ++b)
    {
        for (uint32_t i : order[b])
        {
            const RawNode& x = nodes[b][i];
            if (x.type == mrc::chakra::COMM_RECV_NODE)
            {
                recvs[{static_cast<uint32_t>(x.peer), b, x.tag}].push(i);
            }
        }
    }
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t i : order[a])
        {
            RawNode& s = nodes[a][i];
            if (s.type != mrc::chakra::COMM_SEND_NODE)
            {
                continue;
            }
            const auto b = static_cast<uint32_t>(s.peer);
            auto& q = recvs[{a, b, s.tag}];
            if (q.empty())
            {
                error = names[a] + ": send node " + std::to_string(s.id) + " to rank "
                      + std::to_string(b) + " (tag " + std::to_string(s.tag)
                      + ") has no matching receive in " + names[b];
                return false;
            }
            RawNode& rv = nodes[b][q.front()];
            q.pop();
            if (rv.size != s.size)
            {
                error = names[b] + ": receive node " + std::to_string(rv.id) + " expects "
                      + std::to_string(rv.size) + " bytes, but its send (" + names[a] + " node "
                      + std::to_string(s.id) + ") sends " + std::to_string(s.size);
                return false;
            }
            s.op = rv.op = static_cast<uint32_t>(prog.ops.size());
            MrcProgramOp op;
            op.p2p = true;
            op.type = MrcCollective::SENDRECV;
            op.bytes = static_cast<uint64_t>(s.size);
            op.src = a;
            op.dst = b;
            prog.ops.push_back(op);
        }
    }
    for (const auto& [key, q] : recvs)
    {
        if (!q.empty())
        {
            const uint32_t b = std::get<1>(key);
            error = names[b] + ": receive node " + std::to_string(nodes[b][q.front()].id)
                  + " from rank " + std::to_string(std::get<0>(key)) + " (tag "
                  + std::to_string(std::get<2>(key)) + ") has no matching send";
            return false;
        }
    }
    // The program, and the deadlock check: a graph of every node plus one vertex per operation
    // that stands for "every participant has entered it"; an operation node ends after it.
    prog.ranks.resize(n);
    std::vector<uint32_t> base(n + 1, 0);
    for (uint32_t r = 0; r < n; ++r)
    {
        base[r + 1] = base[r] + static_cast<uint32_t>(nodes[r].size());
    }
    const std::size_t nv = base[n] + prog.ops.size();
    std::vector<std::vector<uint32_t>> out(nv);
    std::vector<uint32_t> indeg(nv, 0);
    auto edge = [&](uint32_t from, uint32_t to)
    {
        out[from].push_back(to);
        ++indeg[to];
    };
    for (uint32_t r = 0; r < n; ++r)
    {
        auto& mine = prog.ranks[r];
        mine.reserve(nodes[r].size());
        for (std::size_t i = 0; i < nodes[r].size(); ++i)
        {
            const RawNode& x = nodes[r][i];
            MrcProgramNode pn;
            pn.sourceId = x.id;
            pn.deps = x.dep;
            const auto self = base[r] + static_cast<uint32_t>(i);
            if (x.type >= mrc::chakra::COMM_SEND_NODE)
            {
                pn.compute = false;
                pn.op = x.op;
                const auto opv = base[n] + x.op;
                for (uint32_t d : x.dep)
                {
                    edge(base[r] + d, opv);
                }
                edge(opv, self);
            }
            else
            {
                pn.duration = MicroSeconds(static_cast<int64_t>(x.duration));
                for (uint32_t d : x.dep)
                {
                    edge(base[r] + d, self);
                }
            }
            mine.push_back(std::move(pn));
        }
    }
    std::vector<uint32_t> stack;
    for (std::size_t v = 0; v < nv; ++v)
    {
        if (indeg[v] == 0)
        {
            stack.push_back(static_cast<uint32_t>(v));
        }
    }
    std::size_t seen = 0;
    while (!stack.empty())
    {
        const uint32_t v = stack.back();
        stack.pop_back();
        ++seen;
        for (uint32_t w : out[v])
        {
            if (--indeg[w] == 0)
            {
                stack.push_back(w);
            }
        }
    }
    if (seen != nv)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            for (std::size_t i = 0; i < nodes[r].size(); ++i)
            {
                if (indeg[base[r] + i] > 0)
                {
                    error = names[r] + ": node " + std::to_string(nodes[r][i].id)
                          + " can never start: the ranks' dependencies and the matched "
                            "collectives and messages form a cycle (the trace would deadlock)";
                    return false;
                }
            }
        }
    }
    program = std::move(prog);
    return true;
}
