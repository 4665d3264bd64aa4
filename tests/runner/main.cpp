#include "tests/runner/SuiteRegistry.h"

int main(int argc, char** argv) {
    return jobdeck::test::runNamedSuite(argc, argv);
}
