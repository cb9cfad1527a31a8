/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fluid-job.h"

#include "ns3/mrc-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFluidJob");
NS_OBJECT_ENSURE_REGISTERED(MrcFluidJob);

TypeId
MrcFluidJob::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFluidJob")
                            .SetParent<MrcJob>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFluidJob>();
    return tid;
}

MrcFluidJob::MrcFluidJob()
    : m_stage(0)
    , m_groupsLeft(0)
    , m_perStep(0)
{
}

MrcFluidJob::~MrcFluidJob() = default;

void
MrcFluidJob::DoDispose()
{
    m_event.Cancel();
    m_net = nullptr;
    MrcJob::DoDispose();
}

void
MrcFluidJob::AddCollective(MrcCollective::Type type,
                           uint64_t bytes,
                           uint32_t chunks,
                           uint32_t groupSize)
{
    NS_ABORT_MSG_IF(bytes == 0 || chunks == 0, "MrcFluidJob: bytes and chunks must be >= 1");
    m_specs.push_back({type, bytes, chunks, groupSize, {}, false});
}

void
MrcFluidJob::AddSendRecv(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint64_t bytes)
{
    NS_ABORT_MSG_IF(bytes == 0, "MrcFluidJob: bytes must be >= 1");
    m_specs.push_back({MrcCollective::SENDRECV, bytes, 1, 0, pairs, true});
}

MrcFluidJob::GroupPlan
MrcFluidJob::Ring(const std::vector<uint32_t>& ranks,
                  bool ring,
                  uint32_t rounds,
                  uint64_t segment,
                  uint32_t chunks,
                  uint64_t recordBytes) const
{
    GroupPlan g;
    const auto n = static_cast<uint32_t>(ranks.size());
    for (uint32_t i = 0; i + (ring ? 0 : 1) < n; ++i)
    {
        const uint32_t a = ranks[i];
        const uint32_t b = ranks[(i + 1) % n];
        g.edges.push_back({m_hosts[a], m_hosts[b]});
        g.rankEdges.emplace_back(a, b);
    }
    // Pipelined rounds: (R + C - 1) chunk times and latencies.
    const uint32_t slots = rounds + chunks - 1;
    g.bytes = double(slots) * double(segment) / chunks;
    g.recordBytes = recordBytes;
    g.latencies = slots + 1; // + the last acknowledgement
    g.chained = true;
    return g;
}

