/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_HELPER_H
#define MRC_FAULT_HELPER_H

#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-fault-targets.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class MrcFluidNetwork;

/**
 * @ingroup mrc
 * @brief One fault event, as traced and written to events.csv.
 */
struct MrcFaultEvent
{
    Time time;          //!< when
    std::string kind;   //!< link, nic_port, switch_reboot, blackhole
    std::string target; //!< e.g. plane0/t0-3/t1-1, host5/plane2, plane0/t1-2
    std::string state;  //!< down, up, start, end
};

/**
 * @ingroup mrc
 * @brief Injects faults into a fabric built by MrcClosHelper: link down/up and flaps (host-T0,
 * T0-T1, T1-T2), whole-switch reboots (every port down for a while), switch blackholes (ports
 * stay up, nothing is forwarded: the hardest case), NIC port loss; stochastic flap processes
 * seeded through AssignStreams; a fault schedule file; command-line options.
 *
 * Targets are named `host<H>/plane<P>` (a NIC port and its cable), `plane<P>/t0-<I>/t1-<J>`
 * (J counts within the T0's pod), `plane<P>/t1-<J>/t2-<K>`, and switches `plane<P>/t0-<I>`,
 * `plane<P>/t1-<J>`, `plane<P>/t2-<K>`.
 *
 * Schedule file (CSV, '#' starts a comment, first non-comment line is the header):
 *
 *     time_us,action,target,duration_us
 *     100,link_flap,plane0/t0-1/t1-0,50
 *     300,switch_reboot,plane1/t1-2,200
 *     400,nic_port_down,host3/plane2,1000
 *     500,blackhole,plane0/t1-1,0          # 0: until the end
 *     600,link_down,plane0/t0-0/t1-1,
 *     900,link_up,plane0/t0-0/t1-1,
 */
class MrcFaultHelper : public Object
{
public:
    /**
     * Signature of the Fault trace.
     * @param event the fault event
     */
    typedef void (*FaultTracedCallback)(const MrcFaultEvent& event);

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFaultHelper();
    ~MrcFaultHelper() override;

    /** @param fabric the fabric to act on (built) */
    void SetFabric(Ptr<MrcClosTopology> fabric);
    /**
     * Act on a flow-level fabric instead (--model=fluid): the same targets, schedule and flap
     * processes; blackholes need a packet-level switch and are refused.
     * @param fabric the fabric (built)
     */
    void SetFabric(Ptr<MrcFluidNetwork> fabric);

    /**
     * Schedule one action.
     * @param at when
     * @param action link_down, link_up, link_flap, switch_reboot, blackhole, nic_port_down
     * @param target the target's name
     * @param duration how long (flap, reboot, blackhole, port loss; 0 = until the end)
     * @param error set to a one-line message on failure
     * @return false if the action or target is unknown
     */
    bool Schedule(Time at,
                  const std::string& action,
                  const std::string& target,
                  Time duration,
                  std::string& error);

    /**
     * Read and schedule a fault file.
     * @param path the file
     * @param error set to "file:line: field 'x': ..." on failure
     * @return false on any error (nothing is scheduled then)
     */
    bool LoadScheduleFile(const std::string& path, std::string& error);
    /**
     * Parse and schedule fault lines.
     * @param text the file's contents
     * @param name the file's name, for messages
     * @param error set on failure
     * @return false on any error (nothing is scheduled then)
     */
    bool LoadSchedule(const std::string& text, const std::string& name, std::string& error);

    /**
     * Start a stochastic flap process on every link of a tier.
     * @param tier host-t0, t0-t1 or t1-t2
     * @param rate flaps per second, per link (perLink) or over the whole tier
     * @param perLink rate is per link (true) or for the whole tier (false)
     * @param meanDown mean down time
     * @param start first possible flap
     * @param stop no flap starts after this
     * @param error set on failure
     * @return false if the tier is unknown or has no links
     */
    bool AddFlapProcess(const std::string& tier,
                        double rate,
                        bool perLink,
                        Time meanDown,
                        Time start,
                        Time stop,
                        std::string& error);

