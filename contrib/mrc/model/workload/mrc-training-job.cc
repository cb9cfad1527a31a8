/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-training-job.h"

#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-l4-protocol.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTrainingJob");
NS_OBJECT_ENSURE_REGISTERED(MrcTrainingJob);

namespace
{

/** m_rankAt value of a rank still computing. */
constexpr uint32_t COMPUTING = 0xffffffff;
/** Transfer state: posted in this step. */
constexpr uint8_t POSTED = 1;
/** Transfer state: received (or released after a failure). */
constexpr uint8_t RECEIVED = 2;
/** Transfer state: send completion seen. */
constexpr uint8_t SENT = 4;
/** Largest message a queue pair accepts. */
constexpr uint64_t MAX_MESSAGE = 0xffffffffULL;
/** Immediate bit carrying the step parity. */
constexpr uint32_t PARITY_BIT = 0x80000000U;
/** Type name of replayed transfers. */
const char* const REPLAY_NAME = "replay";
/** No program node (a compute node's collective, a cell without a node). */
constexpr uint32_t NO_NODE = 0xffffffff;
/** Type name of a program's point-to-point operations. */
const char* const P2P_NAME = "p2p";

} // namespace

TypeId
MrcTrainingJob::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcTrainingJob")
              .SetParent<MrcJob>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcTrainingJob>()
              .AddAttribute("WaitForReceiver",
                            "A transfer waits until its receiver has reached its collective too "
                            "(NCCL's receiver-ready rendezvous); false: only the sender must have",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcTrainingJob::m_waitForReceiver),
                            MakeBooleanChecker())
              .AddAttribute("QpPerPort",
                            "Bind queue pair k of each rank pair to NIC port k mod ports, as "
                            "NCCL gives each port (rail) its own QP: for the single-path RoCE "
                            "baseline on a multi-plane fabric (with qpsPerPeer = ports)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcTrainingJob::m_qpPerPort),
                            MakeBooleanChecker())
              .AddAttribute("AbortOnFailure",
                            "A failed transfer (its QP in the error state) fails the whole job, "
                            "as NCCL aborts; false: the step goes on with the transfer counted "
                            "as failed",
                            BooleanValue(true),
                            MakeBooleanAccessor(&MrcTrainingJob::m_abortOnFailure),
                            MakeBooleanChecker())
              .AddTraceSource("JobFailed",
                              "The job failed (a QP went to the error state): job id, step, "
                              "failed transfers",
                              MakeTraceSourceAccessor(&MrcTrainingJob::m_jobFailedTrace),
                              "ns3::MrcJob::JobTracedCallback");
    return tid;
}

MrcTrainingJob::MrcTrainingJob()
    : m_waitForReceiver(true)
    , m_qpPerPort(false)
    , m_hasReplay(false)
    , m_hasProgram(false)
    , m_started(false)
    , m_plan(nullptr)
    , m_running(false)
    , m_abortOnFailure(true)
    , m_draining(false)
    , m_ranksDone(0)
    , m_immParity(0)
{
}

MrcTrainingJob::~MrcTrainingJob() = default;

void
MrcTrainingJob::DoDispose()
{
    m_startEvent.Cancel();
    for (auto& e : m_computeEvents)
    {
        e.Cancel();
    }
    for (auto& c : m_conns)
    {
        c.tx->SetSendCompletionCallback(MakeNullCallback<void, const MrcCompletion&>());
        c.rx->SetRecvCompletionCallback(MakeNullCallback<void, const MrcCompletion&>());
    }
    m_conns.clear();
    m_plans.clear();
    m_plan = nullptr;
    MrcJob::DoDispose();
}

const MrcNameTable<MrcTrainingJob::Placement>&
MrcTrainingJob::PlacementNames()
{
    static const MrcNameTable<Placement> names{
        {CONTIGUOUS, "contiguous"}, {INTERLEAVED, "interleaved"}, {RANDOM, "random"}};
    return names;
}

bool
MrcTrainingJob::ParsePlacement(const std::string& name, Placement& policy)
{
    return PlacementNames().Parse(name, policy);
}

