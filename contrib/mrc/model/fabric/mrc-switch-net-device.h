/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SWITCH_NET_DEVICE_H
#define MRC_SWITCH_NET_DEVICE_H

#include "ns3/mrc-drop-accounting.h"
#include "ns3/mrc-ecmp-table.h"
#include "ns3/mrc-frame-receiver.h"
#include "ns3/mrc-pfc-ingress.h"

#include "ns3/event-id.h"
#include "ns3/ipv6-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

class MrcNetDevice;

/**
 * @ingroup mrc
 * @brief An SRv6 uSID switch: a device owning N MrcNetDevice ports and a static uSID table.
 *
 * For each arriving packet the switch checks that the destination address is a uSID carrier in
 * its locator block whose active uSID is the switch's own, decrements the hop limit, shifts the
 * carrier ("shift and forward", RFC 9800), and looks the new active uSID up in a static table
 * (uSID -> egress port, an array indexed by the uSID). The table is written at configuration
 * time; once the simulation has started AddRoute() refuses changes. Failures are handled only by
 * senders choosing other paths.
 *
 * Packets it cannot forward are dropped with a DropReason. Accounting identity:
 *   received = forwarded + dropped (all switch reasons)
 * and each forwarded packet then meets its egress port's MrcTrimmingQueue.
 *
 * Forwarding latency (attribute Latency) is applied by the ingress ports as a receive delay,
 * so a hop costs no extra event.
 *
 * ECMP mode (the routed baseline) forwards by destination through an MrcEcmpTable the switch
 * owns (next-hop groups, the flow hash, resilient or modulo hashing: EcmpHashing), whose routes
 * MrcEcmpControlPlane writes.
 *
 * PFC (PfcEnabled) is an MrcPfcIngress the switch owns: ingress accounting per port, XOFF/XON
 * thresholds (the Pfc* attributes), and the PAUSE frames. A data frame that would overflow its
 * ingress port's headroom is dropped (PFC_HEADROOM) and means the thresholds are wrong.
 */
/** Drop reasons of MrcSwitchNetDevice (MrcSwitchNetDevice::DROP_REASON_COUNT). */
constexpr std::size_t MRC_SWITCH_DROP_REASONS = 9;

