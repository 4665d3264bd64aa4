#include "tests/runner/SuiteRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace jobdeck::test {
namespace {

std::map<std::string, SuiteEntry>& suites() {
    static std::map<std::string, SuiteEntry> registered;
    return registered;
}

std::string& runningSuite() {
    static std::string name;
    return name;
}

std::string baseName(const char* sourceFile) {
    std::string name = sourceFile;
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

int listSuites(const char* program, const char* problem) {
    std::fprintf(stderr, "%s\nusage: %s SUITE [Qt Test options]\nsuites:\n", problem, program);
    for (const auto& [name, entry] : suites())
        std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}

} // namespace

bool registerSuite(const char* sourceFile, SuiteEntry entry) {
    const auto [it, added] = suites().emplace(baseName(sourceFile), entry);
    if (!added) {
        std::fprintf(stderr, "two suites are named %s\n", it->first.c_str());
        std::abort();
    }
    return true;
}

int runNamedSuite(int argc, char** argv) {
    if (argc < 2)
        return listSuites(argv[0], "Which suite?");
    const auto suite = suites().find(argv[1]);
    if (suite == suites().end())
        return listSuites(argv[0], (std::string("No suite is named ") + argv[1] + ".").c_str());
    runningSuite() = suite->first;
    // The suite sees itself as the program: Qt Test and QCoreApplication::applicationName() say its name.
    std::vector<char*> arguments(argv + 1, argv + argc);
    arguments.push_back(nullptr);
    return suite->second(argc - 1, arguments.data());
}

QStringList runningSuiteArguments() {
    return {QString::fromStdString(runningSuite())};
}

} // namespace jobdeck::test
