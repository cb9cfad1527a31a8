/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_JOB_H
#define MRC_JOB_H

#include "ns3/mrc-job-records.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief What every synchronous training job shares, at packet level (MrcTrainingJob) or flow
 * level (MrcFluidJob): its ranks and their hosts, the step loop's parameters (Steps,
 * ComputeTime, ComputeJitter, per-rank extra compute), the records it emits and the traces
 * that report them, and its counters.
 *
 * A step starts with every rank's compute phase (ComputeTime, plus the rank's extra compute,
 * plus a draw uniform in [0, ComputeJitter), independently per rank and step); the step ends
 * when the subclass says its communication is over. Every finished transfer gives one
 * MrcTransferRecord (TransferComplete), every step one MrcStepRecord (StepComplete), and the
 * job one JobComplete when every step is done or it failed.
 */
class MrcJob : public Object
{
public:
    /**
     * Signature of the TransferComplete trace.
     * @param r the record
     */
    typedef void (*TransferTracedCallback)(const MrcTransferRecord& r);
    /**
     * Signature of the StepComplete trace.
     * @param r the record
     */
    typedef void (*StepTracedCallback)(const MrcStepRecord& r);
    /**
     * Signature of the JobComplete trace.
     * @param job job id
     * @param steps steps completed
     * @param failures failed transfers over the whole job
     */
    typedef void (*JobTracedCallback)(uint32_t job, uint32_t steps, uint64_t failures);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcJob();
    ~MrcJob() override;

    /** @param hosts the fabric host of every rank (distinct) */
    void SetRanks(const std::vector<uint32_t>& hosts);
    /**
     * Make a rank slower: extra compute time in every step (a straggler).
     * @param rank the rank
     * @param extra added to its compute time
     */
    void SetRankExtraCompute(uint32_t rank, Time extra);
    /**
     * Start step 0.
     * @param at absolute simulation time (>= now)
     */
    virtual void Start(Time at) = 0;
    /**
     * Assign the random stream of the compute jitter.
     * @param stream the stream
     * @return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /** @return the job id */
    uint32_t GetJobId() const;
    /** @return the job's name */
    const std::string& GetName() const;
    /** @return the host of every rank */
    const std::vector<uint32_t>& GetRanks() const;
    /** @return steps completed */
    uint32_t GetStepsCompleted() const;
    /** @return true once every step is done */
    bool IsComplete() const;
    /** @return true once the job failed */
    bool IsFailed() const;
    /** @return when the job failed (0 if it did not) */
    Time GetFailureTime() const;
    /** @return transfer records emitted (failed ones included) */
    uint64_t GetTransfersCompleted() const;
    /** @return failed transfers */
    uint64_t GetFailedTransfers() const;
    /** @return transfer records per step (of the first step's plan) */
    virtual uint32_t GetTransfersPerStep() const = 0;
    /** @return every transfer record, if KeepRecords */
    const std::vector<MrcTransferRecord>& GetTransferRecords() const;
    /** @return every step record */
    const std::vector<MrcStepRecord>& GetStepRecords() const;

protected:
    void DoDispose() override;

    /**
     * Begin a step's bookkeeping: its start is now, no transfers yet.
     */
    void BeginStep();
    /**
     * @param rank a rank
     * @return its compute phase this step (draws the jitter)
     */
    Time DrawComputeTime(uint32_t rank);
    /**
     * Count a finished transfer (and a failure, unless its status is SUCCESS), keep its
     * record if KeepRecords, and fire TransferComplete.
     * @param rec the record
     */
    void RecordTransfer(const MrcTransferRecord& rec);
    /**
     * End the current step: record it, fire StepComplete, and either advance m_step (more
     * steps to run) or fire JobComplete.
     * @return true if another step is to run
     */
    bool CompleteStep();
    /**
     * Mark the job failed now.
     */
    void MarkFailed();
    /** Fire JobComplete with the current counts. */
    void NotifyJobComplete();

    uint32_t m_jobId;                 //!< JobId attribute
    std::string m_name;               //!< Name attribute
    uint32_t m_steps;                 //!< Steps attribute
    Time m_compute;                   //!< ComputeTime attribute
    Time m_jitter;                    //!< ComputeJitter attribute
    bool m_keepRecords;               //!< KeepRecords attribute
    std::vector<uint32_t> m_hosts;    //!< host of every rank
    std::vector<Time> m_extraCompute; //!< per rank
    bool m_installed;                 //!< Install done
    uint32_t m_step;                  //!< current step
    Time m_stepStart;                 //!< its start
    Time m_computeEnd;                //!< the latest compute end of its ranks
    uint32_t m_lastRank;              //!< the rank that finished compute last
    uint32_t m_stepTransfers;         //!< transfers finished in the step
    uint32_t m_stepFailures;          //!< failed ones

private:
    Ptr<UniformRandomVariable> m_jitterRng;                   //!< compute jitter
    uint32_t m_stepsDone;                                     //!< completed steps
    uint64_t m_transfers;                                     //!< records in all
    uint64_t m_failures;                                      //!< failed in all
    bool m_failed;                                            //!< the job failed
    Time m_failedAt;                                          //!< when
    std::vector<MrcTransferRecord> m_records;                 //!< kept transfer records
    std::vector<MrcStepRecord> m_stepRecords;                 //!< step records
    TracedCallback<const MrcTransferRecord&> m_transferTrace; //!< TransferComplete
    TracedCallback<const MrcStepRecord&> m_stepTrace;         //!< StepComplete
    TracedCallback<uint32_t, uint32_t, uint64_t> m_jobTrace;  //!< JobComplete
};

} // namespace ns3

#endif /* MRC_JOB_H */
