/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CHANNEL_H
#define MRC_CHANNEL_H

#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-frame.h"
#include "ns3/mrc-ipv6-fields.h"
#include "ns3/mrc-lazy.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class MrcNetDevice;

/**
 * @ingroup mrc
 * @brief Told when a cable goes down or comes back (MrcChannel::SetStateObserver). The
 * flow-level model uses it: its cables have no devices to notify.
 */
class MrcLinkStateObserver
{
public:
    virtual ~MrcLinkStateObserver() = default;
    /**
     * @param id the identifier given with SetStateObserver
     * @param up the cable's new state
     */
    virtual void NotifyLinkState(uint32_t id, bool up) = 0;
};

/**
 * @ingroup mrc
 * @brief A full-duplex point-to-point cable between two MrcNetDevices.
 *
 * The cable can be taken down and up (a link flap, a switch reboot). Taking it down loses every
 * frame in flight on it, in both directions: each frame remembers the cable's epoch when it was
 * sent and is discarded on arrival if the cable has gone down since. The devices at both ends are
 * told, and drop what they had queued for it.
 *
 * The arrival event is scheduled in the receiving node's context after serialization, propagation
 * and the receiving device's RxLatency (a switch's forwarding latency), so a hop costs one event.
 */
class MrcChannel : public Channel
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcChannel();
    ~MrcChannel() override;

    /**
     * Attach a device (two at most). MrcNetDevice::Attach calls it: attach a device through
     * that.
     * @param device the device
     */
    void Attach(Ptr<MrcNetDevice> device);
    /**
     * Read again what Transmit needs of an attached device as a receiver (its node id,
     * RxLatency and cut-through bytes): the device calls it when one of them changes.
     * @param device the attached device
     */
    void RefreshEnd(const MrcNetDevice* device);

    /**
     * Send a frame to the other end.
     * @param frame IPv6 payload (moved from)
     * @param header IPv6 header
     * @param src the sending device
     * @param txTime serialization time of the frame
     * @return false if the cable is down (the frame is not sent)
     */
    bool Transmit(MrcFrame&& frame, const MrcIpv6Fields& header, MrcNetDevice* src, Time txTime);

    /**
     * Start loading what Transmit reads (MrcEventPrefetch: a port of the cable is about to
     * send a frame).
     */
    void Prefetch() const
    {
        MrcEventPrefetch::Lines(&m_up, &m_ends[1] + 1);
    }

    /**
     * Send an IEEE 802.1Qbb PAUSE frame (a MAC control frame, never queued behind data) to the
     * other end; it arrives after wait plus the propagation delay unless the cable goes down.
     * @param src the sending end
     * @param quanta pause time in 512-bit-time quanta of the receiver's rate (0: resume)
     * @param wait time until the frame can start (the end of the frame being serialized) plus
     *        its own serialization
     */
    void TransmitPause(MrcNetDevice* src, uint16_t quanta, Time wait);

    /**
     * Take the cable up or down (both directions).
     * @param up the new state
     */
    void SetUp(bool up);
    /**
     * Tell an observer about state changes (besides the attached devices).
     * @param observer the observer (outlives the cable's state changes), or null
     * @param id passed back to it
     */
    void SetStateObserver(MrcLinkStateObserver* observer, uint32_t id);
    /** @return true if the cable is up */
    bool IsUp() const;
    /** @return frames lost in flight because the cable went down */
    uint64_t GetLostInFlight() const;
    /**
     * Count a frame that arrived after the cable went down (it was sent in an earlier epoch)
     * and fire the LostInFlight trace: the receiving device calls it.
     * @param frame the frame lost
     */
    void LoseInFlight(MrcFrame& frame);
    /** @return the cable's epoch: bumped each time it goes down */
    uint32_t GetEpoch() const;
    /** @return the propagation delay */
    Time GetDelay() const;
    /** @return frames lost to the random loss process (attribute LossRate) */
    uint64_t GetRandomLosses() const;
    /**
     * Set the probability that a frame is silently lost (both directions), as a flaky optic.
     * @param rate probability in [0, 1]
     */
    void SetLossRate(double rate);
    /**
     * Assign the random stream of the loss process.
     * @param stream the stream
     * @return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * @param i 0 or 1
     * @return the attached MrcNetDevice
     */
    Ptr<MrcNetDevice> GetMrcDevice(std::size_t i) const;

private:
    void DoDispose() override;
    /** @return a draw of the loss process (its variable is made at the first) */
    double LossDraw();
    /**
     * Fire the Lost trace, if anything connected to it.
     * @param frame the frame lost
     */
    void FireLost(MrcFrame& frame);

    class DeliveryEvent;
    static const bool s_prefetchRegistered; //!< DeliveryEvent registered with MrcEventPrefetch
    /**
     * Hand a PAUSE frame to its receiver.
     * @param quanta pause quanta
     * @param dst receiving end
     * @param epoch the cable's epoch when it was sent
     */
    void DeliverPause(uint16_t quanta, uint8_t dst, uint32_t epoch);

    /**
     * What Transmit needs of a receiving end, held here: the device itself is cold when a
     * frame leaves for it on a large fabric, and reading these from it cost a cache miss per
     * hop. MrcNetDevice's setters refresh them (RefreshEnd).
     */
    struct End
    {
        Ptr<MrcNetDevice> device;     //!< the device
        Time rxLatency;               //!< its RxLatency
        uint32_t nodeId = 0;          //!< its node's id (the arrival's context)
        uint32_t cutThroughBytes = 0; //!< its cut-through bytes (0: store and forward)
    };

    // What every Transmit reads comes first, together (on a large fabric a cable is cold when
    // its next frame comes); the arrival reads nothing of the cable (MrcNetDevice keeps the
    // cable's state and epoch).
    bool m_up;                         //!< cable state
    uint32_t m_nDevices;               //!< how many are attached
    uint32_t m_epoch;                  //!< bumped each time the cable goes down
    Time m_delay;                      //!< propagation delay
    double m_lossRate;                 //!< random loss probability
    End m_ends[2];                     //!< the two ends, as receivers
    MrcLinkStateObserver* m_observer;  //!< told about state changes, or null
    uint32_t m_observerId;             //!< its identifier for this cable
    uint64_t m_lostInFlight;           //!< frames lost in flight
    uint64_t m_randomLosses;           //!< frames lost to the random loss process
    Ptr<UniformRandomVariable> m_loss; //!< loss process (made at the first draw)
    int64_t m_stream;                  //!< the stream AssignStreams gave it, or -1
    MrcLazy<TracedCallback<Ptr<const Packet>>> m_lostTrace; //!< frame lost (made when connected)
};

} // namespace ns3

#endif /* MRC_CHANNEL_H */