const char*
MrcTrainingJob::PlacementName(Placement policy)
{
    return PlacementNames().GetName(policy).c_str();
}

std::string
MrcTrainingJob::AcceptedPlacements()
{
    return PlacementNames().GetNames();
}

std::vector<uint32_t>
MrcTrainingJob::Place(Placement policy,
                      uint32_t nRanks,
                      uint32_t nHosts,
                      std::vector<bool>& used,
                      Ptr<UniformRandomVariable> rng,
                      std::string& error)
{
    if (used.size() < nHosts)
    {
        used.resize(nHosts, false);
    }
    std::vector<uint32_t> free;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        if (!used[h])
        {
            free.push_back(h);
        }
    }
    std::ostringstream err;
    if (nRanks == 0)
    {
        error = "a job needs at least one rank";
        return {};
    }
    if (nRanks > free.size())
    {
        err << nRanks << " ranks do not fit: " << free.size() << " of " << nHosts
            << " hosts are free";
        error = err.str();
        return {};
    }
    std::vector<uint32_t> hosts;
    hosts.reserve(nRanks);
    switch (policy)
    {
        case CONTIGUOUS:
        {
            uint32_t run = 0;
            for (uint32_t h = 0; h < nHosts && hosts.empty(); ++h)
            {
                run = used[h] ? 0 : run + 1;
                if (run == nRanks)
                {
                    for (uint32_t k = h + 1 - nRanks; k <= h; ++k)
                    {
                        hosts.push_back(k);
                    }
                }
            }
            if (hosts.empty())
            {
                err << "contiguous placement: no block of " << nRanks << " consecutive free hosts ("
                    << free.size() << " free in total; interleaved or random placement would fit)";
                error = err.str();
                return {};
            }
            break;
        }
        case INTERLEAVED:
            for (uint32_t k = 0; k < nRanks; ++k)
            {
                hosts.push_back(free[static_cast<uint64_t>(k) * free.size() / nRanks]);
            }
            break;
        case RANDOM:
            NS_ABORT_MSG_IF(rng == nullptr, "MrcTrainingJob::Place: random placement needs an rng");
            for (uint32_t k = 0; k < nRanks; ++k)
            {
                const uint32_t j = rng->GetInteger(k, static_cast<uint32_t>(free.size() - 1));
                std::swap(free[k], free[j]);
                hosts.push_back(free[k]);
            }
            break;
        default:
            error = "unknown placement policy";
            return {};
    }
    for (uint32_t h : hosts)
    {
        used[h] = true;
    }
    return hosts;
}

void
MrcTrainingJob::AddCollective(MrcCollective::Type type,
                              uint64_t bytes,
                              uint32_t chunks,
                              uint32_t qpsPerPeer,
                              uint32_t groupSize)
{
    NS_ABORT_MSG_IF(m_installed, "MrcTrainingJob: AddCollective after Install");
    NS_ABORT_MSG_IF(bytes == 0 || chunks == 0 || qpsPerPeer == 0,
                    "MrcTrainingJob: bytes, chunks and qpsPerPeer must be >= 1");
    m_specs.push_back({type, bytes, chunks, qpsPerPeer, false, {}, groupSize});
}

void
MrcTrainingJob::AddSendRecv(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                            uint64_t bytes,
                            uint32_t chunks,
                            uint32_t qpsPerPeer)
{
    NS_ABORT_MSG_IF(m_installed, "MrcTrainingJob: AddSendRecv after Install");
    NS_ABORT_MSG_IF(bytes == 0 || chunks == 0 || qpsPerPeer == 0,
                    "MrcTrainingJob: bytes, chunks and qpsPerPeer must be >= 1");
    m_specs.push_back({MrcCollective::SENDRECV, bytes, chunks, qpsPerPeer, true, pairs, 0});
}

void
MrcTrainingJob::SetTransferList(const MrcTransferList& list)
{
    NS_ABORT_MSG_IF(m_installed, "MrcTrainingJob: SetTransferList after Install");
    m_replay = list;
    m_hasReplay = true;
}

void
MrcTrainingJob::SetProgram(const MrcJobProgram& program)
{
    NS_ABORT_MSG_IF(m_installed, "MrcTrainingJob: SetProgram after Install");
    m_program = program;
    m_hasProgram = true;
}

