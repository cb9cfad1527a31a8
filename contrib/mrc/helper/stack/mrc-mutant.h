/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MUTANT_H
#define MRC_MUTANT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Model variants that each break one mechanism, for showing that a verdict can fail.
 *
 * A check that decides whether the model reproduces a claim of the paper is evidence only if a
 * model broken in the mechanism the claim is about fails it. Each mutant is a named set of
 * attribute settings (where the model has no attribute for the mechanism, a documented switch
 * was added for it: MrcAdaptiveSpray::EcnSkip, MrcQueuePair::PeerPortStatus), applied by
 * MrcSchemeHelper to the schemes it concerns (MRC's mechanisms to `mrc`, the baseline's to
 * `roce` and `roce-multiplane`) after every other setting, so they win:
 *
 * | mutant | breaks | settings |
 * | --- | --- | --- |
 * | rto-only | MRC's out-of-order (SACK) loss detection: only the RTO finds losses | MrcQueuePair
 * ReorderThreshold 1000000, ReorderWindow 10 s | | slow-rto | MRC's retransmission timer: seconds |
 * MrcQueuePair AckTimeoutExponent 20 (1.07 s) | | no-trim | trimming: switches drop instead |
 * MrcSchemeHelper Trim false | | no-spray | packet spray: one path per queue pair | path selector
 * MrcSinglePath | | no-probe | probing: retired EVs never return | MrcQueuePair ProbeInterval,
 * ProbeMaxInterval 3600 s | | no-port-bitmap | the peer's port-status bitmap: peers never learn of
 * a lost port | MrcQueuePair PeerPortStatus false | | no-ecn-skip | ECN-driven load balancing:
 * marks do not skip EVs | MrcAdaptiveSpray EcnSkip false | | no-nscc | congestion control: a fixed
 * window | congestion control MrcFixedWindow | | no-loss-guard | IncastLossGuard (this model's
 * addition) | MrcSelectiveRecovery IncastLossGuard false | | ecmp-instant | the routed baseline's
 * control-plane delays: zero | MrcEcmpControlPlane DetectionDelay, ReconvergenceDelay 0 | | no-pfc
 * | the baseline's lossless class | MrcSchemeHelper Pfc false | | no-dcqcn | the baseline's
 * congestion control: PFC only | congestion control MrcFixedWindow |
 *
 * Select them with the MrcSchemeHelper attribute Mutants (a comma-separated list), or with the
 * `--mutant` option of the claims and paper programs.
 */
class MrcMutant
{
public:
    /** Where a setting goes. */
    enum Target
    {
        QUEUE_PAIR,    //!< a queue-pair attribute (MrcStackHelper::SetQueuePairAttribute)
        RECOVERY,      //!< a loss-recovery attribute (SetLossRecoveryAttribute)
        SELECTOR,      //!< a path-selector attribute (SetPathSelectorAttribute)
        SELECTOR_TYPE, //!< the path selector's TypeId (SetPathSelector)
        CC_TYPE,       //!< the congestion control's TypeId (SetCongestionControl)
        CONTROL_PLANE, //!< an MrcEcmpControlPlane attribute
        SCHEME         //!< an MrcSchemeHelper attribute (Trim, Pfc)
    };

    /** One setting of a mutant. */
    struct Setting
    {
        Target target;     //!< where it goes
        std::string name;  //!< the attribute (or "" for a TypeId)
        std::string value; //!< the value, as text (or the TypeId name)
    };

    /** One mutant. */
    struct Entry
    {
        std::string name;              //!< e.g. "rto-only"
        std::string breaks;            //!< the mechanism it breaks
        bool baseline;                 //!< applies to the roce schemes (else to mrc)
        std::vector<Setting> settings; //!< what it sets
    };

    /** @return every mutant, in the order of the table above */
    static const std::vector<Entry>& GetAll();
    /**
     * @param name a mutant name
     * @return its entry, or null
     */
    static const Entry* Find(const std::string& name);
    /**
     * Parse a comma-separated list of mutant names ("" or "none": no mutant).
     * @param list the list
     * @param out set to the entries
     * @param error set to a one-line message naming the unknown mutant and the known ones
     * @return false on an unknown or repeated name
     */
    static bool Parse(const std::string& list, std::vector<const Entry*>& out, std::string& error);
    /** @return the names, comma-separated, for messages */
    static std::string GetNames();
};

} // namespace ns3

#endif /* MRC_MUTANT_H */
