/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-job.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcJob");
NS_OBJECT_ENSURE_REGISTERED(MrcJob);

TypeId
MrcJob::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcJob")
              .SetParent<Object>()
              .SetGroupName("Mrc")
              .AddAttribute("JobId",
                            "Identifier carried in the job's records",
                            UintegerValue(0),
                            MakeUintegerAccessor(&MrcJob::m_jobId),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Name",
                            "A name for output",
                            StringValue("job"),
                            MakeStringAccessor(&MrcJob::m_name),
                            MakeStringChecker())
              .AddAttribute("Steps",
                            "Training steps to run",
                            UintegerValue(1),
                            MakeUintegerAccessor(&MrcJob::m_steps),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ComputeTime",
                            "Compute phase of every rank in every step",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&MrcJob::m_compute),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ComputeJitter",
                            "Each rank's compute phase is longer by a draw uniform in [0, jitter), "
                            "independently per rank and step",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&MrcJob::m_jitter),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("KeepRecords",
                            "Keep every transfer record in memory (GetTransferRecords)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&MrcJob::m_keepRecords),
                            MakeBooleanChecker())
              .AddTraceSource("TransferComplete",
                              "A transfer finished (packet level: its send completion; flow "
                              "level: one record per edge of a flow group)",
                              MakeTraceSourceAccessor(&MrcJob::m_transferTrace),
                              "ns3::MrcJob::TransferTracedCallback")
              .AddTraceSource("StepComplete",
                              "A step finished (every rank finished its communication)",
                              MakeTraceSourceAccessor(&MrcJob::m_stepTrace),
                              "ns3::MrcJob::StepTracedCallback")
              .AddTraceSource("JobComplete",
                              "Every step finished, or the job failed (IsFailed tells)",
                              MakeTraceSourceAccessor(&MrcJob::m_jobTrace),
                              "ns3::MrcJob::JobTracedCallback");
    return tid;
}

MrcJob::MrcJob()
    : m_jobId(0)
    , m_steps(1)
    , m_keepRecords(false)
    , m_installed(false)
    , m_step(0)
    , m_lastRank(0)
    , m_stepTransfers(0)
    , m_stepFailures(0)
    , m_stepsDone(0)
    , m_transfers(0)
    , m_failures(0)
    , m_failed(false)
{
    m_jitterRng = CreateObject<UniformRandomVariable>();
}

MrcJob::~MrcJob() = default;

void
MrcJob::DoDispose()
{
    m_jitterRng = nullptr;
    Object::DoDispose();
}

void
MrcJob::SetRanks(const std::vector<uint32_t>& hosts)
{
    NS_ABORT_MSG_IF(m_installed, "MrcJob: SetRanks after Install");
    std::vector<uint32_t> sorted = hosts;
    std::sort(sorted.begin(), sorted.end());
    NS_ABORT_MSG_IF(std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end(),
                    "MrcJob: a host holds two ranks of one job");
    m_hosts = hosts;
    m_extraCompute.resize(hosts.size(), Seconds(0));
}

void
MrcJob::SetRankExtraCompute(uint32_t rank, Time extra)
{
    NS_ABORT_MSG_IF(rank >= m_hosts.size(), "MrcJob: SetRanks before SetRankExtraCompute");
    m_extraCompute[rank] = extra;
}

int64_t
MrcJob::AssignStreams(int64_t stream)
{
    m_jitterRng->SetStream(stream);
    return 1;
}

void
MrcJob::BeginStep()
{
    m_stepStart = Simulator::Now();
    m_computeEnd = m_stepStart;
    m_stepTransfers = 0;
    m_stepFailures = 0;
    m_lastRank = 0;
}

Time
MrcJob::DrawComputeTime(uint32_t rank)
{
    Time d = m_compute + m_extraCompute[rank];
    const int64_t jitter = m_jitter.GetTimeStep();
    if (jitter > 0)
    {
        d += TimeStep(static_cast<uint64_t>(m_jitterRng->GetValue(0.0, 1.0) * jitter));
    }
    return d;
}

void
MrcJob::RecordTransfer(const MrcTransferRecord& rec)
{
    ++m_transfers;
    ++m_stepTransfers;
    if (rec.status != 0) // not MrcQueuePair::SUCCESS
    {
        ++m_failures;
        ++m_stepFailures;
    }
    if (m_keepRecords)
    {
        m_records.push_back(rec);
    }
    m_transferTrace(rec);
}

bool
MrcJob::CompleteStep()
{
    const MrcStepRecord rec{m_jobId,
                            m_step,
                            m_stepStart,
                            m_computeEnd,
                            Simulator::Now(),
                            m_lastRank,
                            m_stepTransfers,
                            m_stepFailures};
    m_stepRecords.push_back(rec);
    ++m_stepsDone;
    NS_LOG_INFO("job " << m_jobId << " step " << m_step << " done at " << rec.end.As(Time::US)
                       << " (" << (rec.end - rec.start).As(Time::US) << "), slowest rank "
                       << m_lastRank);
    m_stepTrace(rec);
    if (m_stepsDone < m_steps)
    {
        ++m_step;
        return true;
    }
    NotifyJobComplete();
    return false;
}

void
MrcJob::MarkFailed()
{
    m_failed = true;
    m_failedAt = Simulator::Now();
}

void
MrcJob::NotifyJobComplete()
{
    m_jobTrace(m_jobId, m_stepsDone, m_failures);
}

uint32_t
MrcJob::GetJobId() const
{
    return m_jobId;
}

const std::string&
MrcJob::GetName() const
{
    return m_name;
}

const std::vector<uint32_t>&
MrcJob::GetRanks() const
{
    return m_hosts;
}

uint32_t
MrcJob::GetStepsCompleted() const
{
    return m_stepsDone;
}

bool
MrcJob::IsComplete() const
{
    return m_stepsDone >= m_steps;
}

bool
MrcJob::IsFailed() const
{
    return m_failed;
}

Time
MrcJob::GetFailureTime() const
{
    return m_failedAt;
}

uint64_t
MrcJob::GetTransfersCompleted() const
{
    return m_transfers;
}

uint64_t
MrcJob::GetFailedTransfers() const
{
    return m_failures;
}

const std::vector<MrcTransferRecord>&
MrcJob::GetTransferRecords() const
{
    return m_records;
}

const std::vector<MrcStepRecord>&
MrcJob::GetStepRecords() const
{
    return m_stepRecords;
}

} // namespace ns3
