/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_STACK_HELPER_H
#define MRC_STACK_HELPER_H

#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-l4-protocol.h"
#include "ns3/mrc-queue-pair.h"

#include "ns3/object-factory.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Installs the MRC transport on every host of a fabric and connects queue pairs.
 *
 * @code
 *   MrcStackHelper stack;
 *   stack.SetPathSelector("ns3::MrcAdaptiveSpray", "EvSetSize", UintegerValue(128));
 *   stack.SetCongestionControl("ns3::MrcNscc");
 *   stack.SetQueuePairAttribute("AckEveryBytes", UintegerValue(16384));
 *   stack.Install(fabric);
 *   auto [a, b] = stack.Connect(0, 5);   // QP on host 0 connected to a QP on host 5
 *   a->PostWrite(1 << 20, 0);
 * @endcode
 */
class MrcStackHelper
{
public:
    MrcStackHelper();

    /**
     * Choose the path selector of new queue pairs.
     * @param type TypeId name (ns3::MrcAdaptiveSpray, ns3::MrcObliviousSpray, ns3::MrcSinglePath)
     * @param n1 attribute name (optional)
     * @param v1 attribute value
     */
    void SetPathSelector(const std::string& type,
                         const std::string& n1 = "",
                         const AttributeValue& v1 = EmptyAttributeValue());
    /**
     * Set a path selector attribute.
     * @param name attribute
     * @param value value
     */
    void SetPathSelectorAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Choose the congestion control of new queue pairs.
     * @param type TypeId name (ns3::MrcNscc, ns3::MrcFixedWindow)
     * @param n1 attribute name (optional)
     * @param v1 attribute value
     */
    void SetCongestionControl(const std::string& type,
                              const std::string& n1 = "",
                              const AttributeValue& v1 = EmptyAttributeValue());
    /**
     * Set a congestion control attribute.
     * @param name attribute
     * @param value value
     */
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Choose the loss recovery of new queue pairs.
     * @param type TypeId name (ns3::MrcSelectiveRecovery, ns3::MrcGoBackNRecovery)
     * @param n1 attribute name (optional)
     * @param v1 attribute value
     */
    void SetLossRecovery(const std::string& type,
                         const std::string& n1 = "",
                         const AttributeValue& v1 = EmptyAttributeValue());
    /**
     * Set a loss recovery attribute (e.g. MrcSelectiveRecovery's ReorderThreshold).
     * @param name attribute
     * @param value value
     */
    void SetLossRecoveryAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set a queue pair attribute.
     * @param name attribute
     * @param value value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every host's MrcL4Protocol (for example PortBacklogBytes).
     * @param name attribute
     * @param value value
     */
    void SetProtocolAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Read an attribute of the queue pairs this helper makes (the factory's settings, or the
     * attribute's default).
     * @param name attribute
     * @param value set to its value
     */
    void GetQueuePairAttribute(const std::string& name, AttributeValue& value) const;

    /**
     * Configure the RoCE baseline as NICs run it: one path per QP (MrcSinglePath: the QP's
     * flow label is its ECMP entropy, as RoCEv2's UDP source port), go-back-N loss recovery
     * driven by out-of-sequence NAKs, DCQCN rate control, and InfiniBand's local ACK timeout
     * 4.096 us x 2^20 (NCCL's default NCCL_IB_TIMEOUT=20, about 4.3 s) with retry count 7; a
     * QP whose retries run out goes to the error state. Pair it with a fabric built by
     * MrcClosHelper::SetRoutedBaseline (ECMP, no trimming, PFC).
     */
    void SetRoceBaseline();

    /** @name RoCE's deployed timers (InfiniBand; NCCL's defaults), used by SetRoceBaseline */
    /// @{
    /** @return the local ACK timeout unit, 4.096 us */
    static Time RoceAckTimeoutUnit();
    /** @return its exponent (NCCL_IB_TIMEOUT, default 20: 4.096 us x 2^20, about 4.29 s) */
    static uint32_t RoceAckTimeoutExponent();
    /** @return the retry count (NCCL_IB_RETRY_CNT, default 7) */
    static uint32_t RoceRetryLimit();
    /// @}

    /**
     * Aggregate an MrcL4Protocol to every host of a built fabric.
     * @param fabric the fabric
     */
    void Install(Ptr<MrcClosTopology> fabric);

    /**
     * Create a queue pair on each of two hosts and connect them.
     * @param a one host
     * @param b the other
     * @param port the NIC port both QPs are bound to (their Port attribute; -1: the connection
     *        hash picks, as for any ECMP flow); meaningful for single-path QPs
     * @return (queue pair on a, queue pair on b)
     */
    std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>> Connect(uint32_t a,
                                                            uint32_t b,
                                                            int32_t port = -1);

    /**
     * @param host host index
     * @return its MRC protocol
     */
    Ptr<MrcL4Protocol> GetL4(uint32_t host) const;
    /** @return the fabric Install put the stack on (null before) */
    Ptr<MrcClosTopology> GetFabric() const;

    /**
     * Assign random streams to every host's protocol. Call it before connecting queue pairs
     * (directly or by installing training jobs): a path selector draws its EV order when its
     * queue pair is connected, and a draw from an automatic stream depends on how many random
     * variables the process created before.
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    ObjectFactory m_l4Factory;       //!< the hosts' protocols
    ObjectFactory m_qpFactory;       //!< queue pairs
    ObjectFactory m_selectorFactory; //!< path selectors
    ObjectFactory m_ccFactory;       //!< congestion controls
    ObjectFactory m_recoveryFactory; //!< loss recoveries
    Ptr<MrcClosTopology> m_fabric;   //!< the fabric installed on
};

} // namespace ns3

#endif /* MRC_STACK_HELPER_H */
