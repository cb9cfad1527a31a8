/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CHOICE_CHECKER_H
#define MRC_CHOICE_CHECKER_H

#include "ns3/string.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A checker for string attributes that take one of a few words.
 *
 * The value stays a StringValue (it reads and prints the same in every ns-3 version, unlike an
 * EnumValue), but a word outside the list is refused when it is set: by
 * ObjectBase::SetAttributeFailSafe, Config::SetDefaultFailSafe and the command line
 * (MrcCommandLine names the accepted words in its one-line error). GetUnderlyingTypeInformation
 * lists them, so --PrintAttributes shows them too.
 */
class MrcChoiceChecker : public StringChecker
{
public:
    /** @param choices the accepted words */
    explicit MrcChoiceChecker(std::vector<std::string> choices);

    bool Check(const AttributeValue& value) const override;
    std::string GetValueTypeName() const override;
    bool HasUnderlyingTypeInformation() const override;
    /** @return "one of: a|b|c" */
    std::string GetUnderlyingTypeInformation() const override;
    Ptr<AttributeValue> Create() const override;
    bool Copy(const AttributeValue& source, AttributeValue& destination) const override;

    /** @return the accepted words joined by '|' */
    std::string GetChoices() const;

private:
    std::vector<std::string> m_choices; //!< the accepted words
};

/**
 * @param choices the accepted words
 * @return a checker for a StringValue attribute that accepts only those
 */
Ptr<const AttributeChecker> MakeMrcChoiceChecker(std::vector<std::string> choices);

} // namespace ns3

#endif /* MRC_CHOICE_CHECKER_H */
