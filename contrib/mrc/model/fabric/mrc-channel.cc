/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-channel.h"

#include "ns3/mrc-event-prefetch.h"
#include "ns3/mrc-lazy-trace-source-accessor.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-pooled-event.h"
#include "ns3/mrc-simulator-impl.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcChannel");
NS_OBJECT_ENSURE_REGISTERED(MrcChannel);

/**
 * The arrival of a frame at the far end of a cable: the one event every packet-hop schedules.
 * It holds the frame and its IPv6 fields itself (MakeEvent would copy both several times on
 * the way in and once more into the call), and its memory is recycled through a free list
 * instead of the allocator. It runs in the same order as the MakeEvent it replaces. It goes
 * straight to the receiving device, which knows the cable's state and epoch: the cable is not
 * read again.
 */
class MrcChannel::DeliveryEvent : public MrcRecycledEvent<MrcChannel::DeliveryEvent>
{
public:
    /**
     * @param device the receiving end
     * @param frame the frame (moved from)
     * @param header its IPv6 fields
     * @param epoch the cable's epoch at sending
     */
    void Set(MrcNetDevice* device, MrcFrame&& frame, const MrcIpv6Fields& header, uint32_t epoch)
    {
        m_device = device;
        m_frame = std::move(frame);
        m_header = header;
        m_epoch = epoch;
    }

    /** Hand the frame to the receiving end. */
    void Fire()
    {
        m_device->ReceiveFromCable(std::move(m_frame), m_header, m_epoch);
    }

    /** Drop the frame's reference, if the event still holds it. */
    void Clear()
    {
        m_frame.Reset();
    }

    /**
     * MrcEventPrefetch's first stage: the event's second cache line and the receiving port.
     * @param event a DeliveryEvent
     */
    static void PrefetchTargets(const EventImpl* event)
    {
        const auto* d = static_cast<const DeliveryEvent*>(event);
        MrcEventPrefetch::Lines(d, d + 1);
        d->m_device->Prefetch();
    }

    /**
     * MrcEventPrefetch's second stage: the switch or protocol behind the receiving port, and
     * the packet where that is a host's protocol.
     * @param event a DeliveryEvent
     */
    static void PrefetchBeyond(const EventImpl* event)
    {
        const auto* d = static_cast<const DeliveryEvent*>(event);
        d->m_device->PrefetchNext(true);
        d->m_device->PrefetchArrivingPacket(d->m_frame);
    }

    /**
     * MrcEventPrefetch's third stage: at a host, the packet's first bytes and metadata; at a
     * switch, the egress port of the frame's route.
     * @param event a DeliveryEvent
     */
    static void PrefetchDeep(const EventImpl* event)
    {
        const auto* d = static_cast<const DeliveryEvent*>(event);
        d->m_device->PrefetchArrival(d->m_frame, d->m_header);
    }

    /**
     * MrcEventPrefetch's fourth stage: at a host, the queue pair the packet is for.
     * @param event a DeliveryEvent
     */
    static void PrefetchDeeper(const EventImpl* event)
    {
        const auto* d = static_cast<const DeliveryEvent*>(event);
        d->m_device->PrefetchReceiverState(d->m_frame);
    }

    /**
     * MrcEventPrefetch's fifth stage: at a host, what the queue pair reads for the packet.
     * @param event a DeliveryEvent
     */
    static void PrefetchDeepest(const EventImpl* event)
    {
        const auto* d = static_cast<const DeliveryEvent*>(event);
        d->m_device->PrefetchReceiverParts(d->m_frame);
    }

private:
    MrcNetDevice* m_device = nullptr; //!< the receiving end (outlives its events: Dispose comes
                                      //!< after the run)
    MrcFrame m_frame;                 //!< the frame
    MrcIpv6Fields m_header;           //!< its IPv6 fields
    uint32_t m_epoch = 0;             //!< the cable's epoch at sending
};

const bool MrcChannel::s_prefetchRegistered
    = (MrcEventPrefetch::Register(typeid(DeliveryEvent),
                                  &DeliveryEvent::PrefetchTargets,
                                  &DeliveryEvent::PrefetchBeyond,
                                  &DeliveryEvent::PrefetchDeep,
                                  &DeliveryEvent::PrefetchDeeper,
                                  &DeliveryEvent::PrefetchDeepest),
       true);

TypeId
MrcChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::MrcChannel")
              .SetParent<Channel>()
              .SetGroupName("Mrc")
              .AddConstructor<MrcChannel>()
              .AddAttribute("Delay",
                            "Propagation delay of the cable",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&MrcChannel::m_delay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("LossRate",
                            "Probability that a frame is silently lost (both directions), as a "
                            "flaky optic",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&MrcChannel::m_lossRate),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddTraceSource(
                  "LostInFlight",
                  "A frame was lost on the cable: it went down, or the random loss process took it",
                  MrcMakeLazyTraceSourceAccessor(&MrcChannel::m_lostTrace),
                  "ns3::Packet::TracedCallback");
    return tid;
}

