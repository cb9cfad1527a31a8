/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_OBLIVIOUS_SPRAY_H
#define MRC_OBLIVIOUS_SPRAY_H

#include "ns3/mrc-path-selector.h"

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Oblivious packet spray: rotates over the whole EV set and ignores every feedback
 * signal (the ablation of MRC's adaptive spray). Only planes that are down and DENIED EVs are
 * avoided.
 */
class MrcObliviousSpray : public MrcPathSelector
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcObliviousSpray();
    ~MrcObliviousSpray() override;

    /**
     * @copydoc MrcPathSelector::Fork
     */
    Ptr<MrcPathSelector> Fork() const override;
};

} // namespace ns3

#endif /* MRC_OBLIVIOUS_SPRAY_H */
