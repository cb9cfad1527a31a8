/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FRAME_RECEIVER_H
#define MRC_FRAME_RECEIVER_H

#include "ns3/mrc-frame.h"
#include "ns3/mrc-ipv6-fields.h"

#include "ns3/packet.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief What an MrcNetDevice hands received frames to: a switch, or a host's MRC protocol.
 *
 * Frames travel with their IPv6 header already parsed (as ns-3's Ipv6QueueDiscItem keeps it),
 * so that a switch can rewrite the destination (uSID shift) without serializing the header at
 * every hop. The bytes on the wire are the same; pcap tracing serializes on demand.
 */
class MrcFrameReceiver
{
public:
    virtual ~MrcFrameReceiver() = default;

    /**
     * Receive one frame.
     * @param port the receiving port's index, as given to MrcNetDevice::SetFrameReceiver
     * @param packet the IPv6 payload
     * @param header the IPv6 header (may be modified by the receiver)
     */
    virtual void ReceiveFrame(uint32_t port, Ptr<Packet> packet, MrcIpv6Fields& header) = 0;

    /**
     * Receive one frame as the fabric hands it over (MrcNetDevice calls this one). The default
     * passes the packet on to ReceiveFrame; a switch overrides it to forward the frame without
     * touching the packet.
     * @param port as for ReceiveFrame
     * @param frame the IPv6 payload (moved from)
     * @param header as for ReceiveFrame
     */
    virtual void ReceiveOwnedFrame(uint32_t port, MrcFrame&& frame, MrcIpv6Fields& header)
    {
        ReceiveFrame(port, frame.Release(), header);
    }

    /**
     * Whether ReceiveOwnedFrame reads the frame's packet: asked once, when the receiver is
     * given to a port, which then has its packets' objects prefetched before an arrival
     * (MrcEventPrefetch). A hint: the answer changes no result.
     * @return true (the default, which hands the packet to ReceiveFrame); a switch that forwards
     * by the header alone returns false
     */
    virtual bool ReadsPackets() const
    {
        return true;
    }

    /**
     * Start loading what receiving this frame reads beyond the receiver itself and the frame
     * (MrcEventPrefetch: the frame is about to arrive; the receiver's first two cache lines
     * were loaded an event earlier). A hint: nothing is changed. The default loads nothing; a
     * switch loads the egress port its route names.
     * @param header the frame's IPv6 fields, as they will arrive
     */
    virtual void PrefetchForwarding(const MrcIpv6Fields& /* header */) const {}

    /**
     * Start loading the state receiving this frame reads (MrcEventPrefetch: the frame is
     * about to arrive where ReadsPackets is true; its header's bytes were loaded an event
     * earlier). A hint: nothing is changed. The default loads nothing; a host's protocol loads
     * the queue pair the frame is for.
     * @param frame the arriving frame
     */
    virtual void PrefetchReceive(const MrcFrame& /* frame */) const {}

    /**
     * Start loading what PrefetchReceive and the packet's handling read of the receiver's own
     * tables, before the packet's header is known (MrcEventPrefetch: a frame for a host's
     * protocol is about to arrive; the receiver's first two cache lines were loaded an event
     * earlier). A hint: nothing is changed. The default loads nothing; a host's protocol loads
     * its tables of queue pairs, ports and source addresses.
     */
    virtual void PrefetchTables() const {}

    /**
     * Start loading, one level beyond PrefetchReceive (which ran an event earlier), the state the
     * packet's queue pair reads for it (MrcEventPrefetch). A hint: nothing is changed. The
     * default loads nothing; a host's protocol has the queue pair load its window slots (data)
     * or its sending side's objects (acknowledgements).
     * @param frame the arriving frame
     */
    virtual void PrefetchReceiveParts(const MrcFrame& /* frame */) const {}

    /**
     * Start loading the state TxDrained reads beyond the receiver itself (MrcEventPrefetch: a
     * port that tells this receiver is about to finish sending a frame; the receiver's first
     * two cache lines were loaded an event earlier). A hint: nothing is changed. The default
     * loads nothing; a host's protocol loads the queue pair it will wake.
     */
    virtual void PrefetchTxDrained() const {}

    /**
     * A data frame that arrived on a port was queued intact at an egress queue (PFC ingress
     * accounting; only queues given an ingress owner call this).
     * @param port the ingress port
     * @param bytes its size, IPv6 header included
     */
    virtual void IngressCharge(uint32_t /* port */, uint32_t /* bytes */) {}

    /**
     * A frame charged by IngressCharge left its egress queue (sent or dropped).
     * @param port the ingress port
     * @param bytes its size, IPv6 header included
     */
    virtual void IngressRelease(uint32_t /* port */, uint32_t /* bytes */) {}

    /**
     * A queued frame left a port's queue for the wire (only ports told to with
     * MrcNetDevice::SetTxNotify call this): the port has room again.
     * @param port the port's index
     */
    virtual void TxDrained(uint32_t /* port */) {}
};

} // namespace ns3

#endif /* MRC_FRAME_RECEIVER_H */
