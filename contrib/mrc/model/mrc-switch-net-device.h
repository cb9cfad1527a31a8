/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SWITCH_NET_DEVICE_H
#define MRC_SWITCH_NET_DEVICE_H

#include "mrc-frame-receiver.h"

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
 */
class MrcSwitchNetDevice
    : public NetDevice
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
        DROP_REASON_COUNT //!< number of reasons
    };

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

    /** @param usid this switch's own uSID */
    void SetUsid(uint16_t usid);
    /** @return this switch's own uSID */
    uint16_t GetUsid() const;
    /**
     * @param block locator block
     * @param bits block length in bits
     */
    void SetLocatorBlock(Ipv6Address block, uint8_t bits);

    /**
     * Blackhole: ports stay up but nothing is forwarded (fault injection).
     * @param on true to start blackholing
     */
    void SetBlackhole(bool on);

    /** @return packets received */
    uint64_t GetReceived() const;
    /** @return packets handed to an egress port */
    uint64_t GetForwarded() const;
    /**
     * @param reason a DropReason
     * @return packets dropped for it
     */
    uint64_t GetDropped(DropReason reason) const;
    /** @return packets dropped, all switch reasons */
    uint64_t GetDroppedTotal() const;

    // MrcFrameReceiver
    void ReceiveFrame(uint32_t port, Ptr<Packet> packet, Ipv6Header& header) override;

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
     * Count and trace a drop.
     * @param packet the packet
     * @param reason the reason
     */
    void Drop(Ptr<const Packet> packet, DropReason reason);
    /**
     * @param latency the new forwarding latency, applied to all ports
     */
    void SetLatency(Time latency);
    /** @return the forwarding latency */
    Time GetLatency() const;

    Ptr<Node> m_node;                                  //!< owner
    std::vector<Ptr<MrcNetDevice>> m_ports;            //!< ports
    std::vector<uint16_t> m_table;                     //!< uSID -> port, NO_PORT where none
    uint16_t m_usid;                                   //!< own uSID
    uint8_t m_block[16];                               //!< locator block bytes
    uint32_t m_blockBytes;                             //!< locator block length, bytes
    bool m_frozen;                                     //!< table frozen (simulation started)
    bool m_blackhole;                                  //!< silently dropping everything
    Time m_latency;                                    //!< forwarding latency
    uint32_t m_ifIndex;                                //!< interface index
    Mac48Address m_address;                            //!< nominal address
    uint64_t m_received;                               //!< packets received
    uint64_t m_forwarded;                              //!< packets forwarded
    std::array<uint64_t, DROP_REASON_COUNT> m_dropped; //!< drops per reason
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_forwardTrace; //!< forwarded
    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;              //!< dropped
};

} // namespace ns3

#endif /* MRC_SWITCH_NET_DEVICE_H */
