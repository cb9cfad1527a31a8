/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_L4_PROTOCOL_H
#define MRC_L4_PROTOCOL_H

#include "ns3/mrc-frame-receiver.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-path-provider.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-ring-deque.h"

#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <memory>
#include <vector>

namespace ns3
{

class Node;

/**
 * @ingroup mrc
 * @brief The MRC transport on a host: one NIC port per plane, and the queue pairs.
 *
 * Aggregated to a host node by MrcStackHelper. Like the NIC it models, it does its own IPv6
 * encapsulation (source routing leaves no routing decision to make but the plane, which the
 * path selector takes), so it sits directly on the host's MrcNetDevices rather than on ns-3's
 * Ipv6L3Protocol. Arriving packets are demultiplexed to queue pairs by destination QPN (an
 * index). The path selector and congestion control of new queue pairs are chosen by TypeId
 * attributes, as TcpL4Protocol chooses its congestion control.
 */
class MrcL4Protocol
    : public Object
    , public MrcFrameReceiver
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcL4Protocol();
    ~MrcL4Protocol() override;

    /**
     * Attach to a host.
     * @param host host index in the fabric
     * @param ports the host's NIC ports, one per plane
     * @param paths the fabric's path provider
     * @param nicRate the NIC's total rate (all ports)
     * @param baseRtt the fabric's base RTT
     */
    void Setup(uint32_t host,
               const std::vector<Ptr<MrcNetDevice>>& ports,
               Ptr<MrcPathProvider> paths,
               uint64_t nicRate,
               Time baseRtt);

    /**
     * Create a queue pair (not yet connected): a Fork of the queue pair the protocol made from
     * its factory at first use (see SharePrototypes).
     * @return the queue pair
     */
    Ptr<MrcQueuePair> CreateQueuePair();
    /**
     * Connect a queue pair of this host to a peer's.
     * @param qp the local queue pair
     * @param remoteHost the peer host
     * @param remoteQpn the peer's QPN
     */
    void Connect(Ptr<MrcQueuePair> qp, uint32_t remoteHost, uint32_t remoteQpn);
    /**
     * Create a queue pair here and one at a peer, and connect them to each other.
     * @param peer the peer host's protocol
     * @param port bind both to this NIC port (-1: spray over every port)
     * @return this host's queue pair and the peer's
     */
    std::pair<Ptr<MrcQueuePair>, Ptr<MrcQueuePair>> ConnectPair(Ptr<MrcL4Protocol> peer,
                                                                int32_t port = -1);
    /**
     * @param qpn a QPN
     * @return the queue pair
     */
    Ptr<MrcQueuePair> GetQueuePair(uint32_t qpn) const;
    /** @return the number of queue pairs */
    uint32_t GetNQueuePairs() const;
    /** @return NIC ports (planes) of this host */
    uint32_t GetNPorts() const
    {
        return static_cast<uint32_t>(m_ports.size());
    }
    /** @return this host's index */
    uint32_t GetHost() const;
    /** @return bit p set when the NIC port of plane p is up */
    /**
     * @param plane a NIC port
     * @return when a frame handed to that port now would start onto the wire
     */
    Time GetTxStartTime(uint32_t plane) const;

    /**
     * The NIC ports a queue pair may hand a data packet to now: those with less than
     * PortBacklogBytes of data waiting (every port when PortBacklogBytes is 0).
     * @return bit p set when port p has room
     */
    uint64_t GetPortsWithRoom() const
    {
        if (m_backlogLimit == 0)
        {
            return ~uint64_t(0);
        }
        uint64_t mask = 0;
        for (uint32_t p = 0; p < m_ports.size(); ++p)
        {
            mask |= uint64_t(m_ports[p]->GetQueuedDataBytes() < m_backlogLimit) << p;
        }
        return mask;
    }

    /**
     * A queue pair has data to send but no usable port has room: call its
     * MrcQueuePair::NotifyPortRoom when one has (queue pairs are served in the order they
     * asked, as a NIC's transmit scheduler serves them round-robin).
     * @param qpn the queue pair
     */
    void WaitForPort(uint32_t qpn);

    uint64_t GetLocalPlaneMask() const
    {
        return m_planeMask;
    }

    /** @param factory the factory queue pairs are made with (its attributes apply) */
    void SetQueuePairFactory(const ObjectFactory& factory);
    /** @param factory the factory path selectors are made with */
    void SetPathSelectorFactory(const ObjectFactory& factory);
    /** @param factory the factory congestion controls are made with */
    void SetCongestionOpsFactory(const ObjectFactory& factory);
    /** @param factory the factory loss recoveries are made with (its attributes apply) */
    void SetRecoveryOpsFactory(const ObjectFactory& factory);
    /**
     * Fork the queue pairs and their path selectors, congestion controls and loss recoveries
     * from the same objects as `other` (CreateQueuePair and Connect make one of each from the
     * factories at first use and fork it for every queue pair). For protocols given the same
     * factories and type attributes, as MrcStackHelper gives every host it installs; setting
     * one of this protocol's four factories afterwards ends the sharing for it.
     * @param other a protocol with the same factories
     */
    void SharePrototypes(Ptr<MrcL4Protocol> other);

    /**
     * Send an MRC frame (called by queue pairs).
     * @param plane the plane (NIC port)
     * @param paths the plane's paths to the peer
     * @param path the path taken (its destination address is the uSID carrier)
     * @param flowLabel the flow label (derived from the QP and its EV)
     * @param tc the Traffic Class
     * @param frame the MRC frame (header included; MrcFrame::FromHeader)
     */
    void SendFrame(uint32_t plane,
                   const MrcPathSet& paths,
                   uint32_t path,
                   uint32_t flowLabel,
                   uint8_t tc,
                   MrcFrame&& frame);

