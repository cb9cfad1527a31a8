/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_HELPER_H
#define MRC_FAULT_HELPER_H

#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-csv-reader.h"
#include "ns3/mrc-fault-injector.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

class MrcFluidNetwork;

/**
 * @ingroup mrc
 * @brief Installs an MrcFaultInjector on a fabric (packet-level MrcClosTopology or flow-level
 * MrcFluidNetwork) and feeds it from a fault schedule file and the experiments' common fault
 * options; the injector (model/) applies the faults during the run.
 *
 * Schedule file (CSV, read by MrcCsvReader: '#' starts a comment anywhere on a line, lines
 * blank without their comment are skipped, fields are trimmed; the first row is the header):
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
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFaultHelper();
    ~MrcFaultHelper() override;

    /**
     * Set an attribute of the injector Install makes (DownTimeDistribution, Periodic);
     * attributes not set keep their defaults (Config::SetDefault and
     * --ns3::MrcFaultInjector::X=... apply).
     * @param name attribute name
     * @param value its value
     */
    void SetInjectorAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Install the injector on a packet-level fabric.
     * @param fabric the fabric (built)
     * @return the injector
     */
    Ptr<MrcFaultInjector> Install(Ptr<MrcClosTopology> fabric);
    /**
     * Install the injector on a flow-level fabric (--model=fluid): the same targets, schedule
     * and flap processes; blackholes need a packet-level switch and are refused.
     * @param fabric the fabric (built)
     * @return the injector
     */
    Ptr<MrcFaultInjector> Install(Ptr<MrcFluidNetwork> fabric);
    /** @return the injector Install made (null before) */
    Ptr<MrcFaultInjector> GetInjector() const;

    /**
     * Read and schedule a fault file.
     * @param path the file
     * @param error set to "file:line: field: message" on failure (MrcCsvReader's format)
     * @return false on any error (nothing is scheduled then)
     */
    bool LoadScheduleFile(const std::string& path, std::string& error);
    /**
     * Parse and schedule fault lines.
     * @param text the file's contents
     * @param name the file's name, for messages
     * @param error set to "name:line: field: message" on failure
     * @return false on any error (nothing is scheduled then)
     */
    bool LoadSchedule(const std::string& text, const std::string& name, std::string& error);

    /** Fault options an experiment takes from its command line. */
    struct Options
    {
        std::string file;      //!< --faultFile: schedule CSV
        std::string tier;      //!< --flapTier: an upward tier (MrcIsUpwardTier), none or empty
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

    /**
     * Faults that cannot have done anything in a run that ended at runEnd: scheduled at or
     * after its end (they never fired), or on a target that carried no traffic (packet level:
     * no byte crossed any of its cables). Call before Simulator::Destroy.
     * @param runEnd when the run ended (simulated)
     * @return one line per such fault, "fault 'switch_reboot plane0/t1-3' at 5000 us: ..."
     */
    std::vector<std::string> CheckScheduled(Time runEnd) const;

    /**
     * Assign random streams to the injector's flap processes.
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    void DoDispose() override;
    /**
     * Read and check one row of a schedule file.
     * @param csv the reader, at the row
     * @param action set to the action
     * @param target set to its target
     * @param at set to when
     * @param duration set to how long
     * @param rate set to nic_rx_loss's probability (0 for the others)
     * @param error set to "file:line: field: message" on failure
     * @return false if the row is bad or the injector would refuse it
     */
    bool ReadRow(const MrcCsvReader& csv,
                 MrcFaultAction& action,
                 MrcFaultTargetId& target,
                 Time& at,
                 Time& duration,
                 double& rate,
                 std::string& error) const;
    /**
     * Make the injector and give it a fabric.
     * @param owner the fabric object (kept alive)
     * @param targets its fault targets
     * @return the injector
     */
    Ptr<MrcFaultInjector> InstallOn(Ptr<Object> owner, const MrcFaultTargets* targets);

    ObjectFactory m_factory;          //!< makes the injector
    Ptr<MrcFaultInjector> m_injector; //!< what Install made
};

} // namespace ns3

#endif /* MRC_FAULT_HELPER_H */