void
MrcFluidJob::Install(Ptr<MrcFluidNetwork> network)
{
    NS_ABORT_MSG_IF(m_installed, "MrcFluidJob: Install called twice");
    m_installed = true;
    m_net = network;
    const auto n = static_cast<uint32_t>(m_hosts.size());
    NS_ABORT_MSG_IF(n == 0, "MrcFluidJob: SetRanks first");
    m_stages.clear();
    std::vector<uint32_t> all(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        all[r] = r;
    }
    for (uint32_t c = 0; c < m_specs.size(); ++c)
    {
        const Spec& s = m_specs[c];
        const char* name = MrcCollective::TypeName(s.type);
        const uint64_t seg = MrcCollective::Share(s.bytes, std::max(n, 1u), 0);
        auto one = [&](GroupPlan g)
        {
            if (!g.edges.empty())
            {
                m_stages.push_back({c, name, {std::move(g)}});
            }
        };
        switch (s.type)
        {
            case MrcCollective::RING_ALLREDUCE:
                if (n > 1)
                {
                    one(Ring(all,
                             true,
                             MrcCollective::Rounds(s.type, n),
                             seg,
                             s.chunks,
                             MrcCollective::BytesSent(s.type, n, s.bytes, 0)));
                }
                break;
            case MrcCollective::ALLGATHER:
            case MrcCollective::REDUCE_SCATTER:
                if (n > 1)
                {
                    one(Ring(all,
                             true,
                             MrcCollective::Rounds(s.type, n),
                             seg,
                             s.chunks,
                             MrcCollective::BytesSent(s.type, n, s.bytes, 0)));
                }
                break;
            case MrcCollective::BROADCAST:
                if (n > 1)
                {
                    one(Ring(all, false, n - 1, s.bytes, s.chunks, s.bytes));
                }
                break;
            case MrcCollective::ALLTOALL:
            {
                GroupPlan g;
                for (uint32_t a = 0; a < n; ++a)
                {
                    for (uint32_t b = 0; b < n; ++b)
                    {
                        if (a != b)
                        {
                            g.edges.push_back({m_hosts[a], m_hosts[b]});
                            g.rankEdges.emplace_back(a, b);
                        }
                    }
                }
                g.bytes = double(seg);
                g.recordBytes = seg;
                g.latencies = 2;
                g.chained = false;
                one(std::move(g));
                break;
            }
            case MrcCollective::SENDRECV:
            {
                std::vector<std::pair<uint32_t, uint32_t>> pairs = s.pairs;
                if (!s.customPairs)
                {
                    for (uint32_t a = 0; a + 1 < n; a += 2)
                    {
                        pairs.emplace_back(a, a + 1);
                    }
                }
                GroupPlan g;
                for (const auto& p : pairs)
                {
                    NS_ABORT_MSG_IF(p.first >= n || p.second >= n || p.first == p.second,
                                    "MrcFluidJob: bad sendrecv pair");
                    g.edges.push_back({m_hosts[p.first], m_hosts[p.second]});
                    g.rankEdges.emplace_back(p.first, p.second);
                    g.edges.push_back({m_hosts[p.second], m_hosts[p.first]});
                    g.rankEdges.emplace_back(p.second, p.first);
                }
                g.bytes = double(s.bytes);
                g.recordBytes = s.bytes;
                g.latencies = 2;
                g.chained = false;
                one(std::move(g));
                break;
            }
            case MrcCollective::HIERARCHICAL_ALLREDUCE:
            {
                const std::string err = MrcCollective::CheckGroupSize(n, s.groupSize);
                NS_ABORT_MSG_IF(!err.empty(), "MrcFluidJob: hierarchical-allreduce: " << err);
                const uint32_t gs = s.groupSize;
                const uint32_t groups = n / gs;
                const uint64_t seg1 = MrcCollective::Share(s.bytes, gs, 0);
                Stage within{c, name, {}};
                Stage across{c, name, {}};
                for (uint32_t b = 0; b < groups && gs > 1; ++b)
                {
                    std::vector<uint32_t> ranks(gs);
                    for (uint32_t i = 0; i < gs; ++i)
                    {
                        ranks[i] = b * gs + i;
                    }
                    within.groups.push_back(Ring(
                        ranks,
                        true,
                        gs - 1,
                        seg1,
                        s.chunks,
                        MrcCollective::BytesSent(MrcCollective::REDUCE_SCATTER, gs, s.bytes, 0)));
                }
                for (uint32_t i = 0; i < gs && groups > 1; ++i)
                {
                    std::vector<uint32_t> ranks(groups);
                    for (uint32_t b = 0; b < groups; ++b)
                    {
                        ranks[b] = b * gs + i;
                    }
                    const uint64_t buf = MrcCollective::Share(s.bytes, gs, i);
                    across.groups.push_back(Ring(
                        ranks,
                        true,
                        MrcCollective::Rounds(MrcCollective::RING_ALLREDUCE, groups),
                        MrcCollective::Share(buf, groups, 0),
                        s.chunks,
                        MrcCollective::BytesSent(MrcCollective::RING_ALLREDUCE, groups, buf, 0)));
                }
                if (!within.groups.empty())
                {
                    m_stages.push_back(within);
                }
                if (!across.groups.empty())
                {
                    m_stages.push_back(std::move(across));
                }
                if (!within.groups.empty())
                {
                    m_stages.push_back(std::move(within)); // the all-gather: the same rings
                }
                break;
            }
        }
    }
    // Per group, once: its records' first transfer id (ids count the edges of the collective's
    // stages) and its latency. A ring's critical path goes round the ring, one edge per round:
    // the mean latency; parallel transfers end with the slowest: the largest.
    m_perStep = 0;
    uint32_t collective = UINT32_MAX;
    uint32_t base = 0;
    for (auto& st : m_stages)
    {
        if (st.collective != collective)
        {
            collective = st.collective;
            base = 0;
        }
        for (auto& g : st.groups)
        {
            g.recordBase = base;
            base += static_cast<uint32_t>(g.edges.size());
            m_perStep += static_cast<uint32_t>(g.edges.size());
            int64_t sum = 0;
            int64_t most = 0;
            for (const auto& e : g.edges)
            {
                const int64_t l = m_net->GetOneWayLatency(e.src, e.dst).GetNanoSeconds();
                sum += l;
                most = std::max(most, l);
            }
            const auto n = static_cast<int64_t>(g.edges.size());
            g.latency = NanoSeconds(g.chained ? (sum + n / 2) / n : most);
        }
    }
}