class MrcSwitchNetDevice
    : public NetDevice
    , public MrcDropAccounting<MRC_SWITCH_DROP_REASONS>
    , public MrcFrameReceiver
{
public:
    /** Why the switch itself dropped a packet. */
    enum DropReason : uint8_t
    {
        WRONG_BLOCK = 0,  //!< destination outside the locator block
        NOT_MINE,         //!< active uSID is not this switch's
        END_OF_CARRIER,   //!< no uSID after this switch's (no local delivery on switches)
        UNKNOWN_USID,     //!< next uSID has no table entry
        HOP_LIMIT,        //!< hop limit exhausted
        PORT_DOWN,        //!< egress port's link is down
        BLACKHOLE,        //!< the switch is blackholing (fault injection)
        NO_ROUTE,         //!< ECMP mode: no usable next hop toward the destination
        PFC_HEADROOM,     //!< PFC: the ingress port's headroom overflowed (misconfiguration)
        DROP_REASON_COUNT //!< number of reasons
    };
    static_assert(DROP_REASON_COUNT == MRC_SWITCH_DROP_REASONS, "one counter per reason");

    /** Marks a table slot without a route. */
    static constexpr uint16_t NO_PORT = 0xffff;

    /**
     * @param reason a DropReason
     * @return its name
     */
    static const char* DropReasonName(uint32_t reason);

    /**
     * Signature of the Forward trace source.
     * @param packet the packet
     * @param inPort ingress port index
     * @param outPort egress port index
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          uint32_t inPort,
                                          uint32_t outPort);

    /**
     * Signature of the Drop trace source.
     * @param packet the packet
     * @param reason a DropReason
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t reason);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSwitchNetDevice();
    ~MrcSwitchNetDevice() override;

    /**
     * Add a port. The switch becomes its frame receiver and sets its latency.
     * @param port the port
     * @return the port index
     */
    uint32_t AddPort(Ptr<MrcNetDevice> port);
    /** @return the number of ports */
    uint32_t GetNPorts() const;
    /**
     * @param i port index
     * @return the port
     */
    Ptr<MrcNetDevice> GetPort(uint32_t i) const;

    /**
     * Add a static route. Refused once the simulation has started.
     * @param usid the uSID (non-zero)
     * @param port the egress port index
     * @return false if refused (table frozen, bad port or zero uSID)
     */
    bool AddRoute(uint16_t usid, uint32_t port);
    /**
     * @param usid a uSID
     * @return the egress port for it, or NO_PORT
     */
    uint16_t GetRoute(uint16_t usid) const;
    /** @return true once the table can no longer change */
    bool IsFrozen() const;

    /**
     * Set the switch's own uSID; ignored (with a warning) once the simulation runs, like the
     * table.
     * @param usid this switch's own uSID
     */
    void SetUsid(uint16_t usid);
    /** @return this switch's own uSID */
    uint16_t GetUsid() const;
    /**
     * Set the locator block; refused once the simulation runs, like the table.
     * @param block locator block
     * @param bits block length in bits
     * @return false if refused
     */
    bool SetLocatorBlock(Ipv6Address block, uint8_t bits);

    /**
     * Blackhole: ports stay up but nothing is forwarded (fault injection).
     * @param on true to start blackholing
     */
    void SetBlackhole(bool on);
    /** @return true while blackholing */
    bool IsBlackhole() const;

    /**
     * Switch to destination-based ECMP forwarding (the routed baseline) instead of SRv6.
     * @param on true for ECMP
     */
    void SetEcmpMode(bool on);
    /** @return true in ECMP mode */
    bool IsEcmpMode() const;
    /**
     * Install ECMP routes (what BGP would have computed). In ECMP mode they may change while
     * the simulation runs: that models reconvergence. An SRv6 switch has only its static table:
     * there they are refused once the simulation runs, like AddRoute.
     * @param hostGroup for each destination host id, the index of its next-hop group
     * @param groups the next-hop groups (port lists)
     * @return false if refused
     */
    bool SetEcmpRoutes(std::vector<uint32_t> hostGroup, std::vector<std::vector<uint16_t>> groups);
    /**
     * Local failure detection (BFD-like): stop or resume hashing onto a port.
     * @param port the port
     * @param usable false to exclude it from every next-hop group
     */
    void SetPortUsable(uint32_t port, bool usable);
    /**
     * @param port the port
     * @return whether ECMP may hash onto it
     */
    bool IsPortUsable(uint32_t port) const;
    /**
     * ECMP: the egress port a flow hashes onto (what ForwardEcmp would pick now).
     * @param src source address
     * @param dst destination address
     * @param flowLabel flow label
     * @return the port, or NO_PORT if there is no usable route
     */
    uint16_t GetEcmpEgress(Ipv6Address src, Ipv6Address dst, uint32_t flowLabel) const;

    /**
     * @param port a port
     * @return data bytes that arrived on it and still wait in egress queues (PFC accounting)
     */
    uint32_t GetIngressBytes(uint32_t port) const;
    /**
     * @param port a port
     * @return the largest GetIngressBytes(port) seen
     */
    uint32_t GetMaxIngressBytes(uint32_t port) const;
    /**
     * @param port a port
     * @return its XOFF threshold, bytes (after initialization)
     */
    uint32_t GetPfcXoff(uint32_t port) const;
    /**
     * @param port a port
     * @return its XOFF threshold plus headroom, bytes (after initialization)
     */
    uint32_t GetPfcLimit(uint32_t port) const;

    /**
     * Read the destination host id from a routed-fabric address (its low 32 bits).
     * @param address the address
     * @return the host id
     */
    static uint32_t HostIdOf(const uint8_t* address)
    {
        return (uint32_t(address[12]) << 24) | (uint32_t(address[13]) << 16)
             | (uint32_t(address[14]) << 8) | address[15];
    }

    /** @return packets received */
    uint64_t GetReceived() const;
    /** @return packets handed to an egress port */
    uint64_t GetForwarded() const;

    // MrcFrameReceiver
    void ReceiveFrame(uint32_t port, Ptr<Packet> packet, MrcIpv6Fields& header) override;
    void ReceiveOwnedFrame(uint32_t port, MrcFrame&& frame, MrcIpv6Fields& header) override;
    bool ReadsPackets() const override;
    void PrefetchForwarding(const MrcIpv6Fields& header) const override;

    /**
     * The egress port ReceiveOwnedFrame's uSID route takes for a frame, by its destination's
     * next uSID alone (no check of the block, the active uSID, the hop limit or the port's
     * link), for prefetching it. Null in ECMP mode, while blackholing, where the route has no
     * port, and where the block leaves no next uSID.
     * @param header the frame's IPv6 fields, before the shift
     * @return the port, or null
     */
    const MrcNetDevice* GetRouteHint(const MrcIpv6Fields& header) const;
    void IngressCharge(uint32_t port, uint32_t bytes) override;
    void IngressRelease(uint32_t port, uint32_t bytes) override;

    // NetDevice (a switch is not an IP endpoint: Send() refuses)
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

private:
    void DoInitialize() override;
    void DoDispose() override;
    /**
     * Forward by destination with ECMP.
     * @param inPort ingress port
     * @param frame payload (moved from)
     * @param header IPv6 header
     */
    void ForwardEcmp(uint32_t inPort, MrcFrame&& frame, MrcIpv6Fields& header);
    /** Work out each port's PFC thresholds and take charge of its queue's accounting. */
    void SetupPfc();
    /**
     * @param value "resilient" or "modulo"
     */
    void SetEcmpHashing(std::string value);
    /** @return "resilient" or "modulo" */
    std::string GetEcmpHashing() const;
    /**
     * @param latency the new forwarding latency, applied to all ports
     */
    void SetLatency(Time latency);
    /** @return the forwarding latency */
    Time GetLatency() const;
    /** @param on the CutThrough attribute */
    void SetCutThrough(bool on);
    /** @return the CutThrough attribute */
    bool GetCutThrough() const;
    /** Set each port's cut-through bytes from CutThrough and the ports' rates. */
    void UpdateCutThrough();

    // What forwarding a frame reads comes first, right after the MrcFrameReceiver base (the
    // last base): a port prefetches the cache lines there before an arrival
    // (MrcNetDevice::PrefetchNext).
    std::vector<Ptr<MrcNetDevice>> m_ports; //!< ports
    std::vector<uint16_t> m_table;          //!< uSID -> port, NO_PORT where none
    uint64_t m_received;                    //!< packets received
    uint64_t m_forwarded;                   //!< packets forwarded
    uint8_t m_block[16];                    //!< locator block bytes
    uint32_t m_blockBytes;                  //!< locator block length, bytes
    uint16_t m_usid;                        //!< own uSID
    bool m_blackhole;                       //!< silently dropping everything
    bool m_ecmp;                            //!< destination-based ECMP mode
    bool m_pfc;                             //!< PfcEnabled attribute
    bool m_frozen;                          //!< table frozen (simulation started)
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_forwardTrace; //!< forwarded
    Ptr<Node> m_node;                                                     //!< owner
    MrcEcmpTable m_ecmpTable;   //!< ECMP: routes, hashing, usable ports
    uint32_t m_pfcXoffAttr;     //!< PfcXoffBytes attribute (0: auto)
    uint32_t m_pfcXonAttr;      //!< PfcXonBytes attribute (0: auto)
    uint32_t m_pfcHeadroomAttr; //!< PfcHeadroomBytes attribute (0: auto)
    uint16_t m_pfcQuanta;       //!< PfcQuanta attribute
    MrcPfcIngress m_pfcIngress; //!< PFC: accounting, thresholds, PAUSEs
    Time m_latency;             //!< forwarding latency
    bool m_cutThrough;          //!< CutThrough attribute
    uint32_t m_cutThroughBytes; //!< CutThroughBytes attribute
    uint64_t m_fastestPort;     //!< bit/s of the fastest port so far
    uint32_t m_ifIndex;         //!< interface index
    Mac48Address m_address;     //!< nominal address
};

} // namespace ns3

#endif /* MRC_SWITCH_NET_DEVICE_H */