MrcChannel::MrcChannel()
    : m_up(true)
    , m_nDevices(0)
    , m_epoch(0)
    , m_lossRate(0)
    , m_observer(nullptr)
    , m_observerId(0)
    , m_lostInFlight(0)
    , m_randomLosses(0)
    , m_stream(-1)
{
}

MrcChannel::~MrcChannel() = default;

void
MrcChannel::DoDispose()
{
    m_ends[0] = End();
    m_ends[1] = End();
    m_loss = nullptr;
    Channel::DoDispose();
}

void
MrcChannel::Attach(Ptr<MrcNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "MrcChannel: a cable has two ends");
    m_ends[m_nDevices++].device = device;
    RefreshEnd(PeekPointer(device));
}

void
MrcChannel::RefreshEnd(const MrcNetDevice* device)
{
    for (End& e : m_ends)
    {
        if (PeekPointer(e.device) == device)
        {
            e.rxLatency = device->GetRxLatency();
            e.nodeId = device->GetNodeId();
            e.cutThroughBytes = device->GetCutThroughBytes();
        }
    }
}

bool
MrcChannel::Transmit(MrcFrame&& frame, const MrcIpv6Fields& header, MrcNetDevice* src, Time txTime)
{
    if (!m_up || m_nDevices != 2)
    {
        return false;
    }
    if (m_lossRate > 0 && LossDraw() < m_lossRate)
    {
        ++m_randomLosses;
        FireLost(frame);
        return true; // the sender cannot tell
    }
    const End& d = m_ends[PeekPointer(m_ends[0].device) == src ? 1 : 0];
    // A cut-through switch port takes the frame once its first bytes are in; the rest follows
    // at no slower a rate than any egress of that switch drains it.
    const uint32_t cut = d.cutThroughBytes;
    const Time wire = cut == 0 ? txTime : std::min(txTime, src->GetLeadTime(cut));
    MrcScheduleWithContext(
        d.nodeId,
        wire + m_delay + src->GetTxLatency() + d.rxLatency,
        DeliveryEvent::Make(PeekPointer(d.device), std::move(frame), header, m_epoch));
    return true;
}

void
MrcChannel::FireLost(MrcFrame& frame)
{
    if (auto trace = m_lostTrace.Peek())
    {
        (*trace)(Ptr<const Packet>(frame.GetPacket()));
    }
}

void
MrcChannel::LoseInFlight(MrcFrame& frame)
{
    ++m_lostInFlight;
    FireLost(frame);
}

void
MrcChannel::TransmitPause(MrcNetDevice* src, uint16_t quanta, Time wait)
{
    if (!m_up || m_nDevices != 2)
    {
        return;
    }
    const uint8_t dst = (PeekPointer(m_ends[0].device) == src) ? 1 : 0;
    Simulator::ScheduleWithContext(
        m_ends[dst].nodeId, wait + m_delay, &MrcChannel::DeliverPause, this, quanta, dst, m_epoch);
}

void
MrcChannel::DeliverPause(uint16_t quanta, uint8_t dst, uint32_t epoch)
{
    if (epoch == m_epoch && m_up)
    {
        m_ends[dst].device->ReceivePause(quanta);
    }
}

void
MrcChannel::SetUp(bool up)
{
    if (up == m_up)
    {
        return;
    }
    NS_LOG_INFO("cable " << GetId() << (up ? " up" : " down") << " at " << MrcNow());
    m_up = up;
    if (!up)
    {
        ++m_epoch;
    }
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        m_ends[i].device->NotifyLinkChange(up, m_epoch);
    }
    if (m_observer != nullptr)
    {
        m_observer->NotifyLinkState(m_observerId, up);
    }
}

void
MrcChannel::SetStateObserver(MrcLinkStateObserver* observer, uint32_t id)
{
    m_observer = observer;
    m_observerId = id;
}

bool
MrcChannel::IsUp() const
{
    return m_up;
}

uint64_t
MrcChannel::GetLostInFlight() const
{
    return m_lostInFlight;
}

uint32_t
MrcChannel::GetEpoch() const
{
    return m_epoch;
}

Time
MrcChannel::GetDelay() const
{
    return m_delay;
}

uint64_t
MrcChannel::GetRandomLosses() const
{
    return m_randomLosses;
}

void
MrcChannel::SetLossRate(double rate)
{
    m_lossRate = rate;
}

int64_t
MrcChannel::AssignStreams(int64_t stream)
{
    m_stream = stream;
    if (m_loss)
    {
        m_loss->SetStream(stream);
    }
    return 1;
}

double
MrcChannel::LossDraw()
{
    if (!m_loss)
    {
        // Made at the first draw: most cables never lose a frame at random, and on the
        // paper's fabric (2.1 million cables) a variable each would hold 300 MB.
        m_loss = CreateObject<UniformRandomVariable>();
        if (m_stream >= 0)
        {
            m_loss->SetStream(m_stream);
        }
    }
    return m_loss->GetValue();
}

std::size_t
MrcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
MrcChannel::GetDevice(std::size_t i) const
{
    return m_ends[i].device;
}

Ptr<MrcNetDevice>
MrcChannel::GetMrcDevice(std::size_t i) const
{
    return m_ends[i].device;
}

} // namespace ns3