MrcTrainingJob::Plan
MrcTrainingJob::MakePlan(const std::vector<std::vector<MrcTransfer>>& dags,
                         const std::vector<const char*>& names,
                         std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& connOf,
                         const MrcClosTopology& fabric)
{
    const auto n = static_cast<uint32_t>(m_hosts.size());
    const auto nc = static_cast<uint32_t>(dags.size());
    Plan p;
    p.nCollectives = nc;
    p.names = names;
    std::size_t total = 0;
    for (const auto& d : dags)
    {
        total += d.size();
    }
    NS_ABORT_MSG_IF(total >= PARITY_BIT, "MrcTrainingJob: too many transfers in one step");
    p.xfers.reserve(total);
    std::vector<std::vector<uint32_t>> deps(total);
    for (uint32_t c = 0; c < nc; ++c)
    {
        const auto base = static_cast<uint32_t>(p.xfers.size());
        std::unordered_map<uint32_t, uint32_t> index;
        for (std::size_t i = 0; i < dags[c].size(); ++i)
        {
            index[dags[c][i].id] = base + static_cast<uint32_t>(i);
        }
        for (const MrcTransfer& t : dags[c])
        {
            NS_ABORT_MSG_IF(t.srcRank >= n || t.dstRank >= n || t.srcRank == t.dstRank,
                            "MrcTrainingJob: transfer " << t.id << " from rank " << t.srcRank
                                                        << " to rank " << t.dstRank
                                                        << " (the job has " << n << " ranks)");
            NS_ABORT_MSG_IF(t.bytes == 0 || t.bytes > MAX_MESSAGE,
                            "MrcTrainingJob: transfer " << t.id << " of " << t.bytes
                                                        << " bytes (1 byte to 4 GiB; raise the "
                                                           "number of chunks)");
            const auto key = std::make_tuple(t.srcRank, t.dstRank, t.qp);
            auto it = connOf.find(key);
            if (it == connOf.end())
            {
                Ptr<MrcL4Protocol> src
                    = fabric.GetHost(m_hosts[t.srcRank])->GetObject<MrcL4Protocol>();
                Ptr<MrcL4Protocol> dst
                    = fabric.GetHost(m_hosts[t.dstRank])->GetObject<MrcL4Protocol>();
                NS_ABORT_MSG_IF(!src || !dst, "MrcTrainingJob: no MRC stack on the job's hosts");
                const uint32_t ports = src->GetNPorts();
                auto qps
                    = src->ConnectPair(dst, m_qpPerPort ? static_cast<int32_t>(t.qp % ports) : -1);
                const auto ci = static_cast<uint32_t>(m_conns.size());
                qps.first->SetSendCompletionCallback(
                    MakeCallback(&MrcTrainingJob::OnSendComplete, this, ci));
                qps.second->SetRecvCompletionCallback(
                    MakeCallback(&MrcTrainingJob::OnRecvComplete, this, ci));
                m_conns.push_back({qps.first, qps.second, {}});
                it = connOf.emplace(key, ci).first;
            }
            const auto self = static_cast<uint32_t>(p.xfers.size());
            std::vector<uint32_t>& mine = deps[self];
            for (uint32_t d : t.deps)
            {
                auto di = index.find(d);
                NS_ABORT_MSG_IF(di == index.end() || di->second >= self,
                                "MrcTrainingJob: transfer " << t.id << " depends on " << d
                                                            << ", not an earlier transfer of "
                                                               "its DAG");
                mine.push_back(di->second);
            }
            std::sort(mine.begin(), mine.end());
            mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
            const auto conds = static_cast<uint32_t>(mine.size() + (m_waitForReceiver ? 2 : 1));
            p.xfers.push_back({t.srcRank, t.dstRank, t.bytes, it->second, c, t.id, conds, 0, 0});
        }
    }
    // Dependents (compressed rows).
    std::vector<uint32_t> count(total + 1, 0);
    for (std::size_t t = 0; t < total; ++t)
    {
        for (uint32_t d : deps[t])
        {
            ++count[d];
        }
    }
    uint32_t acc = 0;
    for (std::size_t t = 0; t < total; ++t)
    {
        p.xfers[t].depBegin = acc;
        acc += count[t];
        p.xfers[t].depEnd = p.xfers[t].depBegin;
    }
    p.dependents.resize(acc);
    for (std::size_t t = 0; t < total; ++t)
    {
        for (uint32_t d : deps[t])
        {
            p.dependents[p.xfers[d].depEnd++] = static_cast<uint32_t>(t);
        }
    }
    // Gates and roles per (rank, collective).
    const std::size_t cells = static_cast<std::size_t>(n) * nc;
    p.involve.assign(cells, 0);
    std::vector<uint32_t> gateCount(cells, 0);
    for (const Xfer& x : p.xfers)
    {
        ++p.involve[static_cast<std::size_t>(x.src) * nc + x.collective];
        ++p.involve[static_cast<std::size_t>(x.dst) * nc + x.collective];
        ++gateCount[static_cast<std::size_t>(x.src) * nc + x.collective];
        if (m_waitForReceiver)
        {
            ++gateCount[static_cast<std::size_t>(x.dst) * nc + x.collective];
        }
    }
    p.gateBegin.assign(cells + 1, 0);
    for (std::size_t i = 0; i < cells; ++i)
    {
        p.gateBegin[i + 1] = p.gateBegin[i] + gateCount[i];
    }
    p.gates.resize(p.gateBegin[cells]);
    std::vector<uint32_t> fill(p.gateBegin.begin(), p.gateBegin.end() - 1);
    for (std::size_t t = 0; t < total; ++t)
    {
        const Xfer& x = p.xfers[t];
        p.gates[fill[static_cast<std::size_t>(x.src) * nc + x.collective]++]
            = static_cast<uint32_t>(t);
        if (m_waitForReceiver)
        {
            p.gates[fill[static_cast<std::size_t>(x.dst) * nc + x.collective]++]
                = static_cast<uint32_t>(t);
        }
    }
    return p;
}

