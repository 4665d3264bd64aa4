#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// What the console says of a hoodie.* key the catalogue does not know, wherever it is met (a Job's
// --hudi-conf, a project's allow-list): with the closest known keys (HudiCatalogue::suggest, best
// first, not empty), or without.
std::string hudiKeyTypoMessage(std::string_view key, const std::vector<std::string>& suggestions);
std::string unknownHudiKeyMessage(std::string_view key);

} // namespace jobdeck
