/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CHAKRA_TRACE_H
#define MRC_CHAKRA_TRACE_H

#include "ns3/mrc-training-job.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Reads MLCommons Chakra execution traces (ET, protobuf; one file per rank) into an
 * MrcJobProgram that an MrcTrainingJob runs every step.
 *
 * A trace is the files PREFIX.0.et, PREFIX.1.et, ... (the naming of Chakra's converters): rank r
 * is file r, and the number of files is the number of ranks. Each file holds length-delimited
 * protobuf messages (a varint length, then the message): one GlobalMetadata, then Nodes, as
 * Chakra's tools write them (schema/protobuf/et_def.proto; this module reads the fields it needs
 * with the schema's own field numbers, mrc-chakra-et.proto). What each node becomes:
 *
 * - COMP_NODE, MEM_LOAD_NODE, MEM_STORE_NODE: a delay of duration_micros on the rank's compute
 *   stream (one at a time per rank); METADATA_NODE: a delay of 0.
 * - COMM_COLL_NODE: the rank's part in a collective over every rank of the trace. comm_type
 *   ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL and BROADCAST become ring-allreduce,
 *   allgather, reduce-scatter, alltoall and broadcast (root rank 0), with comm_size as `bytes`
 *   (MrcCollective's meaning for the type). The k-th collective node of every rank (in the
 *   order the rank would issue them: dependency order, ties by position in the file) is the
 *   same collective; its comm_type and comm_size must agree on every rank.
 * - COMM_SEND_NODE (comm_dst, comm_size, comm_tag) and COMM_RECV_NODE (comm_src, comm_size,
 *   comm_tag): a message. The k-th send from rank a to rank b with tag t matches the k-th
 *   receive at b from a with tag t (comm_tag may be absent: tag 0); sizes must agree.
 *
 * A node starts once every node named in its data_deps and ctrl_deps has ended. Attribute
 * values may use any integer field of the schema's AttributeProto. Errors (one line naming the
 * file, the node id and what is accepted; nothing is returned then): a file that is not an ET
 * (truncated message, bad length), a missing rank file, a duplicate node id, a dependency on an
 * unknown node or a cycle, an unknown node type (INVALID, STORAGE, BATCH, CHECKPOINT, or a value
 * the schema does not define) or an unsupported collective (REDUCE, GATHER, SCATTER,
 * REDUCE_SCATTER_BLOCK, BARRIER), a missing or out-of-range communication attribute,
 * collectives or messages that do not match across ranks, and a trace that would deadlock (a
 * cycle through matched operations, counting the receiver-ready rendezvous of
 * MrcTrainingJob's default WaitForReceiver).
 */
class MrcChakraTrace
{
public:
    /**
     * @return true if this build can read traces: it was built with protobuf, and its decoder
     *         plugin (libns3-mrc-chakra.so, beside the module's library) loads
     */
    static bool IsAvailable();
    /**
     * @param prefix trace prefix
     * @param rank a rank
     * @return the file of that rank, PREFIX.<rank>.et
     */
    static std::string FileName(const std::string& prefix, uint32_t rank);
    /**
     * Read the files PREFIX.0.et, PREFIX.1.et, ... (up to the first missing one).
     * @param prefix trace prefix
     * @param program set to the program
     * @param error set to a one-line message on failure
     * @return true on success
     */
    static bool Load(const std::string& prefix, MrcJobProgram& program, std::string& error);
    /**
     * Decode and check a trace held in memory.
     * @param files per rank, the bytes of its file
     * @param names per rank, the file's name for messages
     * @param program set to the program
     * @param error set to a one-line message on failure
     * @return true on success
     */
    static bool Parse(const std::vector<std::string>& files,
                      const std::vector<std::string>& names,
                      MrcJobProgram& program,
                      std::string& error);
};

} // namespace ns3

#endif /* MRC_CHAKRA_TRACE_H */