void
MrcTrainingJob::Install(Ptr<MrcClosTopology> topology)
{
    NS_ABORT_MSG_IF(m_installed, "MrcTrainingJob: Install called twice");
    NS_ABORT_MSG_IF(m_hosts.empty(), "MrcTrainingJob: SetRanks before Install");
    NS_ABORT_MSG_IF(!topology, "MrcTrainingJob: Install needs the fabric");
    const MrcClosTopology& fabric = *topology;
    const auto n = static_cast<uint32_t>(m_hosts.size());
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> connOf;
    NS_ABORT_MSG_IF(m_hasProgram && (m_hasReplay || !m_specs.empty()),
                    "MrcTrainingJob: a job runs either collectives, a transfer list or a program");
    if (m_hasProgram)
    {
        InstallProgram(connOf, fabric);
    }
    else if (m_hasReplay)
    {
        NS_ABORT_MSG_IF(!m_specs.empty(),
                        "MrcTrainingJob: a job runs either collectives or a transfer list");
        NS_ABORT_MSG_IF(m_replay.nRanks > n,
                        "MrcTrainingJob: the transfer list uses " << m_replay.nRanks
                                                                  << " ranks, the job has " << n);
        for (const auto& step : m_replay.steps)
        {
            m_plans.push_back(MakePlan({step}, {REPLAY_NAME}, connOf, fabric));
        }
        if (m_plans.empty())
        {
            m_plans.push_back(MakePlan({}, {}, connOf, fabric));
        }
    }
    else
    {
        std::vector<std::vector<MrcTransfer>> dags;
        std::vector<const char*> names;
        for (const auto& s : m_specs)
        {
            if (s.customPairs)
            {
                for (const auto& pr : s.pairs)
                {
                    NS_ABORT_MSG_IF(pr.first >= n || pr.second >= n,
                                    "MrcTrainingJob: sendrecv pair names a rank >= " << n);
                }
                dags.push_back(MrcCollective::SendRecv(s.pairs, s.bytes, s.chunks, s.qps));
            }
            else
            {
                if (s.type == MrcCollective::HIERARCHICAL_ALLREDUCE)
                {
                    const std::string err = MrcCollective::CheckGroupSize(n, s.groupSize);
                    NS_ABORT_MSG_IF(!err.empty(),
                                    "MrcTrainingJob: hierarchical-allreduce: " << err);
                }
                dags.push_back(
                    MrcCollective::Build(s.type, n, s.bytes, s.chunks, s.qps, s.groupSize));
            }
            names.push_back(MrcCollective::TypeName(s.type));
        }
        m_plans.push_back(MakePlan(dags, names, connOf, fabric));
    }
    m_bytesSent.assign(n, 0);
    m_bytesReceived.assign(n, 0);
    m_extraCompute.resize(n, Seconds(0));
    m_computeEvents.resize(n);
    m_installed = true;
    NS_LOG_INFO("job " << m_jobId << " (" << m_name << "): " << n << " ranks, " << m_conns.size()
                       << " queue pair pairs, " << m_plans.size() << " plan(s), "
                       << m_plans[0].xfers.size() << " transfers in the first");
}

