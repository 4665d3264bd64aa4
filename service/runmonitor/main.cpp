#include "service/runmonitor/RunMonitor.h"

#include <cstring>

#include <unistd.h>

// jobdeck-run-monitor: started by jobdeckd for each driver (RunMonitor.h); not for people to run.
int main(int argc, char** argv) {
    const auto arguments = jobdeck::RunMonitor::parse(argc, argv);
    if (!arguments) {
        const char* usage = "jobdeck-run-monitor: started by jobdeckd for each run's driver; "
                            "not meant to be run by hand\n";
        jobdeck::RunMonitor::writeAll(2, usage, std::strlen(usage));
        return 2;
    }
    jobdeck::RunMonitor::run(*arguments);
}
