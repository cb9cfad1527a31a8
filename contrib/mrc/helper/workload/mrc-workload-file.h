/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_FILE_H
#define MRC_WORKLOAD_FILE_H

#include "ns3/mrc-chakra-trace.h"
#include "ns3/mrc-collective.h"
#include "ns3/mrc-fluid-job.h"
#include "ns3/mrc-training-job.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class MrcStackHelper;

/**
 * @ingroup mrc
 * @brief One collective of a job read from a workload file.
 */
struct MrcCollectiveSpec
{
    MrcCollective::Type type = MrcCollective::RING_ALLREDUCE; //!< algorithm
    uint64_t bytes = 0;                                       //!< size
    uint32_t chunks = 1;                                      //!< chunks
    uint32_t qpsPerPeer = 1;                                  //!< queue pairs per peer
    std::vector<std::pair<uint32_t, uint32_t>> pairs{};       //!< sendrecv pairs (empty: 2i/2i+1)
    uint32_t groupSize = 0; //!< hierarchical-allreduce: ranks per group ("group_size")
};

/**
 * @ingroup mrc
 * @brief One job read from a workload file.
 */
struct MrcJobSpec
{
    std::string name{};                                               //!< name
    uint32_t ranks = 0;                                               //!< ranks
    MrcTrainingJob::Placement placement = MrcTrainingJob::CONTIGUOUS; //!< placement policy
    uint32_t steps = 1;                                               //!< steps
    Time compute{};                                                   //!< compute phase
    Time jitter{};                                                    //!< compute jitter
    Time start{};                                                     //!< start time
    std::vector<MrcCollectiveSpec> collectives{};                     //!< collectives of every step
    bool replay = false;                                              //!< runs a transfer list
    std::string transfersFile{};                                      //!< its file
    MrcTransferList transfers{};                                      //!< the list
    bool chakra = false;                                              //!< runs a Chakra trace
    std::string chakraPrefix{};                                       //!< its prefix
    MrcJobProgram program{};                                          //!< the trace, read
    std::string file{};                                               //!< the workload's name
    std::string path{};                                               //!< JSON path, "jobs[i]"
    uint32_t ranksLine = 0; //!< line of the job's "ranks" key (or of the job), for messages
};

/**
 * @ingroup mrc
 * @brief Reads workload files: a JSON job description and a CSV transfer list, and turns job
 * specs into placed, installed and started MrcTrainingJobs.
 *
 * JSON workload (units in the key names; integers where a count or a size is meant):
 * @code
 * {
 *   "description": "optional free text",
 *   "jobs": [
 *     {
 *       "name": "llm",               // optional, default "job<i>"
 *       "ranks": 64,                 // >= 1 (optional with "transfers": the list's ranks)
 *       "placement": "contiguous",   // optional: contiguous (default), interleaved, random
 *       "steps": 10,                 // optional, >= 1, default 1
 *       "compute_us": 200,           // optional, >= 0, default 0 (a number: 12.5 is fine)
 *       "jitter_us": 10,             // optional, >= 0, default 0: uniform in [0, jitter)
 *       "start_us": 0,               // optional, >= 0, default 0: after CreateJobs is called
 *       "collectives": [             // run in this order in every step
 *         {"type": "ring-allreduce", // ring-allreduce, allgather, reduce-scatter, alltoall,
 *                                    // sendrecv
 *          "bytes": 67108864,        // >= 1, as MrcCollective defines it for the type
 *          "chunks": 4,              // optional, 1..4096, default 1
 *          "qps_per_peer": 2,        // optional, 1..256, default 1
 *          "pairs": [[0, 1], [2, 3]] // sendrecv only, optional: pairs exchanging both ways
 *         }
 *       ],
 *       "transfers": "trace.csv"     // instead of "collectives": a transfer list to replay,
 *                                    // relative to the JSON file's directory
 *       "chakra": "et/dp",           // or: a Chakra execution trace, files et/dp.<rank>.et
 *                                    // (MrcChakraTrace), relative likewise; with it, optional
 *                                    // "chunks" (1..4096) and "qps_per_peer" (1..256) for its
 *                                    // collectives, and "ranks" (if given) must equal its files
 *     }
 *   ]
 * }
 * @endcode
 * Comments (// and slash-star) are accepted, as an extension of JSON. Unknown keys are errors,
 * so a misspelt key never goes unnoticed. Every job needs exactly one of "collectives",
 * "transfers" and "chakra". A single chunk may not exceed 4 GiB (the queue pair's message limit).
 *
 * CSV transfer list, for traces produced elsewhere:
 * @code
 * step,src,dst,bytes,deps
 * 0,0,1,1048576,
 * 0,1,0,1048576,
 * 0,1,2,1048576,0
 * 1,2,0,4096,
 * @endcode
 * The first line is this header. Every other line is one transfer; its row id is its position
 * among the data lines, from 0. step (>= 0), src and dst (ranks, distinct) and bytes (1 to
 * 4 GiB) are integers; deps is empty or a ';'-separated list of earlier row ids that must be
 * received before the transfer is posted. A dependency on a row of an earlier step is already
 * satisfied by the step barrier and is dropped; one on a later step is an error. The list is
 * read by MrcCsvReader: '#' starts a comment anywhere on a line, lines blank without their
 * comment are skipped (they get no row id), fields are trimmed. The list uses ranks 0 to the
 * highest rank named.
 *
 * Errors: every function returns false and sets a one-line message, never aborts, in the
 * module's one format (MrcText::Locate): `file:line: field: message`. JSON syntax errors name
 * the line; other errors name the line of the offending key when there is one, its JSON path as
 * the field (`w.json:6: jobs[0].collectives[1].bytes: must be a whole number from 1 to ...`) and
 * what is accepted. Transfer lists are read by MrcCsvReader (`trace.csv:3: deps: ...`); an
 * error in one is reported at the "transfers" key that names it.
 */