void
MrcTrainingJob::InstallProgram(std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>& connOf,
                               const MrcClosTopology& fabric)
{
    const auto n = static_cast<uint32_t>(m_hosts.size());
    const MrcJobProgram& prog = m_program;
    NS_ABORT_MSG_IF(prog.ranks.size() != n,
                    "MrcTrainingJob: the program has " << prog.ranks.size() << " ranks, the job "
                                                       << n);
    std::vector<std::vector<MrcTransfer>> dags;
    std::vector<const char*> names;
    for (const MrcProgramOp& op : prog.ops)
    {
        if (op.p2p)
        {
            NS_ABORT_MSG_IF(op.src >= n || op.dst >= n || op.src == op.dst,
                            "MrcTrainingJob: p2p operation from rank " << op.src << " to "
                                                                       << op.dst);
            dags.push_back({MrcTransfer{0, op.src, op.dst, op.bytes, 0, 0, 0, {}}});
            names.push_back(P2P_NAME);
        }
        else
        {
            dags.push_back(
                MrcCollective::Build(op.type, n, op.bytes, prog.chunks, prog.qpsPerPeer));
            names.push_back(MrcCollective::TypeName(op.type));
        }
    }
    Plan p = MakePlan(dags, names, connOf, fabric);
    const uint32_t nc = p.nCollectives;
    p.opNode.assign(static_cast<std::size_t>(n) * nc, NO_NODE);
    p.nodeBegin.assign(n + 1, 0);
    std::vector<std::vector<uint32_t>> kids;
    for (uint32_t r = 0; r < n; ++r)
    {
        const auto& nodes = prog.ranks[r];
        const auto base = static_cast<uint32_t>(p.nodes.size());
        p.nodeBegin[r] = base;
        for (std::size_t i = 0; i < nodes.size(); ++i)
        {
            const MrcProgramNode& nd = nodes[i];
            const auto self = static_cast<uint32_t>(p.nodes.size());
            uint32_t op = NO_NODE;
            if (!nd.compute)
            {
                NS_ABORT_MSG_IF(nd.op >= nc,
                                "MrcTrainingJob: node " << nd.sourceId << " of rank " << r
                                                        << " names operation " << nd.op);
                const std::size_t cell = static_cast<std::size_t>(r) * nc + nd.op;
                NS_ABORT_MSG_IF(p.opNode[cell] != NO_NODE,
                                "MrcTrainingJob: rank " << r << " has two nodes for operation "
                                                        << nd.op);
                p.opNode[cell] = self;
                op = nd.op;
            }
            p.nodes.push_back({r, op, nd.duration, 0, 0, 0});
            kids.emplace_back();
            for (uint32_t d : nd.deps)
            {
                NS_ABORT_MSG_IF(d >= nodes.size() || d == i,
                                "MrcTrainingJob: node " << nd.sourceId << " of rank " << r
                                                        << " depends on node index " << d);
                kids[base + d].push_back(self);
                ++p.nodes[self].deps;
            }
        }
    }
    p.nodeBegin[n] = static_cast<uint32_t>(p.nodes.size());
    for (std::size_t cell = 0; cell < p.opNode.size(); ++cell)
    {
        NS_ABORT_MSG_IF(p.involve[cell] > 0 && p.opNode[cell] == NO_NODE,
                        "MrcTrainingJob: rank " << cell / nc << " takes part in operation "
                                                << cell % nc << " but has no node for it");
    }
    for (std::size_t i = 0; i < p.nodes.size(); ++i)
    {
        p.nodes[i].childBegin = static_cast<uint32_t>(p.children.size());
        p.children.insert(p.children.end(), kids[i].begin(), kids[i].end());
        p.nodes[i].childEnd = static_cast<uint32_t>(p.children.size());
    }
    m_plans.push_back(std::move(p));
}

