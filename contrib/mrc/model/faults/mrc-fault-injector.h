/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_INJECTOR_H
#define MRC_FAULT_INJECTOR_H

#include "ns3/mrc-fault-action.h"
#include "ns3/mrc-fault-event.h"
#include "ns3/mrc-fault-target-id.h"
#include "ns3/mrc-fault-targets.h"
#include "ns3/mrc-link-tier.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class MrcChannel;
class MrcNetDevice;
class MrcSwitchNetDevice;

/**
 * @ingroup mrc
 * @brief Applies faults to a multi-plane Clos fabric during the run: scheduled actions (link
 * down/up and flaps on host-T0, T0-T1 and T1-T2 cables, whole-switch reboots, switch
 * blackholes, NIC port loss) and stochastic flap processes, each recorded as an MrcFaultEvent
 * and reported through the Fault trace.
 *
 * It acts on MrcFaultTargets, so the same actions drive the packet-level fabric
 * (MrcClosTopology) and the flow-level one (MrcFluidNetwork). MrcFaultHelper installs it and
 * reads fault files and command-line options into it.
 *
 * Actions are MrcFaultAction values and targets MrcFaultTargetId values (positions), named in
 * files and events by MrcFaultActionNames() and MrcFaultTargetId::GetName: `host<H>/plane<P>`
 * (a NIC port and its cable), `plane<P>/t0-<I>/t1-<J>` (J counts within the T0's pod),
 * `plane<P>/t1-<J>/t2-<K>`, and switches `plane<P>/t0-<I>`, `plane<P>/t1-<J>`,
 * `plane<P>/t2-<K>`; receive loss also takes `host<H>` (every port of the host's NIC) and
 * `hosts` (every host's). A switch reboot takes every cable of the switch down
 * for its duration; a blackhole leaves them up and forwards nothing (packet level only);
 * nic_rx_loss makes the NIC ports drop each arriving frame with a probability (MrcNetDevice
 * RxLossRate; packet level only).
 *
 * A flap process flaps every link of a tier at a rate per link (or picks one of the tier's
 * links at a rate for the whole tier), with exponential (Poisson) or periodic (random phase)
 * gaps and exponential or constant down times; a link already down is left alone.
 */
class MrcFaultInjector : public Object
{
public:
    /**
     * Signature of the Fault trace.
     * @param event the fault event
     */
    typedef void (*FaultTracedCallback)(const MrcFaultEvent& event);

    /** What a target resolves to on the fabric. */
    struct Target
    {
        std::vector<Ptr<MrcChannel>> links;   //!< cables (one for a link; all ports for a switch)
        Ptr<MrcSwitchNetDevice> sw;           //!< the switch, for switch targets (packet level)
        std::vector<Ptr<MrcNetDevice>> ports; //!< NIC ports (host targets, packet level)
        MrcFaultTargetId::Kind kind = MrcFaultTargetId::Kind::LINK; //!< the target's kind
    };

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFaultInjector();
    ~MrcFaultInjector() override;

    /**
     * Act on a fabric.
     * @param owner the object that owns the targets (kept alive)
     * @param fabric its fault targets
     */
    void SetTargets(Ptr<Object> owner, const MrcFaultTargets* fabric);

    /**
     * @param id a target
     * @param t set to what it is on the fabric
     * @param error set to a one-line message naming the accepted forms on failure
     * @return false if the fabric has no such target
     */
    bool Resolve(const MrcFaultTargetId& id, Target& t, std::string& error) const;
    /**
     * @param name a target name (MrcFaultTargetId::Parse)
     * @param t set to the target
     * @param error set to a one-line message naming the accepted forms on failure
     * @return false if the name is malformed or the fabric has no such target
     */
    bool Resolve(const std::string& name, Target& t, std::string& error) const;

    /**
     * Check that an action can be scheduled, without scheduling it: the target exists, suits
     * the action, and the action has what it needs (a rate for nic_rx_loss and no other;
     * packet-level ports or switches for nic_rx_loss and blackhole).
     * @param action the action
     * @param target its target
     * @param rate nic_rx_loss: the loss probability, in (0, 1]; 0 for the others
     * @param error set to a one-line message on failure
     * @return false if Schedule would refuse it
     */
    bool Check(MrcFaultAction action,
               const MrcFaultTargetId& target,
               double rate,
               std::string& error) const;

    /**
     * Schedule one action.
     * @param at when
     * @param action the action
     * @param target its target
     * @param duration how long (flap, reboot, blackhole, port loss, receive loss; 0 = until
     *        the end)
     * @param error set to a one-line message on failure
     * @param rate nic_rx_loss: the probability, in (0, 1], that a NIC port drops an arriving
     *        frame (the other actions take none: 0)
     * @return false if Check refuses it (nothing is scheduled then)
     */
    bool Schedule(Time at,
                  MrcFaultAction action,
                  const MrcFaultTargetId& target,
                  Time duration,
                  std::string& error,
                  double rate = 0);
    /**
     * Schedule one action given by names, as a fault file's row gives it.
     * @param at when
     * @param action the action's name (MrcFaultActionNames)
     * @param target the target's name (MrcFaultTargetId::Parse)
     * @param duration how long (0 = until the end)
     * @param error set to a one-line message on failure
     * @param rate nic_rx_loss's probability (0 for the others)
     * @return false if a name is unknown or Check refuses the action
     */
    bool Schedule(Time at,
                  const std::string& action,
                  const std::string& target,
                  Time duration,
                  std::string& error,
                  double rate = 0);

