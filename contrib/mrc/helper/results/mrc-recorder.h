/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECORDER_H
#define MRC_RECORDER_H

#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-fault-injector.h"
#include "ns3/mrc-fluid-job.h"
#include "ns3/mrc-link-monitor.h"
#include "ns3/mrc-results-dir.h"
#include "ns3/mrc-stack-helper.h"
#include "ns3/mrc-training-job.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Listens on trace sources and writes a run's CSV results into its results directory
 * (MrcResultsDir): flows.csv, steps.csv, events.csv and links.csv (formats in
 * analysis/README.md).
 *
 * Several schemes (runs) can go into one directory one after the other: every row carries a
 * `scheme` column. Times are in microseconds, throughput in Gb/s, sizes in bytes.
 */
class MrcRecorder : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcRecorder();
    ~MrcRecorder() override;

    /**
     * Open the CSV files in a results directory (opened by the caller, which owns it and
     * writes its run.json) and write their headers; each is listed in the directory's
     * manifest, and recorded whole by Close().
     * @param dir the results directory (must outlive the recorder's files)
     * @param error set on failure, with the OS's reason
     * @return false if a file cannot be written
     */
    bool Open(MrcResultsDir& dir, std::string& error);
    /** @param scheme the scheme name written in every row from now on */
    void SetScheme(const std::string& scheme);

    /**
     * Record a job's transfers (flows.csv) and steps (steps.csv), at packet or flow level
     * (the same rows).
     * @param job the job
     */
    void AttachJob(Ptr<MrcJob> job);
    /**
     * Record fault events (events.csv).
     * @param faults the fault injector
     */
    void AttachFaults(Ptr<MrcFaultInjector> faults);
    /**
     * Record every EV state change of every queue pair of the fabric's hosts (events.csv);
     * call after the queue pairs exist.
     * @param fabric the fabric
     * @param stack the stack installed on it
     */
    void AttachEvStates(Ptr<MrcClosTopology> fabric, MrcStackHelper& stack);
    /**
     * Sample per plane and tier link utilisation and queue occupancy every bin (links.csv),
     * through an MrcLinkMonitor built here.
     * @param fabric the fabric
     * @param bin the bin width
     */
    void SampleLinks(Ptr<MrcClosTopology> fabric, Time bin);
    /**
     * The same rows for a flow-level fabric: utilisation per plane and tier from the model's
     * rates (host-t0, t0-host, t0-t1, t1-t0); backlogs are 0 (no queues at flow level).
     * @param fabric the flow-level fabric (built)
     * @param bin the bin
     */
    void SampleLinks(Ptr<MrcFluidNetwork> fabric, Time bin);
    /** Stop sampling links (call when the workload is done, or sampling keeps the run alive). */
    void StopSampling();
    /**
     * Flush and close the CSV files, and record them whole in the manifest.
     * @param error set on failure
     * @return false if a file could not be written completely
     */
    bool Close(std::string& error);
    /** Flush and close the CSV files (errors ignored: for disposal). */
    void Close();

    /** @return flows recorded so far */
    uint64_t GetFlowsRecorded() const;

private:
    void DoDispose() override;
    /**
     * Transfer trace sink.
     * @param name the job's name
     * @param r the record
     */
    void OnTransfer(std::string name, const MrcTransferRecord& r);
    /**
     * Step trace sink.
     * @param name the job's name
     * @param r the record
     */
    void OnStep(std::string name, const MrcStepRecord& r);
    /**
     * Fault trace sink.
     * @param e the event
     */
    void OnFault(const MrcFaultEvent& e);
    /**
     * EV state trace sink.
     * @param who "hostH/qpQ"
     * @param ev EV
     * @param from old state
     * @param to new state
     * @param cause cause
     */
    void OnEvState(std::string who, uint16_t ev, uint8_t from, uint8_t to, uint8_t cause);
    /**
     * Connect to the link monitor and start it.
     * @param bin sampling period
     * @param linkRate link rate, bit/s
     */
    void StartMonitor(Time bin, double linkRate);
    /**
     * LinkSample trace sink: one links.csv row.
     * @param timeUs end of the bin, us
     * @param plane plane
     * @param tier tier (written with its name, MrcLinkTierNames)
     * @param util utilisation
     * @param queueMean mean backlog, bytes
     * @param queueMax largest backlog, bytes
     */
    void OnLinkSample(double timeUs,
                      uint32_t plane,
                      MrcLinkTier tier,
                      double util,
                      double queueMean,
                      uint32_t queueMax);

    std::string m_scheme;          //!< scheme column
    std::ofstream m_flows;         //!< flows.csv
    std::ofstream m_steps;         //!< steps.csv
    std::ofstream m_events;        //!< events.csv
    std::ofstream m_links;         //!< links.csv
    Ptr<MrcLinkMonitor> m_monitor; //!< samples links.csv (SampleLinks), or null
    MrcResultsDir* m_dir;          //!< the results directory the files are in, or null
    uint64_t m_flowsRecorded;      //!< rows in flows.csv
};

} // namespace ns3

#endif /* MRC_RECORDER_H */