void
MrcTrainingJob::Start(Time at)
{
    NS_ABORT_MSG_IF(!m_installed, "MrcTrainingJob: Install before Start");
    NS_ABORT_MSG_IF(at < Simulator::Now(), "MrcTrainingJob: Start in the past");
    NS_ABORT_MSG_IF(m_started, "MrcTrainingJob: Start called twice");
    m_started = true;
    m_step = 0;
    m_startEvent = Simulator::Schedule(at - Simulator::Now(), &MrcTrainingJob::StartStep, this);
}

void
MrcTrainingJob::StartStep()
{
    m_plan = &m_plans[m_step % m_plans.size()];
    const Plan& p = *m_plan;
    const auto n = static_cast<uint32_t>(m_hosts.size());
    const std::size_t nx = p.xfers.size();
    m_conds.resize(nx);
    for (std::size_t t = 0; t < nx; ++t)
    {
        m_conds[t] = p.xfers[t].conds;
    }
    m_state.assign(nx, 0);
    m_postedAt.resize(nx);
    m_receivedAt.resize(nx);
    m_left = p.involve;
    m_rankAt.assign(n, COMPUTING);
    m_ready.clear();
    m_ranksDone = 0;
    BeginStep();
    m_immParity = (m_step & 1) != 0 ? PARITY_BIT : 0;
    if (m_hasProgram)
    {
        m_nodeDeps.resize(p.nodes.size());
        for (std::size_t i = 0; i < p.nodes.size(); ++i)
        {
            m_nodeDeps[i] = p.nodes[i].deps;
        }
        m_nodesLeft.resize(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            m_nodesLeft[r] = p.nodeBegin[r + 1] - p.nodeBegin[r];
        }
        m_entered.assign(p.involve.size(), 0);
        m_computeQ.assign(n, {});
        m_computeBusy.assign(n, 0);
    }
    m_running = true;
    for (uint32_t r = 0; r < n; ++r)
    {
        const Time d = DrawComputeTime(r);
        m_computeEnd = std::max(m_computeEnd, m_stepStart + d);
        m_computeEvents[r] = Simulator::Schedule(d, &MrcTrainingJob::ComputeDone, this, r);
    }
    NS_LOG_LOGIC("job " << m_jobId << " step " << m_step << " starts; compute ends by "
                        << m_computeEnd.As(Time::US));
}

void
MrcTrainingJob::ComputeDone(uint32_t rank)
{
    if (m_hasProgram)
    {
        const Plan& p = *m_plan;
        if (m_nodesLeft[rank] == 0)
        {
            RankDone(rank);
            return;
        }
        for (uint32_t i = p.nodeBegin[rank]; i < p.nodeBegin[rank + 1]; ++i)
        {
            if (p.nodes[i].deps == 0)
            {
                NodeReady(i);
            }
        }
        Drain();
        return;
    }
    Enter(rank, 0);
    Drain();
}

void
MrcTrainingJob::NodeReady(uint32_t node)
{
    const Plan& p = *m_plan;
    const PNode& nd = p.nodes[node];
    if (nd.op == NO_NODE)
    {
        m_computeQ[nd.rank].push_back(node);
        RunCompute(nd.rank);
        return;
    }
    const std::size_t cell = static_cast<std::size_t>(nd.rank) * p.nCollectives + nd.op;
    m_entered[cell] = 1;
    for (uint32_t g = p.gateBegin[cell]; g < p.gateBegin[cell + 1]; ++g)
    {
        Satisfy(p.gates[g]);
    }
    if (m_left[cell] == 0)
    {
        NodeDone(node);
    }
}