class MrcWorkloadFile
{
public:
    MrcWorkloadFile();

    /**
     * Parse a JSON workload.
     * @param text the JSON text
     * @param name the file's name, for messages
     * @param specs set to the jobs
     * @param error set to a one-line message, "name:line: path: message", on failure
     * @param baseDir directory "transfers" file names are relative to (empty: the working one)
     * @return true on success
     */
    static bool Parse(const std::string& text,
                      const std::string& name,
                      std::vector<MrcJobSpec>& specs,
                      std::string& error,
                      const std::string& baseDir = "");
    /**
     * Read and parse a JSON workload file.
     * @param path the file
     * @param specs set to the jobs
     * @param error set to a one-line message on failure
     * @return true on success
     */
    static bool LoadFile(const std::string& path,
                         std::vector<MrcJobSpec>& specs,
                         std::string& error);

    /** A file a workload reads besides itself. */
    struct InputFile
    {
        std::string kind;     //!< "transfers" or "chakra"
        std::string path;     //!< the file, as it is opened
        std::string relative; //!< its path relative to the workload file's directory ("" if
                              //!< it is outside that directory)
    };

    /**
     * @param workloadPath the workload file LoadFile read
     * @param specs what it read
     * @return the transfer lists and Chakra trace files its jobs read
     */
    static std::vector<InputFile> InputFiles(const std::string& workloadPath,
                                             const std::vector<MrcJobSpec>& specs);
    /**
     * Parse a CSV transfer list (read by MrcCsvReader: its comment rule and error format).
     * @param text the CSV text
     * @param name the file's name, for messages
     * @param list set to the list
     * @param error set to a one-line message, "name:line: column: ...", on failure
     * @return true on success
     */
    static bool ParseTransferList(const std::string& text,
                                  const std::string& name,
                                  MrcTransferList& list,
                                  std::string& error);
    /**
     * Read and parse a CSV transfer list file.
     * @param path the file
     * @param list set to the list
     * @param error set to a one-line message on failure
     * @return true on success
     */
    static bool LoadTransferList(const std::string& path,
                                 MrcTransferList& list,
                                 std::string& error);

    /**
     * Place the jobs (in order, each on hosts no earlier job holds), then create, install and
     * start them. Job i gets JobId firstJobId + i.
     * @param specs the jobs
     * @param stack the MRC stack, installed on the fabric
     * @param nHosts hosts in the fabric
     * @param jobs set to the jobs
     * @param error set to a one-line message if a job does not fit (nothing is installed then)
     * @param firstJobId JobId of the first job
     * @return true on success
     */
    bool CreateJobs(const std::vector<MrcJobSpec>& specs,
                    MrcStackHelper& stack,
                    uint32_t nHosts,
                    std::vector<Ptr<MrcTrainingJob>>& jobs,
                    std::string& error,
                    uint32_t firstJobId = 0);
    /**
     * Turn job specs into placed, installed and started flow-level jobs (--model=fluid): the
     * same placement draws as CreateJobs. Transfer lists and Chakra programs are refused.
     * @param specs the jobs
     * @param network the flow-level fabric (built)
     * @param jobs set to the jobs
     * @param error set to a one-line message on failure
     * @param firstJobId id of the first job
     * @return false on failure (nothing started)
     */
    bool CreateFluidJobs(const std::vector<MrcJobSpec>& specs,
                         Ptr<MrcFluidNetwork> network,
                         std::vector<Ptr<MrcFluidJob>>& jobs,
                         std::string& error,
                         uint32_t firstJobId = 0);

    /**
     * Assign the random stream of random placement.
     * @param stream the stream
     * @return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

private:
    /**
     * Place every job's ranks.
     * @param specs the jobs
     * @param nHosts hosts in the fabric
     * @param placed set to the hosts of every job's ranks
     * @param error set on failure
     * @return false if a job does not fit
     */
    bool PlaceJobs(const std::vector<MrcJobSpec>& specs,
                   uint32_t nHosts,
                   std::vector<std::vector<uint32_t>>& placed,
                   std::string& error);
    Ptr<UniformRandomVariable> m_placementRng; //!< random placement
};

} // namespace ns3

#endif /* MRC_WORKLOAD_FILE_H */