    /** Fault options an experiment takes from its command line. */
    struct Options
    {
        std::string file;      //!< --faultFile: schedule CSV
        std::string tier;      //!< --flapTier: host-t0, t0-t1, t1-t2, or empty for none
        double rate = 0;       //!< --flapRate: flaps per second
        bool perLink = true;   //!< --flapPerLink: rate per link (else per tier)
        double downUs = 20;    //!< --flapDown: mean down time, microseconds
        bool periodic = false; //!< --flapPeriodic: periodic instead of Poisson
        double startUs = 0;    //!< --flapStart: no flap before, microseconds
        double stopUs = 1e12;  //!< --flapStop: no flap after, microseconds
    };

    /**
     * Register the fault options on a command line (--faultFile, --flapTier, --flapRate,
     * --flapPerLink, --flapDown, --flapPeriodic, --flapStart, --flapStop), so that every
     * experiment offers the same ones. Defaults are the values in `options`.
     * @param cmd the command line
     * @param options where the parsed values go
     */
    static void AddCommandLineOptions(MrcCommandLine& cmd, Options& options);
    /**
     * Act on fault options: load the schedule file and start the flap process.
     * @param options the options
     * @param error set on failure, naming the option
     * @return false on a bad option value or fault file
     */
    bool ApplyOptions(const Options& options, std::string& error);

    /** @return every fault event so far */
    const std::vector<MrcFaultEvent>& GetEvents() const;

    /**
     * Assign random streams to the flap processes.
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    void DoDispose() override;

    /** What a target name resolved to. */
    struct Target
    {
        std::vector<Ptr<MrcChannel>> links; //!< cables (one for a link; all ports for a switch)
        Ptr<MrcSwitchNetDevice> sw;         //!< the switch, for switch targets
        std::string kind;                   //!< link, nic_port or switch
    };

    /**
     * @param name a target name
     * @param t set to the target
     * @param error set on failure
     * @return false if unknown
     */
    bool Resolve(const std::string& name, Target& t, std::string& error) const;
    /**
     * Set cables' state and record the event.
     * @param links the cables
     * @param up state
     * @param kind event kind
     * @param target target name
     */
    void SetLinks(std::vector<Ptr<MrcChannel>> links,
                  bool up,
                  std::string kind,
                  std::string target);
    /**
     * Start or end a blackhole.
     * @param sw switch
     * @param on state
     * @param target name
     */
    void SetBlackhole(Ptr<MrcSwitchNetDevice> sw, bool on, std::string target);
    /**
     * Record an event.
     * @param kind kind
     * @param target target
     * @param state state
     */
    void Record(const std::string& kind, const std::string& target, const std::string& state);
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

    /**
     * Use a fabric.
     * @param owner the object that owns it (kept alive)
     * @param fabric its fault targets
     */
    void SetTargets(Ptr<Object> owner, const MrcFaultTargets* fabric);

    Ptr<Object> m_owner;                  //!< the fabric object
    const MrcFaultTargets* m_fabric;      //!< its targets
    Ptr<ExponentialRandomVariable> m_exp; //!< inter-arrival and down times
    Ptr<UniformRandomVariable> m_uniform; //!< link choice, periodic phases
    std::string m_downDist;               //!< DownTimeDistribution attribute
    std::vector<MrcFaultEvent> m_events;  //!< recorded events
    /** Links of a tier with their names. */
    std::vector<std::pair<std::vector<Ptr<MrcChannel>>, std::vector<std::string>>> m_tiers;
    TracedCallback<const MrcFaultEvent&> m_faultTrace; //!< Fault trace

    bool m_periodic; //!< Periodic attribute
};

} // namespace ns3

#endif /* MRC_FAULT_HELPER_H */