void
MrcTrainingJob::RunCompute(uint32_t rank)
{
    if (m_computeBusy[rank] != 0 || m_computeQ[rank].empty())
    {
        return;
    }
    const uint32_t node = m_computeQ[rank].front();
    m_computeQ[rank].pop_front();
    m_computeBusy[rank] = 1;
    m_computeEvents[rank] = Simulator::Schedule(
        m_plan->nodes[node].duration, &MrcTrainingJob::ComputeNodeDone, this, rank, node);
}

void
MrcTrainingJob::ComputeNodeDone(uint32_t rank, uint32_t node)
{
    if (!m_running)
    {
        return; // the job failed
    }
    m_computeBusy[rank] = 0;
    m_computeEnd = std::max(m_computeEnd, Simulator::Now());
    NodeDone(node);
    if (m_running)
    {
        RunCompute(rank);
        Drain();
    }
}

void
MrcTrainingJob::NodeDone(uint32_t node)
{
    const Plan& p = *m_plan;
    const PNode& nd = p.nodes[node];
    for (uint32_t k = nd.childBegin; k < nd.childEnd; ++k)
    {
        const uint32_t child = p.children[k];
        if (--m_nodeDeps[child] == 0)
        {
            NodeReady(child);
        }
    }
    if (--m_nodesLeft[nd.rank] == 0)
    {
        RankDone(nd.rank);
    }
}

void
MrcTrainingJob::RankDone(uint32_t rank)
{
    m_lastRank = rank;
    if (++m_ranksDone == m_hosts.size())
    {
        EndStep();
    }
}

void
MrcTrainingJob::Enter(uint32_t rank, uint32_t c)
{
    const Plan& p = *m_plan;
    const uint32_t nc = p.nCollectives;
    while (true)
    {
        m_rankAt[rank] = c;
        if (c == nc)
        {
            RankDone(rank);
            return;
        }
        const std::size_t cell = static_cast<std::size_t>(rank) * nc + c;
        for (uint32_t g = p.gateBegin[cell]; g < p.gateBegin[cell + 1]; ++g)
        {
            Satisfy(p.gates[g]);
        }
        if (m_left[cell] > 0)
        {
            return;
        }
        ++c;
    }
}

void
MrcTrainingJob::RoleDone(uint32_t rank, uint32_t c)
{
    const std::size_t cell = static_cast<std::size_t>(rank) * m_plan->nCollectives + c;
    if (--m_left[cell] != 0)
    {
        return;
    }
    if (m_hasProgram)
    {
        if (m_entered[cell] != 0)
        {
            NodeDone(m_plan->opNode[cell]);
        }
    }
    else if (m_rankAt[rank] == c)
    {
        Enter(rank, c + 1);
    }
}

void
MrcTrainingJob::Satisfy(uint32_t t)
{
    if (--m_conds[t] == 0)
    {
        m_ready.push_back(t);
    }
}

void
MrcTrainingJob::Drain()
{
    if (m_draining)
    {
        return;
    }
    m_draining = true;
    // A post on a failed queue pair completes at once: its handlers append to m_ready while
    // this loop runs, hence the index.
    for (std::size_t i = 0; i < m_ready.size(); ++i)
    {
        const uint32_t t = m_ready[i];
        const Xfer& x = m_plan->xfers[t];
        Conn& conn = m_conns[x.conn];
        m_state[t] |= POSTED;
        m_postedAt[t] = Simulator::Now();
        conn.fifo.push_back(t);
        conn.tx->PostWriteImm(x.bytes, 0, t | m_immParity);
    }
    m_ready.clear();
    m_draining = false;
}

void
MrcTrainingJob::Release(uint32_t t)
{
    const Xfer& x = m_plan->xfers[t];
    m_state[t] |= RECEIVED;
    m_receivedAt[t] = Simulator::Now();
    for (uint32_t d = x.depBegin; d < x.depEnd; ++d)
    {
        Satisfy(m_plan->dependents[d]);
    }
    RoleDone(x.dst, x.collective);
}

