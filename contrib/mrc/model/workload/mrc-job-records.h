/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_JOB_RECORDS_H
#define MRC_JOB_RECORDS_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief One finished transfer of a training job (the TransferComplete trace of MrcTrainingJob and
 * MrcFluidJob).
 */
struct MrcTransferRecord
{
    uint32_t job;               //!< job id
    uint32_t step;              //!< step
    uint32_t collective;        //!< index of the collective within the step (0 for a replay)
    const char* collectiveType; //!< its type name ("replay" for a transfer list); static string
    uint32_t transfer;          //!< transfer id within the collective (a replay: the row id)
    uint32_t srcRank;           //!< sending rank
    uint32_t dstRank;           //!< receiving rank
    uint32_t srcHost;           //!< sending host
    uint32_t dstHost;           //!< receiving host
    uint32_t qp;                //!< local QPN of the sending queue pair
    uint64_t bytes;             //!< message length
    Time start;                 //!< when posted
    Time received;              //!< receive completion (failed: when dependents were released)
    Time end;                   //!< the sender's send completion
    uint8_t status;             //!< MrcQueuePair::Status of the send completion

    /**
     * The transfer's throughput as flows.csv reports it: its bytes over the time from the post
     * to the send completion.
     * @return Gb/s, or 0 if no time passed
     */
    double GetGbps() const
    {
        const double us = (end - start).GetNanoSeconds() / 1000.0;
        return us > 0 ? bytes * 8.0 / (us * 1e3) : 0;
    }
};

/**
 * @ingroup mrc
 * @brief One finished step of a training job (the StepComplete trace of MrcTrainingJob and
 * MrcFluidJob).
 */
struct MrcStepRecord
{
    uint32_t job;         //!< job id
    uint32_t step;        //!< step
    Time start;           //!< step start (every rank starts computing)
    Time computeEnd;      //!< the last rank's end of compute
    Time end;             //!< the last rank's end of its last collective (the barrier)
    uint32_t slowestRank; //!< the rank that finished last
    uint32_t transfers;   //!< transfers completed in the step
    uint32_t failures;    //!< of which failed
};

} // namespace ns3

#endif /* MRC_JOB_RECORDS_H */