void
MrcFluidJob::Start(Time at)
{
    NS_ABORT_MSG_IF(m_net == nullptr, "MrcFluidJob: Install first");
    m_event = Simulator::Schedule(at - Simulator::Now(), &MrcFluidJob::StartStep, this);
}

void
MrcFluidJob::StartStep()
{
    BeginStep();
    for (uint32_t r = 0; r < m_hosts.size(); ++r)
    {
        const Time d = DrawComputeTime(r);
        if (m_stepStart + d >= m_computeEnd)
        {
            m_computeEnd = m_stepStart + d;
            m_lastRank = r;
        }
    }
    m_event = Simulator::Schedule(m_computeEnd - m_stepStart, &MrcFluidJob::ComputeDone, this);
}

void
MrcFluidJob::ComputeDone()
{
    m_stage = 0;
    NextStage();
}

void
MrcFluidJob::NextStage()
{
    if (IsFailed())
    {
        return;
    }
    if (m_stage >= m_stages.size())
    {
        EndStep();
        return;
    }
    const Stage& st = m_stages[m_stage];
    m_stageStart = Simulator::Now();
    m_groupsLeft = static_cast<uint32_t>(st.groups.size());
    for (uint32_t k = 0; k < st.groups.size(); ++k)
    {
        const GroupPlan& g = st.groups[k];
        const Time lat = g.latency;
        if (g.chained)
        {
            // Every round pays its latency as it goes; the last acknowledgement at the end.
            m_net->AddGroup(g.edges,
                            g.bytes,
                            lat,
                            MakeCallback(&MrcFluidJob::GroupDone, this).Bind(k),
                            g.bytes / (g.latencies - 1),
                            lat);
        }
        else
        {
            m_net->AddGroup(g.edges,
                            g.bytes,
                            g.latencies * lat,
                            MakeCallback(&MrcFluidJob::GroupDone, this).Bind(k));
        }
    }
}

void
MrcFluidJob::GroupDone(uint32_t stageGroup, uint32_t /* id */, bool ok)
{
    if (IsFailed())
    {
        return;
    }
    const Stage& st = m_stages[m_stage];
    const GroupPlan& g = st.groups[stageGroup];
    const Time now = Simulator::Now();
    const uint32_t base = g.recordBase;
    for (uint32_t e = 0; e < g.edges.size(); ++e)
    {
        const MrcTransferRecord rec{
            m_jobId,
            m_step,
            st.collective,
            st.name,
            base + e,
            g.rankEdges[e].first,
            g.rankEdges[e].second,
            g.edges[e].src,
            g.edges[e].dst,
            0,
            g.recordBytes,
            m_stageStart,
            now,
            now,
            static_cast<uint8_t>(ok ? MrcQueuePair::SUCCESS : MrcQueuePair::RETRY_EXCEEDED)};
        RecordTransfer(rec);
    }
    if (!ok)
    {
        MarkFailed();
        NotifyJobComplete();
        return;
    }
    if (--m_groupsLeft == 0)
    {
        ++m_stage;
        NextStage();
    }
}

void
MrcFluidJob::EndStep()
{
    if (CompleteStep())
    {
        m_event = Simulator::ScheduleNow(&MrcFluidJob::StartStep, this);
    }
}

uint32_t
MrcFluidJob::GetTransfersPerStep() const
{
    return m_perStep;
}

} // namespace ns3