void
MrcTrainingJob::OnSendComplete(uint32_t conn, const MrcCompletion& c)
{
    Conn& cn = m_conns[conn];
    if (IsFailed())
    {
        return; // the job is gone; its QPs drain
    }
    if (!m_running || cn.fifo.empty())
    {
        NS_LOG_WARN("job " << m_jobId << ": unexpected send completion on connection " << conn);
        return;
    }
    const uint32_t t = cn.fifo.front();
    cn.fifo.pop_front();
    const Xfer& x = m_plan->xfers[t];
    m_state[t] |= SENT;
    if (c.status == MrcQueuePair::SUCCESS)
    {
        m_bytesSent[x.src] += x.bytes;
    }
    else
    {
        NS_LOG_INFO("job " << m_jobId << " step " << m_step << ": transfer " << x.id << " rank "
                           << x.src << " -> " << x.dst << " failed, status "
                           << static_cast<int>(c.status));
    }
    const bool received = (m_state[t] & RECEIVED) != 0;
    if (!received)
    {
        // A failed transfer releases its dependents now; a successful one has always been
        // received before its last acknowledgement came back.
        NS_LOG_LOGIC("transfer " << t << " completes without a receive completion");
        m_state[t] |= RECEIVED;
        m_receivedAt[t] = Simulator::Now();
    }
    const MrcTransferRecord rec{m_jobId,
                                m_step,
                                x.collective,
                                m_plan->names[x.collective],
                                x.id,
                                x.src,
                                x.dst,
                                m_hosts[x.src],
                                m_hosts[x.dst],
                                cn.tx->GetQpn(),
                                x.bytes,
                                m_postedAt[t],
                                m_receivedAt[t],
                                Simulator::Now(),
                                c.status};
    RecordTransfer(rec);
    if (c.status != MrcQueuePair::SUCCESS && m_abortOnFailure)
    {
        Fail();
        return;
    }
    if (!received)
    {
        for (uint32_t d = x.depBegin; d < x.depEnd; ++d)
        {
            Satisfy(m_plan->dependents[d]);
        }
        RoleDone(x.dst, x.collective);
    }
    RoleDone(x.src, x.collective);
    Drain();
}

void
MrcTrainingJob::OnRecvComplete(uint32_t conn, const MrcCompletion& c)
{
    const uint32_t t = c.imm & ~PARITY_BIT;
    if (!m_running || !c.hasImm || (c.imm & PARITY_BIT) != m_immParity || t >= m_plan->xfers.size()
        || m_plan->xfers[t].conn != conn || (m_state[t] & (POSTED | RECEIVED)) != POSTED)
    {
        // The late arrival of a message whose sender already gave up.
        NS_LOG_LOGIC("job " << m_jobId << ": stale receive completion on connection " << conn);
        return;
    }
    m_bytesReceived[m_plan->xfers[t].dst] += c.bytes;
    Release(t);
    Drain();
}

void
MrcTrainingJob::EndStep()
{
    m_running = false;
    if (CompleteStep())
    {
        m_startEvent = Simulator::ScheduleNow(&MrcTrainingJob::StartStep, this);
    }
}

void
MrcTrainingJob::Fail()
{
    MarkFailed();
    m_running = false;
    m_startEvent.Cancel();
    NS_LOG_INFO("job " << m_jobId << " failed in step " << m_step << " at "
                       << Simulator::Now().As(Time::US));
    m_jobFailedTrace(m_jobId, m_step, GetFailedTransfers());
    NotifyJobComplete();
}

uint64_t
MrcTrainingJob::GetBytesSent(uint32_t rank) const
{
    return rank < m_bytesSent.size() ? m_bytesSent[rank] : 0;
}

uint64_t
MrcTrainingJob::GetBytesReceived(uint32_t rank) const
{
    return rank < m_bytesReceived.size() ? m_bytesReceived[rank] : 0;
}

uint32_t
MrcTrainingJob::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_conns.size());
}

uint32_t
MrcTrainingJob::GetTransfersPerStep() const
{
    return m_plans.empty() ? 0 : static_cast<uint32_t>(m_plans[0].xfers.size());
}

} // namespace ns3