    /**
     * Assign the random stream used to build EV sets.
     * @param stream the stream
     * @return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // MrcFrameReceiver
    void ReceiveFrame(uint32_t port, Ptr<Packet> packet, MrcIpv6Fields& header) override;
    /**
     * Receive a frame: a compact one's header is parsed from its bytes, without a Packet;
     * one that holds a Packet goes to ReceiveFrame.
     * @param port the receiving port's index
     * @param frame the IPv6 payload (moved from)
     * @param header the IPv6 fields
     */
    void ReceiveOwnedFrame(uint32_t port, MrcFrame&& frame, MrcIpv6Fields& header) override;
    /**
     * Start loading the tables of ports and source addresses, and the table of queue pairs if
     * it has at most QPS_PREFETCHED entries (MrcEventPrefetch). A hint only.
     */
    void PrefetchTables() const override;
    /**
     * Start loading the queue pair the frame's header names (MrcEventPrefetch). A hint only.
     * @param frame an arriving frame, its MRC header first
     */
    void PrefetchReceive(const MrcFrame& frame) const override;
    /**
     * Start loading what the queue pair the frame's header names reads for it
     * (MrcQueuePair::PrefetchParts). A hint only.
     * @param frame an arriving frame, its MRC header first
     */
    void PrefetchReceiveParts(const MrcFrame& frame) const override;
    /** Start loading the queue pair TxDrained would wake first (MrcEventPrefetch). A hint. */
    void PrefetchTxDrained() const override;
    void TxDrained(uint32_t port) override;

    /** @return packets that named no known queue pair */
    uint64_t GetUnknownQpDrops() const;

private:
    void DoDispose() override;
    /** A NIC port went up or down. */
    void PortChanged();

    /** The objects forked for each queue pair, made from the factories at first use. */
    struct Prototypes
    {
        Ptr<MrcQueuePair> qp;          //!< queue pair (never Setup)
        Ptr<MrcPathSelector> selector; //!< path selector
        Ptr<MrcCongestionOps> cc;      //!< congestion control
        Ptr<MrcRecoveryOps> recovery;  //!< loss recovery
    };

    /**
     * A new object for a queue pair: a fork of the prototype, made first (from the factory)
     * if there is none of the factory's type. A class that does not fork gets the prototype
     * itself, and the next one is made anew.
     * @tparam T the object's base class
     * @param proto the prototype
     * @param factory the factory (its type is the one wanted)
     * @return the object, or null if the factory's type is not a T
     */
    template<typename T>
    static Ptr<T> ForkOrMake(Ptr<T>& proto, const ObjectFactory& factory);

    /**
     * The queue pair an arriving frame's MRC header names, read from the frame's bytes
     * without deserializing them (for the prefetch stages).
     * @param frame the frame, its MRC header first
     * @param header set to the header's first byte, if found
     * @return the queue pair, or null (frame too short, bytes not found, no such QPN)
     */
    const MrcQueuePair* PeekQueuePair(const MrcFrame& frame, const uint8_t*& header) const;
    /**
     * Hand a parsed header to the queue pair it names.
     * @param port the receiving port's index
     * @param h the header
     * @param header the frame's IPv6 fields
     */
    void Deliver(uint32_t port, const MrcHeader& h, const MrcIpv6Fields& header);

    /** PrefetchTables loads the table of at most this many queue pairs (two lines). */
    static constexpr std::size_t QPS_PREFETCHED = 16;

    // What a packet received or sent, and a port's room, read comes first, right after the
    // MrcFrameReceiver base: a port prefetches the cache lines there before an arrival
    // (MrcNetDevice::PrefetchNext), and on a large fabric the protocol is cold when a frame
    // comes.
    std::vector<Ptr<MrcQueuePair>> m_qps;           //!< by QPN
    MrcRingDeque<uint32_t> m_portWaiters;           //!< QPNs waiting for a port with room
    const MrcQueuePair* m_firstWaiter;              //!< m_portWaiters' front, or null (read
                                                    //!< by PrefetchTxDrained without loading
                                                    //!< the ring and m_qps)
    uint32_t m_backlogLimit;                        //!< PortBacklogBytes
    bool m_waking;                                  //!< inside TxDrained
    std::vector<Ptr<MrcNetDevice>> m_ports;         //!< NIC ports
    std::vector<std::array<uint8_t, 16>> m_sources; //!< own address per plane, as bytes
    uint32_t m_host;                                //!< host index
    Ptr<MrcPathProvider> m_paths;                   //!< fabric paths
    uint64_t m_nicRate;                             //!< NIC rate, bit/s
    Time m_baseRtt;                                 //!< base RTT
    uint64_t m_planeMask;                           //!< ports up
    ObjectFactory m_qpFactory;                      //!< queue pairs
    ObjectFactory m_selectorFactory;                //!< path selectors
    ObjectFactory m_ccFactory;                      //!< congestion controls
    ObjectFactory m_recoveryFactory;                //!< loss recoveries
    TypeId m_recoveryType;                          //!< LossRecovery attribute
    TypeId m_selectorType;                          //!< PathSelector attribute
    TypeId m_ccType;                                //!< CongestionControl attribute
    std::shared_ptr<Prototypes> m_prototypes;       //!< forked for each queue pair (maybe shared)
    Ptr<UniformRandomVariable> m_rng;               //!< EV set randomness
    uint64_t m_unknownQp;                           //!< packets for unknown QPs
};

} // namespace ns3

#endif /* MRC_L4_PROTOCOL_H */
