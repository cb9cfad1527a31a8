/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROGRESS_H
#define MRC_PROGRESS_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <chrono>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Progress lines for long runs: where the run is, how far along, and when it will end.
 *
 * Every CheckInterval of simulated time it looks at the wall clock; at most once per
 * WallInterval of wall time it prints one line such as
 *
 * @verbatim
   [mrc] simulated 2.41 ms | steps 6/10 (60%) | wall 11.8 s | ETA 7.9 s | 1.9 M events/s
   @endverbatim
 *
 * The fraction done comes from a callback (for a training job: steps completed out of steps
 * planned); the ETA extrapolates the wall time per unit of that fraction. The check is one
 * scheduled event per CheckInterval, so the cost does not depend on the event rate; Stop()
 * cancels it, so a finished run is not kept alive.
 */
class MrcProgress : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcProgress();
    ~MrcProgress() override;

    /**
     * @param label printed in brackets at the start of each line
     * @param os where the lines go (must outlive the run)
     */
    void Start(const std::string& label, std::ostream* os);
    /**
     * @param cb returns the fraction of the run done, in [0, 1]
     * @param what how that fraction is counted, printed as "what done/total", e.g. "steps"
     * @param total the total of that count
     */
    void SetFraction(Callback<double> cb, const std::string& what, uint64_t total);
    /** Stop checking (the run is over). */
    void Stop();

private:
    void DoDispose() override;
    /** The periodic check. */
    void Check();

    Time m_checkInterval;                              //!< CheckInterval attribute
    Time m_wallInterval;                               //!< WallInterval attribute
    std::string m_label;                               //!< line prefix
    std::ostream* m_os;                                //!< output
    Callback<double> m_fraction;                       //!< fraction done
    std::string m_what;                                //!< what the fraction counts
    uint64_t m_total;                                  //!< its total
    EventId m_event;                                   //!< next check
    std::chrono::steady_clock::time_point m_start;     //!< wall clock at Start
    std::chrono::steady_clock::time_point m_lastPrint; //!< wall clock at the last line
    uint64_t m_lastEvents;                             //!< events at the last line
};

} // namespace ns3

#endif /* MRC_PROGRESS_H */