    /**
     * Start a stochastic flap process on the links of a tier.
     * @param tier an upward tier (MrcIsUpwardTier: host-t0, t0-t1 or t1-t2)
     * @param rate flaps per second, per link (perLink) or over the whole tier
     * @param perLink rate is per link (true) or for the whole tier (false)
     * @param meanDown mean down time
     * @param start first possible flap
     * @param stop no flap starts after this
     * @param error set on failure
     * @return false if the tier is not upward or has no links, or the rate is not positive
     */
    bool AddFlapProcess(MrcLinkTier tier,
                        double rate,
                        bool perLink,
                        Time meanDown,
                        Time start,
                        Time stop,
                        std::string& error);

    /** @return every fault event so far */
    const std::vector<MrcFaultEvent>& GetEvents() const;

    /** One action given to Schedule. */
    struct ScheduledAction
    {
        Time at;                 //!< when
        MrcFaultAction action;   //!< the action
        MrcFaultTargetId target; //!< its target
        Time duration;           //!< its duration
        double rate = 0;         //!< nic_rx_loss: the loss probability
    };

    /** @return every action given to Schedule, in the order given */
    const std::vector<ScheduledAction>& GetScheduled() const;

    /**
     * Assign random streams to the flap processes.
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    void DoDispose() override;

    /**
     * Check an action (the public Check), keeping what its target resolved to.
     * @param action the action
     * @param target its target
     * @param rate nic_rx_loss's probability (0 for the others)
     * @param t set to what the target is on the fabric
     * @param error set to a one-line message on failure
     * @return false if the action cannot be scheduled
     */
    bool Check(MrcFaultAction action,
               const MrcFaultTargetId& target,
               double rate,
               Target& t,
               std::string& error) const;

    /**
     * Set cables' state and record the event.
     * @param links the cables
     * @param up state
     * @param kind event kind (SWITCH_REBOOT records start and end, the others down and up)
     * @param target target name
     */
    void SetLinks(std::vector<Ptr<MrcChannel>> links,
                  bool up,
                  MrcFaultEvent::Kind kind,
                  std::string target);
    /**
     * Start or end a blackhole.
     * @param sw switch
     * @param on state
     * @param target name
     */
    void SetBlackhole(Ptr<MrcSwitchNetDevice> sw, bool on, std::string target);
    /**
     * Start or end random receive loss on NIC ports.
     * @param ports the ports
     * @param rate the loss probability at the start; negative: the end (each port gets back
     *        the rate it had at the start)
     * @param target name
     * @param saved the ports' rates before the start (filled at the start)
     */
    void SetRxLoss(std::vector<Ptr<MrcNetDevice>> ports,
                   double rate,
                   std::string target,
                   std::shared_ptr<std::vector<double>> saved);
    /**
     * Record an event.
     * @param kind kind
     * @param target target
     * @param state state
     */
    void Record(MrcFaultEvent::Kind kind, const std::string& target, MrcFaultEvent::State state);
    /**
     * Next flap of one link (per-link process).
     * @param link the cable
     * @param name its name
     * @param rate flaps per second
     * @param meanDown mean down time
     * @param stop no flap after this
     */
    void NextFlap(Ptr<MrcChannel> link, std::string name, double rate, Time meanDown, Time stop);
    /**
     * Next flap of a tier (per-tier process).
     * @param tier tier index in m_tiers
     * @param rate flaps per second
     * @param meanDown mean down time
     * @param stop no flap after this
     */
    void NextTierFlap(uint32_t tier, double rate, Time meanDown, Time stop);
    /**
     * @param meanDown mean
     * @return a down time
     */
    Time DrawDownTime(Time meanDown);

    Ptr<Object> m_owner;                      //!< the fabric object
    const MrcFaultTargets* m_fabric;          //!< its targets
    Ptr<ExponentialRandomVariable> m_exp;     //!< inter-arrival and down times
    Ptr<UniformRandomVariable> m_uniform;     //!< link choice, periodic phases
    std::string m_downDist;                   //!< DownTimeDistribution attribute
    bool m_periodic;                          //!< Periodic attribute
    std::vector<MrcFaultEvent> m_events;      //!< recorded events
    std::vector<ScheduledAction> m_scheduled; //!< actions given to Schedule
    /** Links of a tier with their names. */
    std::vector<std::pair<std::vector<Ptr<MrcChannel>>, std::vector<std::string>>> m_tiers;
    TracedCallback<const MrcFaultEvent&> m_faultTrace; //!< Fault trace
};

} // namespace ns3

#endif /* MRC_FAULT_INJECTOR_H */
