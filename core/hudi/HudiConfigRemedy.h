#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// How explainHudiConfig's remedy introduces the ALTER PROJECT statements an admin would run; the text
// after it is those statements joined by "; ", then a full stop.
inline constexpr std::string_view kAdminRemedyLead = "An admin can apply it with: ";

// The ALTER PROJECT statements a configuration's explanation (explainHudiConfig's text, as DESCRIBE JOB's
// hudiConfigsStatusReasons carries it) offers an admin, in order, as
// written there. Empty when its remedy is not an ALTER PROJECT (reserved, set by the platform, applied) or
// the text is not one of explainHudiConfig's: a statement that does not parse as ALTER PROJECT gives nothing,
// so a console never offers to copy anything else.
std::vector<std::string> alterProjectRemedyIn(std::string_view explanation);

} // namespace jobdeck
